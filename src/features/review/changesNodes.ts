/**
 * "Changes" under a merge request in the trees: its changed files, each opening side by side in
 * the diff editor; the folder's inline action opens them all in the multi-file diff editor.
 */
import * as vscode from 'vscode';
import type { MergeRequestDiff } from '../../api/hosting';
import { displayPath, fileBadge } from '../../domain/mergeRequestView';
import type { AccountManager } from '../../platform/accounts';
import { describeError } from '../../platform/commands/errorMessages';
import { showError } from '../../platform/userMessages';
import { ErrorNode, MessageNode, type TreeNode } from '../../platform/tree/treeNode';
import { type ReviewTarget, loadChangedFiles } from './changedFiles';
import { CommitsFolderNode } from './commitNodes';
import { type ViewedFiles, viewedDescription } from './viewedFiles';

/** The rows' fixed words, translated once: a folder of a thousand files is drawn again on every tick. */
let rowWords:
  | {
      badge: Record<ReturnType<typeof fileBadge>, string>;
      viewed: string;
      markViewed: string;
      compare: string;
    }
  | undefined;

function words(): NonNullable<typeof rowWords> {
  rowWords ??= {
    badge: {
      added: vscode.l10n.t('added'),
      deleted: vscode.l10n.t('deleted'),
      renamed: vscode.l10n.t('renamed'),
      modified: vscode.l10n.t('modified'),
    },
    viewed: vscode.l10n.t('Viewed: click to mark as not viewed'),
    markViewed: vscode.l10n.t('Mark as viewed'),
    compare: vscode.l10n.t('Compare Side by Side'),
  };
  return rowWords;
}

export class ChangesFolderNode implements TreeNode {
  private files: Promise<MergeRequestDiff[]> | undefined;
  private known: readonly MergeRequestDiff[] | undefined;
  /** Its first row: the merge request's commits, one by one. */
  readonly commits: CommitsFolderNode;

  constructor(
    readonly target: ReviewTarget,
    private readonly accounts: AccountManager,
    readonly viewed: ViewedFiles,
    /** Redraws this folder in its tree. */
    private readonly changed: (node: TreeNode) => void,
  ) {
    this.commits = new CommitsFolderNode(target, accounts, changed);
  }

  /** Draws the folder again: its count, and its files (hidden or shown as viewed). */
  redraw(): void {
    this.changed(this);
  }

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
    if (this.known) item.description = viewedDescription(this.viewed.count(this.target, this.known));
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
      if (this.known !== files) {
        this.known = files;
        this.changed(this);
      }
      if (files.length === 0) return [new MessageNode(vscode.l10n.t('No changed files'))];
      const shown = this.viewed.hiding
        ? files.filter((change) => !this.viewed.isViewed(this.target, change))
        : files;
      if (shown.length === 0)
        return [
          this.commits,
          new MessageNode(vscode.l10n.t('All {0} files viewed (hidden)', files.length), 'eye-closed'),
        ];
      return [this.commits, ...shown.map((change) => new ChangedFileNode(this, change))];
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

  /** The reviewer ticked or cleared the row's "Viewed" box. */
  checkboxChanged(checked: boolean): void {
    this.folder.viewed.setViewed(this.folder.target, [this.change], checked).catch((error: unknown) => {
      void showError(vscode.l10n.t('The file was not marked: {0}', describeError(error)));
      this.folder.redraw();
    });
  }

  getTreeItem(): vscode.TreeItem {
    const path = displayPath(this.change);
    const slash = path.lastIndexOf('/');
    const item = new vscode.TreeItem(path.slice(slash + 1));
    const { project, mergeRequest } = this.folder.target;
    item.id = `review/${this.folder.target.accountId}/${project.id}/${mergeRequest.iid}/file/${path}`;
    // A file URI only for the file icon theme; the row never opens it.
    item.resourceUri = vscode.Uri.file(`/${path}`);
    const badge = fileBadge(this.change);
    const said = words();
    item.description = [
      slash > 0 ? path.slice(0, slash) : undefined,
      badge === 'modified' ? undefined : said.badge[badge],
    ]
      .filter(Boolean)
      .join(' · ');
    item.tooltip =
      badge === 'renamed'
        ? vscode.l10n.t('{0} → {1}', this.change.old_path, this.change.new_path)
        : vscode.l10n.t('{0} ({1})', path, said.badge[badge]);
    const viewed = this.folder.viewed.isViewed(this.folder.target, this.change);
    item.checkboxState = {
      state: viewed ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked,
      tooltip: viewed ? said.viewed : said.markViewed,
    };
    item.contextValue = `reviewFile ${badge} ${viewed ? 'viewed' : 'unviewed'}`;
    item.command = { command: 'forge.review.openChangedFile', title: said.compare, arguments: [this] };
    return item;
  }
}

/**
 * The Changes folders the trees show, so a tick in one tree (or in the panel) redraws the same
 * merge request's folder in the other. Held weakly: a refreshed tree drops its old folders.
 */
export class LiveChangesFolders implements vscode.Disposable {
  private readonly folders = new Set<WeakRef<ChangesFolderNode>>();
  private readonly watch: vscode.Disposable;

  constructor(private readonly viewed: ViewedFiles) {
    this.watch = viewed.onDidChange((key) => this.redraw(key));
  }

  add(folder: ChangesFolderNode): ChangesFolderNode {
    this.folders.add(new WeakRef(folder));
    return folder;
  }

  /** Redraws the folders of one merge request (by its viewed key), or all of them. */
  private redraw(key: string | undefined): void {
    for (const ref of this.folders) {
      const folder = ref.deref();
      if (!folder) this.folders.delete(ref);
      else if (key === undefined || this.viewed.keyOf(folder.target) === key) folder.redraw();
    }
  }

  dispose(): void {
    this.watch.dispose();
    this.folders.clear();
  }
}
