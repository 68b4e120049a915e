import * as vscode from 'vscode';
import { tooltipMarkdown } from '../../../platform/serverMarkdown';
import type { z } from 'zod';
import type { ListRequest } from '../../../api/http';
import type { HostingClient, Job, JobScope } from '../../../api/hosting';
import { jobCapabilities, summarizeStatuses, statusAppearance } from '../../../domain/jobStatus';
import { groupJobsByPipeline, orderPipelineJobs } from '../../../domain/pipelines';
import { pipelineContextTokens } from '../../../domain/pipelineActions';
import { formatAge, formatDuration } from '../../../domain/time';
import { MessageNode, type TreeNode } from '../../../platform/tree/treeNode';
import { type FolderMember, ProjectFolder, type ProjectNode, type TreeContext } from '../../projects';

/*
 * A project's Jobs folder in the Projects view (added through `contributeFolder`): jobs grouped by
 * pipeline, each pipeline read whole when it is expanded, earlier attempts folded under a job.
 */

/** What the Jobs folder shows: jobs in some states (the server filters), on one branch (we do). */
export interface JobsFilter {
  scope?: readonly JobScope[];
  ref?: string;
}

export class JobsFolder extends ProjectFolder<Job> {
  readonly menuName = vscode.l10n.t('Jobs');
  readonly label = vscode.l10n.t('Jobs');
  readonly icon = 'rocket';
  readonly kind = 'jobs';
  filter: JobsFilter = {};

  override get shown(): boolean {
    return this.owner.project.jobs_enabled !== false;
  }

  /** Reloaded by the automatic refresh while it shows running or pending jobs. */
  wantsAutoRefresh(): boolean {
    return this.list.items.some((job) => statusAppearance(job.status).active);
  }

  get emptyMessage(): string {
    const what = this.filter.scope?.length
      ? vscode.l10n.t('No {0} jobs', this.filter.scope.join(' or '))
      : vscode.l10n.t('No jobs');
    return this.filter.ref ? vscode.l10n.t('{0} on {1} in the jobs loaded', what, this.filter.ref) : what;
  }

  protected request(client: HostingClient, projectId: number): ListRequest<z.ZodType<Job>> {
    return client.listJobs(projectId, this.filter.scope?.length ? this.filter.scope : undefined);
  }

  protected override description(): string | undefined {
    const parts = [
      this.filter.scope?.join(', '),
      this.filter.ref ? vscode.l10n.t('on {0}', this.filter.ref) : undefined,
    ];
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
      return [new MessageNode(vscode.l10n.t('None of the {0} jobs loaded ran on {1}', all.length, ref))];
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
          // No page left to load: every job of each pipeline is here already.
          !this.list.hasMore,
        ),
    );
  }
}

/** The most jobs read for one pipeline when it is expanded (its own endpoint, 100 a page). */
const MAX_PIPELINE_JOBS = 2_000;

export class PipelineNode implements FolderMember {
  readonly folderKind = 'jobs';
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
    /** The Jobs folder read every page: `listedJobs` are all the pipeline's jobs it shows. */
    private readonly listComplete = false,
  ) {}

  /** The jobs known now: all of them once expanded, else those the Jobs folder listed. */
  get jobs(): readonly Job[] {
    return this.loaded ?? this.listedJobs;
  }

  /** The pipeline's status as the server gave it with its jobs, else as its jobs add up. */
  get pipelineStatus(): string {
    return this.status ?? summarizeStatuses(orderPipelineJobs(this.jobs).map(({ job }) => job.status));
  }

  /** The pipeline's page on the server. */
  get webUrl(): string | undefined {
    const base = this.owner.project.web_url;
    return this.pipelineId === undefined || !base ? undefined : `${base}/-/pipelines/${this.pipelineId}`;
  }

  getTreeItem(): vscode.TreeItem {
    const entries = orderPipelineJobs(this.jobs);
    const status = this.pipelineStatus;
    const appearance = statusAppearance(status);
    const label =
      this.pipelineId !== undefined
        ? vscode.l10n.t('Pipeline #{0}', this.pipelineId)
        : vscode.l10n.t('Jobs without a pipeline');
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `account/${this.owner.account.id}/project/${this.owner.project.id}/pipeline/${this.pipelineId ?? 'none'}`;
    const count = vscode.l10n.t(
      '{0}{1} job{2}',
      entries.length,
      this.loaded || this.listComplete || this.pipelineId === undefined ? '' : '+',
      entries.length === 1 ? '' : 's',
    );
    item.description = [this.ref, appearance.label, count].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(
      appearance.codicon,
      appearance.color ? new vscode.ThemeColor(appearance.color) : undefined,
    );
    // Actions on the pipeline as a whole, as its state allows them (src/domain/pipelineActions.ts).
    item.contextValue =
      this.pipelineId === undefined
        ? 'pipeline'
        : ['pipeline', 'whole', ...pipelineContextTokens({ status, web_url: this.webUrl })].join(' ');
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

export class JobNode implements FolderMember {
  readonly folderKind = 'jobs';

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
      this.isEarlierAttempt ? vscode.l10n.t('#{0} (run again)', job.id) : job.stage,
      appearance.label,
      formatDuration(job.started_at, job.finished_at),
      this.retried.length > 0
        ? this.retried.length === 1
          ? vscode.l10n.t('1 earlier attempt')
          : vscode.l10n.t('{0} earlier attempts', this.retried.length)
        : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    const tooltip = tooltipMarkdown();
    tooltip.appendMarkdown('**').appendText(`${job.name} #${job.id}`).appendMarkdown('**\n\n');
    tooltip.appendText(vscode.l10n.t('{0} on {1}', appearance.label, job.ref));
    if (job.commit?.title)
      tooltip.appendMarkdown('\n\n').appendText(`${job.commit.short_id ?? ''} ${job.commit.title}`);
    if (job.created_at)
      tooltip.appendMarkdown('\n\n').appendText(vscode.l10n.t('Created {0}', formatAge(job.created_at)));
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(
      appearance.codicon,
      appearance.color ? new vscode.ThemeColor(appearance.color) : undefined,
    );
    item.command = {
      command: 'forge.job.showTrace',
      title: vscode.l10n.t('Show Job Trace'),
      arguments: [this],
    };
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
