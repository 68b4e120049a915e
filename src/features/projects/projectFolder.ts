import * as vscode from 'vscode';
import type { z } from 'zod';
import type { ListRequest } from '../../api/http';
import type { HostingClient } from '../../api/hosting';
import type { AccountManager } from '../../platform/accounts';
import { type LoadedPage, type PageLoader, PagedList } from '../../state/pagedList';
import { type TreeNode, pagedChildren } from '../../platform/tree/treeNode';
import type { ProjectNode } from './nodes/projectNode';

/*
 * What every folder of a project in the Projects view shares: a paged list from one endpoint,
 * loaded through the account's current client. Its own module, so that the folders defined in
 * other files (boards, triggers) extend it without importing the Projects view at run time.
 */

export const PAGE_SIZE = 50;

/** A page loader over a list endpoint, fetched through the account's current client. */
export function listLoader<S extends z.ZodType>(
  accounts: AccountManager,
  accountId: string,
  makeList: (client: HostingClient) => ListRequest<S>,
  perPage = PAGE_SIZE,
): PageLoader<z.infer<S>> {
  return async (nextUrl, signal): Promise<LoadedPage<z.infer<S>>> => {
    const list = makeList(await accounts.client(accountId));
    const page = nextUrl ? await list.next(nextUrl, signal) : await list.page({ perPage, signal });
    return { items: page.items, nextUrl: page.nextUrl, total: page.total };
  };
}

/** The project folders an action can name to be reloaded (`Services.afterAction`). */
export type FolderKind = 'jobs' | 'mergeRequests' | 'branches' | 'issues';

/** Where each folder sits under a project: the Projects view decides its own layout. */
export const FOLDER_ORDER = {
  branches: 10,
  jobs: 20,
  mergeRequests: 30,
  issues: 35,
  events: 40,
  boards: 50,
  triggers: 60,
} as const;

/** What the Projects view's nodes need from it. */
export interface TreeContext {
  accounts: AccountManager;
  changed(node?: TreeNode): void;
  /** The folders features add to every project (ProjectsTreeProvider.contributeFolder). */
  readonly contributedFolders: readonly FolderContribution[];
}

/** A folder under each project; `shown` says whether this project has one. */
export interface ContributedFolder extends TreeNode {
  readonly shown: boolean;
  /** Set on the folders an action can name (`ChangedFolder.folder`). */
  readonly kind?: FolderKind;
  /** Whether the automatic refresh reloads this folder now (running jobs, opened merge requests). */
  wantsAutoRefresh?(): boolean;
}

export type ContributedFolderFactory = (owner: ProjectNode, context: TreeContext) => ContributedFolder;

export interface FolderContribution {
  /** `FOLDER_ORDER`: where the folder sits among a project's folders. */
  readonly order: number;
  readonly create: ContributedFolderFactory;
}

/** A row that lives in one of its project's folders: after an action on it, that folder reloads. */
export interface FolderMember extends TreeNode {
  readonly owner: ProjectNode;
  readonly folderKind: FolderKind;
}

export function isFolderMember(node: TreeNode): node is FolderMember {
  return 'folderKind' in node && 'owner' in node;
}

export abstract class ProjectFolder<T> implements ContributedFolder {
  /** The folder's English name: its tree id and the `folder …` context value menus match. */
  abstract readonly menuName: string;
  /** Set on the folders an action can name (`ChangedFolder.folder`); their menus match it. */
  readonly kind?: FolderKind;
  /** The name as the user reads it (translated). */
  abstract readonly label: string;
  abstract readonly icon: string;
  abstract readonly emptyMessage: string;
  list: PagedList<T>;

  constructor(
    readonly owner: ProjectNode,
    protected readonly context: TreeContext,
  ) {
    this.list = this.createList();
  }

  /** The list endpoint behind this folder; read when each page is fetched (unless `loader` is its own). */
  protected request?(client: HostingClient, projectId: number): ListRequest<z.ZodType<T>>;
  protected abstract toNodes(items: readonly T[]): TreeNode[];

  private createList(): PagedList<T> {
    return new PagedList(this.loader());
  }

  /** How pages are read: the list endpoint of `request`, unless a folder reads its pages its own way. */
  protected loader(): PageLoader<T> {
    const projectId = this.owner.project.id;
    return listLoader(this.context.accounts, this.owner.account.id, (client) => {
      if (!this.request) throw new Error(vscode.l10n.t('{0} has no list to read', this.menuName));
      return this.request(client, projectId);
    });
  }

  /** Whether this project has the folder (a feature turned off on the server hides it). */
  get shown(): boolean {
    return true;
  }

  protected description(): string | undefined {
    return undefined;
  }

  protected get folderId(): string {
    return `account/${this.owner.account.id}/project/${this.owner.project.id}/${this.menuName}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.folderId;
    item.iconPath = new vscode.ThemeIcon(this.icon);
    item.description = this.description();
    // Menus match the English kind (`folder jobs`): the name is translated, and in German "Jobs"
    // is "Aufträge", which no menu's `when` names.
    item.contextValue = `folder ${(this.kind ?? this.menuName).toLowerCase().replace(/\s+/g, '')}`;
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return pagedChildren(
      this.list,
      (items) => this.toNodes(items),
      () => this.context.changed(this),
      {
        emptyMessage: this.emptyMessage,
        accountId: this.owner.account.id,
      },
    );
  }

  reload(): void {
    this.list.reset();
    this.context.changed(this);
  }
}
