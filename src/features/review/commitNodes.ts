/**
 * "Commits" under a merge request's Changes folder: its commits oldest first, each opening its own
 * changes in the multi-file diff editor (with next and previous commit), its lines open to comments.
 */
import * as vscode from 'vscode';
import type { MergeRequestCommit } from '../../api/hosting';
import type { AccountManager } from '../../platform/accounts';
import { tooltipMarkdown } from '../../platform/serverMarkdown';
import { ErrorNode, MessageNode, type TreeNode } from '../../platform/tree/treeNode';
import type { ReviewTarget } from './changedFiles';

/** Commits a folder lists at most (GitLab's own list stops at 100 per page; a review rarely has more). */
export const MAX_LISTED_COMMITS = 500;

export async function loadCommits(
  accounts: AccountManager,
  target: ReviewTarget,
): Promise<MergeRequestCommit[]> {
  const client = await accounts.client(target.accountId);
  const commits: MergeRequestCommit[] = [];
  for await (const commit of client.listMergeRequestCommits(target.project.id, target.mergeRequest.iid)) {
    commits.push(commit);
    if (commits.length >= MAX_LISTED_COMMITS) break;
  }
  // The server lists the newest first; a review reads them in the order they were written.
  return commits.reverse();
}

export class CommitsFolderNode implements TreeNode {
  private commits: Promise<MergeRequestCommit[]> | undefined;
  private count: number | undefined;

  constructor(
    readonly target: ReviewTarget,
    private readonly accounts: AccountManager,
    private readonly changed: (node: TreeNode) => void,
  ) {}

  list(): Promise<MergeRequestCommit[]> {
    this.commits ??= loadCommits(this.accounts, this.target);
    return this.commits;
  }

  getTreeItem(): vscode.TreeItem {
    const { project, mergeRequest } = this.target;
    const item = new vscode.TreeItem(vscode.l10n.t('Commits'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `review/${this.target.accountId}/${project.id}/${mergeRequest.iid}/commits`;
    item.iconPath = new vscode.ThemeIcon('git-commit');
    if (this.count !== undefined) item.description = String(this.count);
    item.tooltip = vscode.l10n.t(
      'The commits of !{0}, oldest first: click one to review its changes',
      mergeRequest.iid,
    );
    item.contextValue = 'reviewCommits';
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    try {
      const commits = await this.list();
      if (this.count !== commits.length) {
        this.count = commits.length;
        this.changed(this);
      }
      if (commits.length === 0) return [new MessageNode(vscode.l10n.t('No commits'))];
      return commits.map((commit, index) => new CommitNode(this, commit, index, commits.length));
    } catch (error) {
      this.commits = undefined;
      return [new ErrorNode(error, () => this.changed(this), this.target.accountId)];
    }
  }
}

export class CommitNode implements TreeNode {
  constructor(
    readonly folder: CommitsFolderNode,
    readonly commit: MergeRequestCommit,
    readonly index: number,
    private readonly total: number,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const { commit } = this;
    const item = new vscode.TreeItem(commit.title);
    const { project, mergeRequest } = this.folder.target;
    item.id = `review/${this.folder.target.accountId}/${project.id}/${mergeRequest.iid}/commit/${commit.id}`;
    item.iconPath = new vscode.ThemeIcon('git-commit');
    item.description = [commit.short_id, commit.author_name].filter(Boolean).join(' · ');
    item.tooltip = tooltipMarkdown()
      .appendText(vscode.l10n.t('Commit {0} of {1}: {2}', this.index + 1, this.total, commit.short_id))
      .appendMarkdown('\n\n')
      .appendText(commit.message ?? commit.title);
    item.contextValue = 'reviewCommit';
    item.command = {
      command: 'forge.review.openCommit',
      title: vscode.l10n.t('Review This Commit'),
      arguments: [this],
    };
    return item;
  }
}
