import type { AccountInfo, AccountManager } from '../../platform/accounts';
import { AccountsTreeProvider } from '../../platform/tree/accountsTreeProvider';
import type { TreeNode } from '../../platform/tree/treeNode';
import type { ChangedFolder } from '../../services';
import { AccountNode } from './nodes/accountNode';
import {
  type ContributedFolderFactory,
  type FolderContribution,
  ProjectFolder,
  type TreeContext,
  isFolderMember,
} from './projectFolder';
import type { ProjectFilterStore } from './projectFilter';

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
  contributeFolder(create: ContributedFolderFactory, order: number): void {
    (this.context.contributedFolders as FolderContribution[]).push({ order, create });
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
        for (const folder of project.folders) if (folder.wantsAutoRefresh?.()) this.refresh(folder);
      }
    }
  }

  /** Reloads a project's folder where the view shows it (an action from a panel or the palette). */
  refreshProjectFolder(changed: ChangedFolder): void {
    const project = this.accountNodes
      .get(changed.accountId)
      ?.loadedProjects()
      .find((node) => node.project.id === changed.projectId);
    const folder = project?.folderOfKind(changed.folder);
    if (folder instanceof ProjectFolder && folder.list.status !== 'idle') this.refresh(folder);
  }

  /** Reloads the folder a node lives in (a job's Jobs folder, a branch's Branches folder …). */
  refreshAround(node: TreeNode | undefined): void {
    const folder = node && isFolderMember(node) ? node.owner.folderOfKind(node.folderKind) : node;
    if (folder instanceof ProjectFolder) this.refresh(folder);
    else this.refresh();
  }

  redraw(node?: TreeNode): void {
    this.fireChange(node);
  }
}
