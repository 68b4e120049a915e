import * as vscode from 'vscode';
import { tooltipMarkdown } from '../../platform/serverMarkdown';
import type { ChannelAccountInfo, ChannelAccountManager } from '../../platform/channelAccounts';
import { AccountRoots } from '../../platform/tree/accountsTreeProvider';
import type { TreeNode } from '../../platform/tree/treeNode';
import type { ChannelFileFilter, ChannelTreeContext } from './channelContext';
import { AlbumsFolder, ConnectionsFolder, GroupsFolder } from './directoryNodes';
import { FilesFolder } from './fileNodes';
import { StreamFolder } from './streamNodes';
import { connectionNote } from '../../platform/network';

/** One channel account: Stream, Files, Photo albums, Privacy groups, Connections. */
export class ChannelAccountNode implements TreeNode {
  readonly stream: StreamFolder;
  files: FilesFolder;
  readonly albums: AlbumsFolder;
  readonly groups: GroupsFolder;
  readonly connections: ConnectionsFolder;

  constructor(
    readonly account: ChannelAccountInfo,
    private readonly context: ChannelTreeContext,
  ) {
    this.stream = new StreamFolder(account, context);
    this.files = new FilesFolder(account, context);
    this.albums = new AlbumsFolder(account, context);
    this.groups = new GroupsFolder(account, context);
    this.connections = new ConnectionsFolder(account, context);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.account.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `channel/${this.account.id}`;
    const connection = connectionNote(this.account.serverUrl, this.account.network ?? {});
    item.description = [this.account.serverUrl, connection].filter(Boolean).join(' · ');
    item.tooltip = tooltipMarkdown()
      .appendText(
        vscode.l10n.t('{0} on {1}', this.account.channel?.name ?? this.account.login, this.account.serverUrl),
      )
      .appendMarkdown('\n\n')
      .appendText(vscode.l10n.t('Signed in as {0}', this.account.login));
    item.iconPath = new vscode.ThemeIcon('radio-tower');
    item.contextValue = `channelAccount${this.account.fromEnvironment ? ' environment' : ''}`;
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return Promise.resolve([this.stream, this.files, this.albums, this.groups, this.connections]);
  }

  /** A new Files folder with the current filter (the old one's list belongs to the old filter). */
  resetFiles(): FilesFolder {
    this.files = new FilesFolder(this.account, this.context);
    return this.files;
  }
}

/** Anything in the tree that can reload its own list. */
interface Reloadable {
  reload(): void;
}

function isReloadable(node: unknown): node is Reloadable {
  return typeof node === 'object' && node !== null && typeof (node as Reloadable).reload === 'function';
}

/**
 * The Channel view: one node per channel account (or the only account's folders directly). Empty
 * without an account, so the welcome content with "Add Channel Account" shows.
 */
export class ChannelTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TreeNode | undefined>();
  // Which account row is hidden (the only one): its changes redraw the whole view.
  private readonly roots = new AccountRoots();
  readonly onDidChangeTreeData = this.emitter.event;
  private nodes = new Map<string, ChannelAccountNode>();
  private readonly fileFilters = new Map<string, ChannelFileFilter>();
  private readonly subscription: vscode.Disposable;
  private readonly context: ChannelTreeContext;

  constructor(readonly accounts: ChannelAccountManager) {
    this.context = {
      accounts,
      changed: (node) => this.emitter.fire(this.roots.visible(node)),
      fileFilter: (accountId) => this.fileFilters.get(accountId) ?? {},
    };
    this.subscription = accounts.onDidChange(() => this.refresh());
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (node) return (await node.getChildren?.()) ?? [];
    const accounts = this.accounts.list();
    if (accounts.length === 0) return [];
    return this.roots.children(
      accounts.map((account) => this.accountNode(account.id)).filter((each) => each !== undefined),
    );
  }

  /** The node of an account (built on first use); undefined for an unknown account. */
  accountNode(accountId: string): ChannelAccountNode | undefined {
    let node = this.nodes.get(accountId);
    if (!node) {
      const account = this.accounts.get(accountId);
      if (!account) return undefined;
      node = new ChannelAccountNode(account, this.context);
      this.nodes.set(accountId, node);
    }
    return node;
  }

  /** Draws the rows again from what is loaded: their ages say how long ago as time goes by. */
  redrawAges(): void {
    this.emitter.fire(undefined);
  }

  /** Reloads `node`'s list, or everything (the channel identities too). */
  refresh(node?: TreeNode): void {
    if (node && isReloadable(node)) {
      node.reload();
      return;
    }
    this.nodes = new Map();
    this.accounts.forgetProfile();
    this.emitter.fire(undefined);
  }

  fileFilter(accountId: string): ChannelFileFilter {
    return this.fileFilters.get(accountId) ?? {};
  }

  /** Narrows an account's Files folder (an empty filter shows everything) and reloads it. */
  setFileFilter(accountId: string, filter: ChannelFileFilter): void {
    const cleaned: ChannelFileFilter = {
      filename: filter.filename?.trim() || undefined,
      filetype: filter.filetype?.trim() || undefined,
    };
    if (!cleaned.filename && !cleaned.filetype) this.fileFilters.delete(accountId);
    else this.fileFilters.set(accountId, cleaned);
    this.nodes.get(accountId)?.resetFiles();
    // The Files folder is a new object: redraw from the top.
    this.emitter.fire(undefined);
  }
}
