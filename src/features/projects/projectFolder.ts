import * as vscode from 'vscode';
import type { z } from 'zod';
import type { ListRequest } from '../../api/http';
import type { HostingClient } from '../../api/hosting';
import type { AccountManager } from '../../platform/accounts';
import { type LoadedPage, type PageLoader, PagedList } from '../../state/pagedList';
import { type TreeNode, pagedChildren } from '../../platform/tree/treeNode';
import type { ProjectNode } from './projectsTreeProvider';

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

/** What the Projects view's nodes need from it. */
export interface TreeContext {
  accounts: AccountManager;
  changed(node?: TreeNode): void;
  /** The folders other features add to every project (ProjectsTreeProvider.contributeFolder). */
  readonly contributedFolders: readonly ContributedFolderFactory[];
}

/** A folder another feature adds under each project; `shown` says whether this project has one. */
export interface ContributedFolder extends TreeNode {
  readonly shown: boolean;
}

export type ContributedFolderFactory = (owner: ProjectNode, context: TreeContext) => ContributedFolder;

export abstract class ProjectFolder<T> implements TreeNode {
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

  /** The list endpoint behind this folder; read when each page is fetched. */
  protected abstract request(client: HostingClient, projectId: number): ListRequest<z.ZodType<T>>;
  protected abstract toNodes(items: readonly T[]): TreeNode[];

  private createList(): PagedList<T> {
    const projectId = this.owner.project.id;
    return new PagedList(
      listLoader(this.context.accounts, this.owner.account.id, (client) => this.request(client, projectId)),
    );
  }

  protected description(): string | undefined {
    return undefined;
  }

  protected get folderId(): string {
    return `account/${this.owner.account.id}/project/${this.owner.project.id}/${this.label}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.folderId;
    item.iconPath = new vscode.ThemeIcon(this.icon);
    item.description = this.description();
    item.contextValue = `folder ${this.label.toLowerCase().replace(/\s+/g, '')}`;
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
