import * as vscode from 'vscode';
import type { AccountManager } from '../accounts';
import type { TreeNode } from './treeNode';

/**
 * What every Forge tree shares: nodes render and load themselves, the tree redraws through one
 * emitter, and a change of accounts reloads it.
 */
export abstract class AccountsTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  protected readonly emitter = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  /** The account rows at the top, and which one is hidden because it is the only one. */
  protected readonly roots = new AccountRoots();

  /** Redraws `node` (everything when undefined); a hidden account row's change redraws the root. */
  protected fireChange(node?: TreeNode): void {
    this.emitter.fire(this.roots.visible(node));
  }
  private readonly accountSubscription: vscode.Disposable;

  constructor(protected readonly accounts: AccountManager) {
    this.accountSubscription = accounts.onDidChange(() => this.onAccountsChanged());
  }

  /** Reloads everything from the server. */
  abstract refresh(): void;

  /** The nodes at the top of the tree. */
  protected abstract rootChildren(): Promise<TreeNode[]>;

  protected onAccountsChanged(): void {
    this.refresh();
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    return node ? ((await node.getChildren?.()) ?? []) : this.rootChildren();
  }

  dispose(): void {
    this.accountSubscription.dispose();
    this.emitter.dispose();
  }
}

/**
 * One node per account at the top, or the only account's children directly. No account: no
 * nodes, because VS Code shows a view's welcome content (the "Add Account" button) only while the
 * tree is empty.
 */
async function accountRoots(nodes: readonly TreeNode[]): Promise<TreeNode[]> {
  const [only] = nodes;
  if (nodes.length === 1 && only) return (await only.getChildren?.()) ?? [];
  return [...nodes];
}

/**
 * `accountRoots` that remembers which account row it hid. VS Code redraws only nodes it shows: a
 * change of the hidden row (its "Load more", a reload) must be told as a change of the whole view,
 * or nothing is redrawn (the Projects view stayed at "50 of 1202" with one account).
 */
export class AccountRoots {
  private hidden: TreeNode | undefined;

  async children(nodes: readonly TreeNode[]): Promise<TreeNode[]> {
    const [only] = nodes;
    this.hidden = nodes.length === 1 ? only : undefined;
    return accountRoots(nodes);
  }

  /** The node to redraw for a change of `node`: undefined (the root) for the hidden account row. */
  visible(node: TreeNode | undefined): TreeNode | undefined {
    return node !== undefined && node === this.hidden ? undefined : node;
  }
}
