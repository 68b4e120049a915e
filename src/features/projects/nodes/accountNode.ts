import * as vscode from 'vscode';
import type { Project } from '../../../api/hosting';
import type { AccountInfo } from '../../../platform/accounts';
import { connectionNote } from '../../../platform/network';
import { type TreeNode, pagedChildren } from '../../../platform/tree/treeNode';
import { PagedList } from '../../../state/pagedList';
import { type TreeContext, listLoader } from '../projectFolder';
import { type ProjectFilter, describeProjectFilter } from '../projectFilter';
import { ProjectNode } from './projectNode';

/** An account's row: its projects, as its filter says. */
export class AccountNode implements TreeNode {
  readonly projects: PagedList<Project>;
  private readonly projectNodes = new Map<number, ProjectNode>();

  constructor(
    readonly account: AccountInfo,
    private readonly context: TreeContext,
    readonly filter: ProjectFilter,
  ) {
    this.projects = new PagedList(
      listLoader(context.accounts, account.id, (client) =>
        client.listProjects({
          membership: filter.scope === 'membership' ? true : undefined,
          starred: filter.scope === 'starred' ? true : undefined,
          owned: filter.scope === 'owned' ? true : undefined,
          search: filter.search,
          orderBy: 'last_activity_at',
        }),
      ),
    );
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.account.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `account/${this.account.id}`;
    const sudo = this.context.accounts.sudoOf(this.account.id);
    const connection = connectionNote(this.account.serverUrl, this.account.network);
    item.description = [
      describeProjectFilter(this.filter),
      sudo ? vscode.l10n.t('as {0}', sudo) : undefined,
      connection,
    ]
      .filter(Boolean)
      .join(' · ');
    const server = this.account.isAdmin
      ? vscode.l10n.t('{0} (administrator)', this.account.serverUrl)
      : this.account.serverUrl;
    item.tooltip = connection ? `${server}\n${connection}` : server;
    item.iconPath = new vscode.ThemeIcon(this.account.isAdmin ? 'shield' : 'account');
    item.contextValue = `account${this.account.isAdmin ? ' admin' : ''}`;
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return pagedChildren(
      this.projects,
      (projects) => projects.map((project) => this.projectNode(project)),
      () => this.context.changed(this),
      {
        emptyMessage: this.filter.search
          ? vscode.l10n.t('No project matches "{0}"', this.filter.search)
          : vscode.l10n.t('No projects'),
        accountId: this.account.id,
      },
    );
  }

  /** Projects whose nodes exist (were shown), for refreshing what the user has open. */
  loadedProjects(): ProjectNode[] {
    return [...this.projectNodes.values()];
  }

  private projectNode(project: Project): ProjectNode {
    let node = this.projectNodes.get(project.id);
    if (!node) {
      node = new ProjectNode(this.account, project, this.context);
      this.projectNodes.set(project.id, node);
    } else node.project = project;
    return node;
  }
}
