import * as vscode from 'vscode';
import { describeError } from '../../platform/commands/errorMessages';
import { tooltipMarkdown } from '../../platform/serverMarkdown';
import type { MergeRequest, Note, NoteParent, Project } from '../../api/hosting';
import { CancelledError } from '../../api/http';
import {
  describeMergeStatus,
  describeVotes,
  firstLine,
  groupMergeRequests,
  mergeRequestAppearance,
  mergeRequestCapabilities,
} from '../../domain/mergeRequestStatus';
import { formatAge } from '../../domain/time';
import type { AccountInfo, AccountManager } from '../../platform/accounts';
import { mapWithConcurrency } from '../../state/boundedConcurrency';
import { PagedList } from '../../state/pagedList';
import { listLoader } from '../projects';
import { AccountsTreeProvider } from '../../platform/tree/accountsTreeProvider';
import { ErrorNode, MessageNode, type TreeNode, pagedChildren } from '../../platform/tree/treeNode';
import type { CurrentUsers } from '../../state/currentUsers';
import type { ReviewFeature } from '../review';
import { withApprovals } from './approvalsTooltip';

/** Projects listed per account (first page of the membership list). */
export const PROJECT_PAGE = 100;
/** Opened merge requests read per project (first page). */
export const MERGE_REQUEST_PAGE = 100;
/** Merge request lists fetched at once. */
export const PROJECT_CONCURRENCY = 4;

export type MergeRequestGroupKind = 'assigned' | 'created' | 'all';

const GROUPS: readonly { kind: MergeRequestGroupKind; label: string; icon: string; expanded: boolean }[] = [
  { kind: 'assigned', label: vscode.l10n.t('Assigned to me'), icon: 'account', expanded: true },
  { kind: 'created', label: vscode.l10n.t('Created by me'), icon: 'edit', expanded: true },
  { kind: 'all', label: vscode.l10n.t('All opened'), icon: 'git-pull-request', expanded: false },
];

interface ViewContext {
  accounts: AccountManager;
  currentUsers: CurrentUsers;
  changed(node?: TreeNode): void;
  /** Gives each merge request its "Changes" folder. */
  review?: ReviewFeature;
}

export interface ProjectMergeRequest {
  project: Project;
  mergeRequest: MergeRequest;
}

interface AccountMergeRequests {
  username: string | undefined;
  entries: ProjectMergeRequest[];
  /** Projects whose merge requests could not be read. */
  failures: { project: Project; error: unknown }[];
}

function projectLabel(project: Project): string {
  return project.path_with_namespace ?? project.name ?? vscode.l10n.t('Project {0}', project.id);
}

function isNote(value: unknown): value is Note {
  return typeof value === 'object' && value !== null && typeof (value as Note).body === 'string';
}

export class MergeRequestsAccountNode implements TreeNode {
  private loading: Promise<AccountMergeRequests> | undefined;
  private controller: AbortController | undefined;
  private groups: MergeRequestGroupNode[] | undefined;

  constructor(
    readonly account: AccountInfo,
    private readonly context: ViewContext,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.account.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `mergeRequests/account/${this.account.id}`;
    item.tooltip = this.account.serverUrl;
    item.iconPath = new vscode.ThemeIcon('account');
    item.contextValue = 'mergeRequestsAccount';
    return item;
  }

  /** The account's opened merge requests across its projects, loaded once until `reset()`. */
  load(): Promise<AccountMergeRequests> {
    if (!this.loading) {
      const controller = new AbortController();
      this.controller = controller;
      this.loading = this.fetch(controller.signal);
      this.loading.catch(() => undefined);
    }
    return this.loading;
  }

  private async fetch(signal: AbortSignal): Promise<AccountMergeRequests> {
    const { accounts, currentUsers } = this.context;
    const client = await accounts.client(this.account.id);
    const [username, projects] = await Promise.all([
      currentUsers.username(this.account.id),
      client
        .listProjects({ membership: true, orderBy: 'last_activity_at', simple: false })
        .page({ perPage: PROJECT_PAGE, signal }),
    ]);
    const withMergeRequests = projects.items.filter((project) => project.merge_requests_enabled !== false);
    const failures: AccountMergeRequests['failures'] = [];
    const lists = await mapWithConcurrency(withMergeRequests, PROJECT_CONCURRENCY, async (project) => {
      try {
        const page = await client
          .listMergeRequests(project.id, { state: 'opened', orderBy: 'updated_at' })
          .page({ perPage: MERGE_REQUEST_PAGE, signal });
        return page.items.map((mergeRequest) => ({ project, mergeRequest }));
      } catch (error) {
        if (signal.aborted) throw error;
        failures.push({ project, error });
        return [];
      }
    });
    return { username, entries: lists.flat(), failures };
  }

  reset(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.loading = undefined;
    this.groups = undefined;
  }

  async getChildren(): Promise<TreeNode[]> {
    const loading = this.load();
    let loaded: AccountMergeRequests;
    try {
      loaded = await loading;
    } catch (error) {
      // A refresh cancelled the read this call waited for and starts its own: answer with that one.
      if (error instanceof CancelledError && this.loading !== loading) return this.getChildren();
      return [
        new ErrorNode(
          error,
          () => {
            this.reset();
            this.context.changed(this);
          },
          this.account.id,
        ),
      ];
    }
    if (!this.groups) {
      const grouped = groupMergeRequests(
        loaded.entries.map((entry) => ({ ...entry.mergeRequest, entry })),
        loaded.username,
      );
      const kinds: MergeRequestGroupKind[] =
        loaded.username === undefined ? ['all'] : ['assigned', 'created', 'all'];
      this.groups = kinds.map(
        (kind) =>
          new MergeRequestGroupNode(
            this,
            kind,
            grouped[kind].map(
              ({ entry }) =>
                new MergeRequestItemNode(
                  this.account,
                  entry.project,
                  entry.mergeRequest,
                  kind,
                  this.context,
                  loaded.username,
                ),
            ),
          ),
      );
    }
    const children: TreeNode[] = [...this.groups];
    const [failure] = loaded.failures;
    if (failure) {
      const more =
        loaded.failures.length > 1
          ? vscode.l10n.t(' (and {0} more projects)', loaded.failures.length - 1)
          : '';
      const error = new Error(
        vscode.l10n.t(
          'merge requests of {0}{1}: {2}',
          projectLabel(failure.project),
          more,
          describeError(failure.error),
        ),
      );
      children.push(
        new ErrorNode(
          error,
          () => {
            this.reset();
            this.context.changed(this);
          },
          this.account.id,
        ),
      );
    }
    return children;
  }

  /** The merge request rows built so far (all groups), without loading anything. */
  loadedItems(): MergeRequestItemNode[] {
    return (this.groups ?? []).flatMap((group) => group.items);
  }
}

export class MergeRequestGroupNode implements TreeNode {
  constructor(
    readonly owner: MergeRequestsAccountNode,
    readonly kind: MergeRequestGroupKind,
    readonly items: MergeRequestItemNode[],
  ) {}

  getTreeItem(): vscode.TreeItem {
    const group = GROUPS.find((candidate) => candidate.kind === this.kind) ?? GROUPS[2];
    const item = new vscode.TreeItem(
      group?.label ?? this.kind,
      group?.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = `mergeRequests/account/${this.owner.account.id}/group/${this.kind}`;
    item.description = String(this.items.length);
    item.iconPath = new vscode.ThemeIcon(group?.icon ?? 'git-pull-request');
    item.contextValue = `mergeRequestGroup ${this.kind}`;
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return Promise.resolve(
      this.items.length > 0
        ? this.items
        : [new MessageNode(vscode.l10n.t('No opened merge requests'), 'check')],
    );
  }
}

/** A merge request in the Merge Requests view; expands to its notes. */
export class MergeRequestItemNode implements TreeNode {
  readonly notes: PagedList<Note>;
  private changes: TreeNode | undefined;

  constructor(
    readonly account: AccountInfo,
    readonly project: Project,
    readonly mergeRequest: MergeRequest,
    readonly group: MergeRequestGroupKind,
    private readonly context: ViewContext,
    /** The account's user, to tell own notes from others'. */
    readonly username: string | undefined,
  ) {
    const parent = this.noteParent;
    const load = listLoader(context.accounts, account.id, (client) => client.listNotes(parent));
    this.notes = new PagedList<Note>(async (nextUrl, signal) => {
      const page = await load(nextUrl, signal);
      return { ...page, items: page.items.filter(isNote) };
    });
  }

  get noteParent(): NoteParent {
    return { kind: 'mergeRequest', project: this.project.id, iid: this.mergeRequest.iid };
  }

  getTreeItem(): vscode.TreeItem {
    const mr = this.mergeRequest;
    const appearance = mergeRequestAppearance(mr);
    const item = new vscode.TreeItem(`!${mr.iid} ${mr.title}`, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `mergeRequests/account/${this.account.id}/group/${this.group}/project/${this.project.id}/mr/${mr.iid}`;
    item.description = [
      projectLabel(this.project),
      appearance.label,
      describeVotes(mr),
      describeMergeStatus(mr),
    ]
      .filter(Boolean)
      .join(' · ');
    const tooltip = tooltipMarkdown();
    tooltip.appendMarkdown('**').appendText(`!${mr.iid} ${mr.title}`).appendMarkdown('**\n\n');
    tooltip.appendText(`${projectLabel(this.project)} · ${mr.source_branch} → ${mr.target_branch}`);
    tooltip
      .appendMarkdown('\n\n')
      .appendText(
        [
          vscode.l10n.t('by {0}', mr.author.name),
          mr.assignee ? vscode.l10n.t('assigned to {0}', mr.assignee.name) : 'unassigned',
          mr.updated_at ? vscode.l10n.t('updated {0}', formatAge(mr.updated_at)) : undefined,
        ]
          .filter(Boolean)
          .join(' · '),
      );
    const status = describeMergeStatus(mr);
    tooltip
      .appendMarkdown('\n\n')
      .appendText([appearance.label, status, describeVotes(mr)].filter(Boolean).join(' · '));
    if (mr.labels && mr.labels.length > 0)
      tooltip.appendMarkdown('\n\n').appendText(vscode.l10n.t('Labels: {0}', mr.labels.join(', ')));
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(appearance.codicon, new vscode.ThemeColor(appearance.color));
    const own =
      this.username !== undefined && mr.author.username.toLowerCase() === this.username.toLowerCase();
    item.contextValue = [...mergeRequestCapabilities(mr), own ? 'own' : undefined].filter(Boolean).join(' ');
    item.command = {
      command: 'forge.mergeRequest.openPanel',
      title: vscode.l10n.t('Open Merge Request'),
      arguments: [this],
    };
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    const target = { accountId: this.account.id, project: this.project, mergeRequest: this.mergeRequest };
    this.changes ??= this.context.review?.changesFolder(target, (node) => this.context.changed(node));
    const notes = await pagedChildren(
      this.notes,
      (items) => items.map((note) => new NoteNode(this, note)),
      () => this.context.changed(this),
      { emptyMessage: vscode.l10n.t('No comments yet'), accountId: this.account.id },
    );
    return this.changes ? [this.changes, ...notes] : notes;
  }

  reloadNotes(): void {
    this.notes.reset();
    this.context.changed(this);
  }
}

/** A comment on a merge request: `note own` (editable) or `note other`; system notes add `system`. */
export class NoteNode implements TreeNode {
  constructor(
    readonly owner: MergeRequestItemNode,
    readonly note: Note,
  ) {}

  get account(): AccountInfo {
    return this.owner.account;
  }

  get own(): boolean {
    const { username } = this.owner;
    return (
      username !== undefined &&
      this.note.system !== true &&
      this.note.author?.username.toLowerCase() === username.toLowerCase()
    );
  }

  getTreeItem(): vscode.TreeItem {
    const { note } = this;
    const item = new vscode.TreeItem(note.author?.name ?? note.author?.username ?? vscode.l10n.t('Someone'));
    const ownerId = `mergeRequests/account/${this.account.id}/group/${this.owner.group}/project/${this.owner.project.id}/mr/${this.owner.mergeRequest.iid}`;
    item.id = `${ownerId}/note/${note.id}`;
    item.description = [firstLine(note.body), formatAge(note.created_at)].filter(Boolean).join(' · ');
    const tooltip = tooltipMarkdown();
    tooltip
      .appendMarkdown('**')
      .appendText(
        note.created_at
          ? vscode.l10n.t(
              '{0}, {1}',
              note.author?.name ?? vscode.l10n.t('Someone'),
              formatAge(note.created_at),
            )
          : (note.author?.name ?? vscode.l10n.t('Someone')),
      )
      .appendMarkdown('**\n\n');
    // Server text is untrusted: shown as text, never rendered as markdown or HTML.
    tooltip.appendText(note.body);
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(note.system ? 'info' : 'comment');
    item.contextValue = ['note', this.own ? 'own' : 'other', note.system ? 'system' : undefined]
      .filter(Boolean)
      .join(' ');
    return item;
  }
}

/** The Merge Requests view: per account, merge requests assigned to me, created by me, and all opened. */
export class MergeRequestsTreeProvider extends AccountsTreeProvider {
  private accountNodes = new Map<string, MergeRequestsAccountNode>();
  private readonly context: ViewContext;

  constructor(
    accounts: AccountManager,
    readonly currentUsers: CurrentUsers,
    review?: ReviewFeature,
  ) {
    super(accounts);
    this.context = {
      accounts,
      currentUsers,
      changed: (node) => this.fireChange(node),
      ...(review ? { review } : {}),
    };
  }

  protected override onAccountsChanged(): void {
    this.currentUsers.clear();
    this.refresh();
  }

  override dispose(): void {
    for (const node of this.accountNodes.values()) node.reset();
    super.dispose();
  }

  protected rootChildren(): Promise<TreeNode[]> {
    const nodes = this.accounts.list().map((account) => this.accountNode(account));
    return this.roots.children(nodes);
  }

  accountNode(account: AccountInfo): MergeRequestsAccountNode {
    const existing = this.accountNodes.get(account.id);
    if (existing && JSON.stringify(existing.account) === JSON.stringify(account)) return existing;
    existing?.reset();
    const node = new MergeRequestsAccountNode(account, this.context);
    this.accountNodes.set(account.id, node);
    return node;
  }

  /** On hover: a merge request's approvals, read then. */
  resolveTreeItem(
    item: vscode.TreeItem,
    node: TreeNode,
    token: vscode.CancellationToken,
  ): vscode.TreeItem | Promise<vscode.TreeItem> {
    return node instanceof MergeRequestItemNode ? withApprovals(item, node, this.accounts, token) : item;
  }

  /** Reloads every account's merge requests. */
  refresh(): void {
    for (const node of this.accountNodes.values()) node.reset();
    this.accountNodes = new Map();
    this.emitter.fire(undefined);
  }

  /** Reloads the notes under every row that shows this merge request. */
  refreshNotes(accountId: string, projectId: number, iid: number): void {
    for (const item of this.accountNodes.get(accountId)?.loadedItems() ?? []) {
      if (item.project.id === projectId && item.mergeRequest.iid === iid) item.reloadNotes();
    }
  }
}
