import * as vscode from 'vscode';
import { tooltipMarkdown } from '../../../platform/serverMarkdown';
import type { z } from 'zod';
import type { ListRequest } from '../../../api/http';
import type { HostingClient, MergeRequest } from '../../../api/hosting';
import {
  describeMergeStatus,
  isOpenState,
  mergeRequestCapabilities,
} from '../../../domain/mergeRequestStatus';
import type { TreeNode } from '../../../platform/tree/treeNode';
import { type FolderMember, ProjectFolder, type ProjectNode, type TreeContext } from '../../projects';
import type { ReviewFeature } from '../../review';

/** A project's Merge Requests folder in the Projects view (added through `contributeFolder`). */

export type MergeRequestStateFilter = 'opened' | 'closed' | 'merged' | 'all';

export class MergeRequestsFolder extends ProjectFolder<MergeRequest> {
  readonly menuName = vscode.l10n.t('Merge Requests');
  readonly label = vscode.l10n.t('Merge Requests');
  readonly icon = 'git-pull-request';
  override readonly kind = 'mergeRequests';
  state: MergeRequestStateFilter = 'opened';

  constructor(
    owner: ProjectNode,
    context: TreeContext,
    /** Gives each merge request its "Changes" folder; none without the review feature. */
    private readonly review?: ReviewFeature,
  ) {
    super(owner, context);
  }

  override get shown(): boolean {
    return this.owner.project.merge_requests_enabled !== false;
  }

  /** Reloaded by the automatic refresh once it was opened. */
  wantsAutoRefresh(): boolean {
    return this.list.status === 'loaded';
  }

  get emptyMessage(): string {
    return this.state === 'all'
      ? vscode.l10n.t('No merge requests')
      : vscode.l10n.t('No {0} merge requests', this.state);
  }

  protected override request(client: HostingClient, projectId: number): ListRequest<z.ZodType<MergeRequest>> {
    return client.listMergeRequests(projectId, { state: this.state });
  }

  protected override description(): string {
    return this.state;
  }

  protected toNodes(items: readonly MergeRequest[]): TreeNode[] {
    return items.map(
      (mergeRequest) => new MergeRequestNode(this.owner, mergeRequest, this.changesFolderOf(mergeRequest)),
    );
  }

  private changesFolderOf(mergeRequest: MergeRequest): (() => TreeNode) | undefined {
    const { review } = this;
    if (!review) return undefined;
    const target = { accountId: this.owner.account.id, project: this.owner.project, mergeRequest };
    return () => review.changesFolder(target, (node) => this.context.changed(node));
  }

  setState(state: MergeRequestStateFilter): void {
    this.state = state;
    this.reload();
  }
}

export class MergeRequestNode implements FolderMember {
  readonly folderKind = 'mergeRequests';

  private changes: TreeNode | undefined;

  constructor(
    readonly owner: ProjectNode,
    readonly mergeRequest: MergeRequest,
    /** Its "Changes" folder (from the review feature), made when the row is first expanded. */
    private readonly changesFolder?: () => TreeNode,
  ) {}

  getChildren(): Promise<TreeNode[]> {
    this.changes ??= this.changesFolder?.();
    return Promise.resolve(this.changes ? [this.changes] : []);
  }

  getTreeItem(): vscode.TreeItem {
    const mr = this.mergeRequest;
    const item = new vscode.TreeItem(
      `!${mr.iid} ${mr.title}`,
      this.changesFolder ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `account/${this.owner.account.id}/project/${this.owner.project.id}/mr/${mr.iid}`;
    item.description = [
      // Open ones (`opened` or `reopened`) need no word; the others say what they are.
      isOpenState(mr.state) ? undefined : mr.state,
      `${mr.source_branch} → ${mr.target_branch}`,
      describeMergeStatus(mr),
    ]
      .filter(Boolean)
      .join(' · ');
    const tooltip = tooltipMarkdown();
    tooltip.appendMarkdown('**').appendText(`!${mr.iid} ${mr.title}`).appendMarkdown('**\n\n');
    tooltip.appendText(
      vscode.l10n.t(
        '{0} · by {1} · 👍 {2} 👎 {3}',
        mr.state,
        mr.author?.name ?? 'unknown',
        mr.upvotes ?? 0,
        mr.downvotes ?? 0,
      ),
    );
    if (mr.labels && mr.labels.length > 0)
      tooltip.appendMarkdown('\n\n').appendText(vscode.l10n.t('Labels: {0}', mr.labels.join(', ')));
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
      title: vscode.l10n.t('Open Merge Request'),
      arguments: [this],
    };
    return item;
  }
}
