import * as vscode from 'vscode';
import type { AccountManager } from '../../platform/accounts';
import type { TreeNode } from './treeNode';

/**
 * What every Forge tree shares: nodes render and load themselves, the tree redraws through one
 * emitter, and a change of accounts reloads it.
 */
export abstract class AccountsTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  protected readonly emitter = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
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
export async function accountRoots(nodes: readonly TreeNode[]): Promise<TreeNode[]> {
  const [only] = nodes;
  if (nodes.length === 1 && only) return (await only.getChildren?.()) ?? [];
  return [...nodes];
}
