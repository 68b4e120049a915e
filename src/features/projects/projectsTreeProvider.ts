import * as vscode from 'vscode';
import type { z } from 'zod';
import type { ListRequest } from '../../api/http';
import type {
  Branch,
  HostingClient,
  Job,
  JobScope,
  MergeRequest,
  Project,
  ProjectEvent,
} from '../../api/hosting';
import { describeProtection, isDefaultBranch } from '../../domain/branchActions';
import { jobCapabilities, summarizeStatuses, statusAppearance } from '../../domain/jobStatus';
import { describeMergeStatus, mergeRequestCapabilities, isOpenState } from '../../domain/mergeRequestStatus';
import { groupJobsByPipeline, orderPipelineJobs } from '../../domain/pipelines';
import { projectCapabilities } from '../../domain/projectActions';
import { formatAge, formatDuration } from '../../domain/time';
import { PagedList } from '../../state/pagedList';
import type { AccountInfo, AccountManager } from '../../platform/accounts';
import { AccountsTreeProvider } from '../../platform/tree/accountsTreeProvider';
import { MessageNode, type TreeNode, pagedChildren } from '../../platform/tree/treeNode';
import {
  type ContributedFolder,
  type ContributedFolderFactory,
  ProjectFolder,
  type TreeContext,
  listLoader,
} from './projectFolder';
import { type ProjectFilter, type ProjectFilterStore, describeProjectFilter } from './projectFilter';

export { PAGE_SIZE, ProjectFolder, listLoader } from './projectFolder';
import { connectionNote } from '../../platform/network';
import type { ChangedFolder } from '../../services';

export type MergeRequestStateFilter = 'opened' | 'closed' | 'merged' | 'all';

function projectTitle(project: Project): string {
  return project.name ?? project.path_with_namespace ?? project.path ?? `Project ${project.id}`;
}

export class AccountNode implements TreeNode {
  readonly projects: PagedList<Project>;
  private readonly projectNodes = new Map<number, ProjectNode>();

  constructor(
    readonly account: AccountInfo,
    private readonly context: TreeContext,
    readonly filter: ProjectFilter,
  ) {
    this.projects = new PagedList(
      listLoader(context.accounts, account.id, (client) =>
        client.listProjects({
          membership: filter.scope === 'membership' ? true : undefined,
          starred: filter.scope === 'starred' ? true : undefined,
          owned: filter.scope === 'owned' ? true : undefined,
          search: filter.search,
          orderBy: 'last_activity_at',
        }),
      ),
    );
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.account.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `account/${this.account.id}`;
    const sudo = this.context.accounts.sudoOf(this.account.id);
    const connection = connectionNote(this.account.serverUrl, this.account.network);
    item.description = [describeProjectFilter(this.filter), sudo ? `as ${sudo}` : undefined, connection]
      .filter(Boolean)
      .join(' · ');
    item.tooltip = `${this.account.serverUrl}${this.account.isAdmin ? ' (administrator)' : ''}${connection ? `\n${connection}` : ''}`;
    item.iconPath = new vscode.ThemeIcon(this.account.isAdmin ? 'shield' : 'account');
    item.contextValue = `account${this.account.isAdmin ? ' admin' : ''}`;
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return pagedChildren(
      this.projects,
      (projects) => projects.map((project) => this.projectNode(project)),
      () => this.context.changed(this),
      {
        emptyMessage: this.filter.search ? `No project matches "${this.filter.search}"` : 'No projects',
        accountId: this.account.id,
      },
    );
  }

  /** Projects whose nodes exist (were shown), for refreshing what the user has open. */
  loadedProjects(): ProjectNode[] {
    return [...this.projectNodes.values()];
  }

  private projectNode(project: Project): ProjectNode {
    let node = this.projectNodes.get(project.id);
    if (!node) {
      node = new ProjectNode(this.account, project, this.context);
      this.projectNodes.set(project.id, node);
    } else node.project = project;
    return node;
  }
}

export class ProjectNode implements TreeNode {
  readonly branches: BranchesFolder;
  readonly jobs: JobsFolder;
  readonly mergeRequests: MergeRequestsFolder;
  readonly events: EventsFolder;
  /** Folders other features add to every project (boards, triggers), in the order they were added. */
  readonly contributed: readonly ContributedFolder[];

  constructor(
    readonly account: AccountInfo,
    public project: Project,
    context: TreeContext,
  ) {
    this.branches = new BranchesFolder(this, context);
    this.jobs = new JobsFolder(this, context);
    this.mergeRequests = new MergeRequestsFolder(this, context);
    this.events = new EventsFolder(this, context);
    this.contributed = context.contributedFolders.map((create) => create(this, context));
  }

  /** This project's folder of a class another feature contributed. */
  contributedFolder<T>(folderClass: abstract new (...args: never[]) => T): T | undefined {
    return this.contributed.find((folder): folder is ContributedFolder & T => folder instanceof folderClass);
  }

  getTreeItem(): vscode.TreeItem {
    const { project } = this;
    const item = new vscode.TreeItem(projectTitle(project), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `account/${this.account.id}/project/${project.id}`;
    item.description = project.path_with_namespace ?? '';
    const tooltip = new vscode.MarkdownString();
    tooltip
      .appendMarkdown('**')
      .appendText(project.name_with_namespace ?? projectTitle(project))
      .appendMarkdown('**');
    if (project.description) tooltip.appendMarkdown('\n\n').appendText(project.description);
    tooltip
      .appendMarkdown('\n\n')
      .appendText(
        [project.visibility, project.archived ? 'archived' : undefined, `★ ${project.star_count ?? 0}`]
          .filter(Boolean)
          .join(' · '),
      );
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(
      project.archived ? 'archive' : project.visibility === 'private' ? 'lock' : 'repo',
    );
    item.contextValue = [
      'project',
      project.archived ? 'archived' : 'active',
      ...projectCapabilities(project, this.account.isAdmin),
    ].join(' ');
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    const children: TreeNode[] = [this.branches];
    if (this.project.jobs_enabled !== false) children.push(this.jobs);
    if (this.project.merge_requests_enabled !== false) children.push(this.mergeRequests);
    children.push(this.events);
    children.push(...this.contributed.filter((folder) => folder.shown));
    return Promise.resolve(children);
  }
}

class BranchesFolder extends ProjectFolder<Branch> {
  readonly label = 'Branches';
  readonly icon = 'git-branch';
  readonly emptyMessage = 'No branches';

  protected request(client: HostingClient, projectId: number): ListRequest<z.ZodType<Branch>> {
    return client.listBranches(projectId);
  }

  protected toNodes(items: readonly Branch[]): TreeNode[] {
    return items.map((branch) => new BranchNode(this.owner, branch));
  }
}

export class BranchNode implements TreeNode {
  constructor(
    readonly owner: ProjectNode,
    readonly branch: Branch,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const { branch } = this;
    const item = new vscode.TreeItem(branch.name);
    item.id = `account/${this.owner.account.id}/project/${this.owner.project.id}/branch/${branch.name}`;
    const flags = [
      branch.name === this.owner.project.default_branch ? 'default' : undefined,
      branch.protected ? 'protected' : undefined,
      branch.merged ? 'merged' : undefined,
    ].filter(Boolean);
    item.description = [flags.join(', '), branch.commit?.title].filter(Boolean).join(' · ');
    item.tooltip = [
      branch.name,
      `${branch.commit?.short_id ?? ''} ${branch.commit?.title ?? ''}`,
      branch.protected ? `Protected: ${describeProtection(branch)}` : undefined,
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = new vscode.ThemeIcon(branch.protected ? 'lock' : 'git-branch');
    const isDefault = isDefaultBranch(branch, this.owner.project.default_branch);
    item.contextValue = [
      'branch',
      branch.protected ? 'protected' : 'unprotected',
      branch.merged ? 'merged' : '',
      // The server refuses to delete the default branch (405): no delete item there.
      isDefault ? 'default' : 'deletable',
    ]
      .filter(Boolean)
      .join(' ');
    return item;
  }
}

/** What the Jobs folder shows: jobs in some states (the server filters), on one branch (we do). */
export interface JobsFilter {
  scope?: readonly JobScope[];
  ref?: string;
}

export class JobsFolder extends ProjectFolder<Job> {
  readonly label = 'Jobs';
  readonly icon = 'rocket';
  filter: JobsFilter = {};

  get emptyMessage(): string {
    const what = this.filter.scope?.length ? `No ${this.filter.scope.join(' or ')} jobs` : 'No jobs';
    return this.filter.ref ? `${what} on ${this.filter.ref} in the jobs loaded` : what;
  }

  protected request(client: HostingClient, projectId: number): ListRequest<z.ZodType<Job>> {
    return client.listJobs(projectId, this.filter.scope?.length ? this.filter.scope : undefined);
  }

  protected override description(): string | undefined {
    const parts = [this.filter.scope?.join(', '), this.filter.ref ? `on ${this.filter.ref}` : undefined];
    return parts.filter(Boolean).join(' ') || undefined;
  }

  setFilter(filter: JobsFilter): void {
    this.filter = filter;
    this.reload();
  }

  protected toNodes(all: readonly Job[]): TreeNode[] {
    // The jobs list has no branch filter: the loaded pages are filtered here.
    const ref = this.filter.ref;
    const items = ref ? all.filter((job) => job.ref === ref) : all;
    if (ref && items.length === 0 && all.length > 0)
      return [new MessageNode(`None of the ${all.length} jobs loaded ran on ${ref}`)];
    return groupJobsByPipeline(items).map(
      (group) =>
        new PipelineNode(
          this.owner,
          group.pipelineId,
          group.ref,
          group.status,
          group.jobs,
          this.context,
          this.filter.scope,
        ),
    );
  }
}

/** The most jobs read for one pipeline when it is expanded (its own endpoint, 100 a page). */
const MAX_PIPELINE_JOBS = 2_000;

export class PipelineNode implements TreeNode {
  /** Every job of the pipeline, read from its own endpoint once expanded. */
  private loaded: readonly Job[] | undefined;

  constructor(
    readonly owner: ProjectNode,
    readonly pipelineId: number | undefined,
    readonly ref: string | undefined,
    readonly status: string | undefined,
    /** The pipeline's jobs on the pages of the Jobs folder loaded so far (a page may cut it). */
    readonly listedJobs: readonly Job[],
    private readonly context: TreeContext,
    /** The states the Jobs folder shows; the pipeline's own endpoint is asked for the same. */
    private readonly scope?: readonly JobScope[],
  ) {}

  /** The jobs known now: all of them once expanded, else those the Jobs folder listed. */
  get jobs(): readonly Job[] {
    return this.loaded ?? this.listedJobs;
  }

  getTreeItem(): vscode.TreeItem {
    const entries = orderPipelineJobs(this.jobs);
    const status = this.status ?? summarizeStatuses(entries.map(({ job }) => job.status));
    const appearance = statusAppearance(status);
    const label = this.pipelineId !== undefined ? `Pipeline #${this.pipelineId}` : 'Jobs without a pipeline';
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `account/${this.owner.account.id}/project/${this.owner.project.id}/pipeline/${this.pipelineId ?? 'none'}`;
    const count = `${entries.length}${this.loaded || this.pipelineId === undefined ? '' : '+'} job${entries.length === 1 ? '' : 's'}`;
    item.description = [this.ref, appearance.label, count].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(
      appearance.codicon,
      appearance.color ? new vscode.ThemeColor(appearance.color) : undefined,
    );
    item.contextValue = 'pipeline';
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    if (!this.loaded && this.pipelineId !== undefined) {
      const pipelineId = this.pipelineId;
      try {
        const client = await this.context.accounts.client(this.owner.account.id);
        const complete: Job[] = [];
        for await (const job of client
          .listPipelineJobs(this.owner.project.id, pipelineId, this.scope?.length ? this.scope : undefined)
          .all()) {
          complete.push(job);
          if (complete.length >= MAX_PIPELINE_JOBS) break;
        }
        // The pipeline's endpoint leaves out attempts that were run again; the Jobs folder has them.
        const ids = new Set(complete.map((job) => job.id));
        this.loaded = [...complete, ...this.listedJobs.filter((job) => !ids.has(job.id))];
        // The count in the row was of the listed jobs.
        this.context.changed(this);
      } catch {
        // The jobs listed are still worth showing; the folder's refresh tries again.
        this.loaded = undefined;
      }
    }
    return orderPipelineJobs(this.jobs).map(({ job, retried }) => new JobNode(this.owner, job, retried));
  }
}

export class JobNode implements TreeNode {
  constructor(
    readonly owner: ProjectNode,
    readonly job: Job,
    /** Earlier attempts this job replaced (run again), newest first; shown folded under it. */
    readonly retried: readonly Job[] = [],
    /** This is one of those earlier attempts. */
    readonly isEarlierAttempt = false,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const { job } = this;
    const appearance = statusAppearance(job.status);
    const item = new vscode.TreeItem(
      job.name,
      this.retried.length > 0
        ? vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `account/${this.owner.account.id}/project/${this.owner.project.id}/job/${job.id}`;
    item.description = [
      this.isEarlierAttempt ? `#${job.id} (run again)` : job.stage,
      appearance.label,
      formatDuration(job.started_at, job.finished_at),
      this.retried.length > 0
        ? `${this.retried.length} earlier attempt${this.retried.length === 1 ? '' : 's'}`
        : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown('**').appendText(`${job.name} #${job.id}`).appendMarkdown('**\n\n');
    tooltip.appendText(`${appearance.label} on ${job.ref}`);
    if (job.commit?.title)
      tooltip.appendMarkdown('\n\n').appendText(`${job.commit.short_id ?? ''} ${job.commit.title}`);
    if (job.created_at) tooltip.appendMarkdown('\n\n').appendText(`Created ${formatAge(job.created_at)}`);
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(
      appearance.codicon,
      appearance.color ? new vscode.ThemeColor(appearance.color) : undefined,
    );
    item.command = { command: 'forge.job.showTrace', title: 'Show Job Trace', arguments: [this] };
    item.contextValue = [
      'job',
      job.status,
      appearance.active ? 'active' : 'finished',
      ...jobCapabilities(job),
    ].join(' ');
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return Promise.resolve(this.retried.map((attempt) => new JobNode(this.owner, attempt, [], true)));
  }
}

export class MergeRequestsFolder extends ProjectFolder<MergeRequest> {
  readonly label = 'Merge Requests';
  readonly icon = 'git-pull-request';
  state: MergeRequestStateFilter = 'opened';

  get emptyMessage(): string {
    return this.state === 'all' ? 'No merge requests' : `No ${this.state} merge requests`;
  }

  protected request(client: HostingClient, projectId: number): ListRequest<z.ZodType<MergeRequest>> {
    return client.listMergeRequests(projectId, { state: this.state });
  }

  protected override description(): string {
    return this.state;
  }

  protected toNodes(items: readonly MergeRequest[]): TreeNode[] {
    return items.map((mergeRequest) => new MergeRequestNode(this.owner, mergeRequest));
  }

  setState(state: MergeRequestStateFilter): void {
    this.state = state;
    this.reload();
  }
}

export class MergeRequestNode implements TreeNode {
  constructor(
    readonly owner: ProjectNode,
    readonly mergeRequest: MergeRequest,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const mr = this.mergeRequest;
    const item = new vscode.TreeItem(`!${mr.iid} ${mr.title}`);
    item.id = `account/${this.owner.account.id}/project/${this.owner.project.id}/mr/${mr.iid}`;
    item.description = [
      // Open ones (`opened` or `reopened`) need no word; the others say what they are.
      isOpenState(mr.state) ? undefined : mr.state,
      `${mr.source_branch} → ${mr.target_branch}`,
      describeMergeStatus(mr),
    ]
      .filter(Boolean)
      .join(' · ');
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown('**').appendText(`!${mr.iid} ${mr.title}`).appendMarkdown('**\n\n');
    tooltip.appendText(
      `${mr.state} · by ${mr.author?.name ?? 'unknown'} · 👍 ${mr.upvotes ?? 0} 👎 ${mr.downvotes ?? 0}`,
    );
    if (mr.labels && mr.labels.length > 0)
      tooltip.appendMarkdown('\n\n').appendText(`Labels: ${mr.labels.join(', ')}`);
    item.tooltip = tooltip;
    const color =
      mr.state === 'merged' ? 'charts.purple' : mr.state === 'closed' ? 'charts.red' : 'charts.green';
    item.iconPath = new vscode.ThemeIcon(
      mr.state === 'merged'
        ? 'git-merge'
        : mr.state === 'closed'
          ? 'git-pull-request-closed'
          : 'git-pull-request',
      new vscode.ThemeColor(color),
    );
    // Capability tokens (`opened mergeable subscribed mwps` …) for the merge request menus.
    item.contextValue = mergeRequestCapabilities(mr).join(' ');
    item.command = {
      command: 'forge.mergeRequest.openPanel',
      title: 'Open Merge Request',
      arguments: [this],
    };
    return item;
  }
}

class EventsFolder extends ProjectFolder<ProjectEvent> {
  readonly label = 'Events';
  readonly icon = 'history';
  readonly emptyMessage = 'No events';

  protected request(client: HostingClient, projectId: number): ListRequest<z.ZodType<ProjectEvent>> {
    return client.listProjectEvents(projectId);
  }

  protected toNodes(items: readonly ProjectEvent[]): TreeNode[] {
    return items.map((event) => new EventNode(event));
  }
}

class EventNode implements TreeNode {
  constructor(private readonly event: ProjectEvent) {}

  getTreeItem(): vscode.TreeItem {
    const { event } = this;
    const who = event.author?.name ?? event.author_username ?? 'Someone';
    const what = event.target_title ?? event.data?.ref ?? '';
    const label = `${who} ${event.action_name} ${what}`.trim();
    const item = new vscode.TreeItem(label);
    item.description = formatAge(event.created_at ?? event.note?.created_at);
    item.tooltip = event.note?.body ?? label;
    item.iconPath = new vscode.ThemeIcon(
      event.action_name.startsWith('pushed')
        ? 'repo-push'
        : event.action_name.startsWith('commented')
          ? 'comment'
          : 'circle-small-filled',
    );
    item.contextValue = 'event';
    return item;
  }
}

/** The Projects view: accounts (when several), their projects, and each project's folders. */
export class ProjectsTreeProvider extends AccountsTreeProvider {
  private accountNodes = new Map<string, AccountNode>();
  private readonly context: TreeContext;

  constructor(
    accounts: AccountManager,
    private readonly filters: ProjectFilterStore,
  ) {
    super(accounts);
    this.context = { accounts, changed: (node) => this.fireChange(node), contributedFolders: [] };
  }

  /**
   * Adds a folder to every project (a feature's own list: boards, triggers). Called while the core
   * is built, before the view first draws.
   */
  contributeFolder(create: ContributedFolderFactory): void {
    (this.context.contributedFolders as ContributedFolderFactory[]).push(create);
  }

  protected rootChildren(): Promise<TreeNode[]> {
    const nodes = this.accounts.list().map((account) => this.accountNode(account));
    return this.roots.children(nodes);
  }

  /** The node for an account, rebuilt when its filter or settings changed. */
  accountNode(account: AccountInfo): AccountNode {
    const filter = this.filters.get(account.id);
    const existing = this.accountNodes.get(account.id);
    if (
      existing &&
      JSON.stringify([existing.filter, existing.account]) === JSON.stringify([filter, account])
    ) {
      return existing;
    }
    const node = new AccountNode(account, this.context, filter);
    this.accountNodes.set(account.id, node);
    return node;
  }

  /** Reloads everything (or one folder) from the server. */
  refresh(node?: TreeNode): void {
    if (node instanceof ProjectFolder) {
      node.reload();
      return;
    }
    this.accountNodes = new Map();
    this.emitter.fire(undefined);
  }

  /**
   * The automatic refresh: reloads Jobs folders that show running or pending jobs, and merge
   * request folders that were opened; leaves everything else (and its "Load more" state) alone.
   */
  refreshActive(): void {
    for (const account of this.accountNodes.values()) {
      for (const project of account.loadedProjects()) {
        const jobs = project.jobs.list;
        if (jobs.items.some((job) => statusAppearance(job.status).active)) this.refresh(project.jobs);
        if (project.mergeRequests.list.status === 'loaded') this.refresh(project.mergeRequests);
      }
    }
  }

  /** Reloads a project's folder where the view shows it (an action from a panel or the palette). */
  refreshProjectFolder(changed: ChangedFolder): void {
    const project = this.accountNodes
      .get(changed.accountId)
      ?.loadedProjects()
      .find((node) => node.project.id === changed.projectId);
    if (project && project[changed.folder].list.status !== 'idle') this.refresh(project[changed.folder]);
  }

  /** Reloads the folder a node lives in (a job's Jobs folder, a branch's Branches folder …). */
  refreshAround(node: TreeNode | undefined): void {
    if (node instanceof JobNode || node instanceof PipelineNode) this.refresh(node.owner.jobs);
    else if (node instanceof BranchNode) this.refresh(node.owner.branches);
    else if (node instanceof MergeRequestNode) this.refresh(node.owner.mergeRequests);
    else if (node instanceof ProjectFolder) this.refresh(node);
    else this.refresh();
  }

  redraw(node?: TreeNode): void {
    this.fireChange(node);
  }
}
