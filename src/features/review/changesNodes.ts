/**
 * "Changes" under a merge request in the trees: its changed files, each opening side by side in
 * the diff editor; the folder's inline action opens them all in the multi-file diff editor.
 */
import * as vscode from 'vscode';
import type { MergeRequestDiff } from '../../api/hosting';
import { displayPath, fileBadge } from '../../domain/mergeRequestView';
import type { AccountManager } from '../../platform/accounts';
import { ErrorNode, MessageNode, type TreeNode } from '../../platform/tree/treeNode';
import { type ReviewTarget, loadChangedFiles } from './changedFiles';

const BADGE_TEXT: Record<ReturnType<typeof fileBadge>, () => string> = {
  added: () => vscode.l10n.t('added'),
  deleted: () => vscode.l10n.t('deleted'),
  renamed: () => vscode.l10n.t('renamed'),
  modified: () => vscode.l10n.t('modified'),
};

export class ChangesFolderNode implements TreeNode {
  private files: Promise<MergeRequestDiff[]> | undefined;
  private count: number | undefined;

  constructor(
    readonly target: ReviewTarget,
    private readonly accounts: AccountManager,
    /** Redraws this folder in its tree. */
    private readonly changed: (node: TreeNode) => void,
  ) {}

  /** The changed files, read once (a refresh of the merge request makes a new folder). */
  changes(): Promise<MergeRequestDiff[]> {
    this.files ??= this.accounts
      .client(this.target.accountId)
      .then((client) => loadChangedFiles(client, this.target));
    return this.files;
  }

  getTreeItem(): vscode.TreeItem {
    const { project, mergeRequest } = this.target;
    const item = new vscode.TreeItem(vscode.l10n.t('Changes'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `review/${this.target.accountId}/${project.id}/${mergeRequest.iid}/changes`;
    item.iconPath = new vscode.ThemeIcon('diff-multiple');
    if (this.count !== undefined) item.description = String(this.count);
    item.tooltip = vscode.l10n.t(
      'The files !{0} changes: click one to compare it side by side',
      mergeRequest.iid,
    );
    item.contextValue = 'reviewChanges';
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    try {
      const files = await this.changes();
      if (this.count !== files.length) {
        this.count = files.length;
        this.changed(this);
      }
      if (files.length === 0) return [new MessageNode(vscode.l10n.t('No changed files'))];
      return files.map((change) => new ChangedFileNode(this, change));
    } catch (error) {
      this.files = undefined;
      return [new ErrorNode(error, () => this.changed(this), this.target.accountId)];
    }
  }
}

export class ChangedFileNode implements TreeNode {
  constructor(
    readonly folder: ChangesFolderNode,
    readonly change: MergeRequestDiff,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const path = displayPath(this.change);
    const slash = path.lastIndexOf('/');
    const item = new vscode.TreeItem(path.slice(slash + 1));
    const { project, mergeRequest } = this.folder.target;
    item.id = `review/${this.folder.target.accountId}/${project.id}/${mergeRequest.iid}/file/${path}`;
    // A file URI only for the file icon theme; the row never opens it.
    item.resourceUri = vscode.Uri.file(`/${path}`);
    const badge = fileBadge(this.change);
    item.description = [
      slash > 0 ? path.slice(0, slash) : undefined,
      badge === 'modified' ? undefined : BADGE_TEXT[badge](),
    ]
      .filter(Boolean)
      .join(' · ');
    item.tooltip =
      badge === 'renamed'
        ? vscode.l10n.t('{0} → {1}', this.change.old_path, this.change.new_path)
        : vscode.l10n.t('{0} ({1})', path, BADGE_TEXT[badge]());
    item.contextValue = `reviewFile ${badge}`;
    item.command = {
      command: 'forge.review.openChangedFile',
      title: vscode.l10n.t('Compare Side by Side'),
      arguments: [this],
    };
    return item;
  }
}
