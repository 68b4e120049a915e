import * as vscode from 'vscode';
import type { IssueFilter } from '../../api/hosting';
import { type IssueQuery, readIssueQueries } from '../../domain/issueView';
import { checkProjectPath } from '../../domain/inputValidation';
import type { AccountInfo, AccountManager } from '../../platform/accounts';
import { AccountsTreeProvider } from '../../platform/tree/accountsTreeProvider';
import { MessageNode, type TreeNode } from '../../platform/tree/treeNode';
import { IssueListNode } from './issueNodes';

/** The setting that holds the user's own lists. */
export const QUERIES_SETTING = 'issues.queries';

function queryFilter(query: IssueQuery): IssueFilter {
  return {
    scope: query.scope,
    state: query.state,
    ...(query.labels.length > 0 ? { labels: query.labels } : {}),
    ...(query.milestone ? { milestone: query.milestone } : {}),
    ...(query.search ? { search: query.search } : {}),
    orderBy: 'updated_at',
  };
}

/** One account: "Assigned to me", "Created by me", then the user's queries. */
export class IssuesAccountNode implements TreeNode {
  private lists: TreeNode[] | undefined;

  constructor(
    readonly account: AccountInfo,
    private readonly accounts: AccountManager,
    private readonly changed: (node?: TreeNode) => void,
  ) {}

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.account.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `issues/account/${this.account.id}`;
    item.tooltip = this.account.serverUrl;
    item.iconPath = new vscode.ThemeIcon('account');
    item.contextValue = 'issuesAccount';
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    this.lists ??= this.createLists();
    return Promise.resolve(this.lists);
  }

  /** The lists built so far (without loading anything). */
  loadedLists(): IssueListNode[] {
    return (this.lists ?? []).filter((node): node is IssueListNode => node instanceof IssueListNode);
  }

  private list(
    key: string,
    label: string,
    icon: string,
    expanded: boolean,
    filter: IssueFilter,
    project?: number | string,
  ): IssueListNode {
    const id = `issues/account/${this.account.id}/${key}`;
    return new IssueListNode(
      this.account,
      { id, label, icon, expanded, contextValue: `issueList ${key.startsWith('query') ? 'query' : key}` },
      this.accounts,
      (client) =>
        project === undefined ? client.listIssues(filter) : client.listProjectIssues(project, filter),
      this.changed,
      { emptyMessage: vscode.l10n.t('No issues'), showProject: project === undefined },
    );
  }

  private createLists(): TreeNode[] {
    const opened = { state: 'opened', orderBy: 'updated_at' } as const;
    const nodes: TreeNode[] = [
      this.list('assigned', vscode.l10n.t('Assigned to me'), 'account', true, {
        ...opened,
        scope: 'assigned_to_me',
      }),
      this.list('created', vscode.l10n.t('Created by me'), 'edit', true, {
        ...opened,
        scope: 'created_by_me',
      }),
    ];
    const { queries, problems } = readIssueQueries(
      vscode.workspace.getConfiguration('forge').get<unknown>(QUERIES_SETTING),
    );
    queries.forEach((query, index) => {
      let project = query.project;
      if (typeof project === 'string') {
        const checked = checkProjectPath(project);
        if (!checked.ok) {
          problems.push(`"${query.name}": ${checked.problem}`);
          return;
        }
        project = checked.value;
      }
      nodes.push(this.list(`query${index}`, query.name, 'filter', false, queryFilter(query), project));
    });
    for (const problem of problems)
      nodes.push(new MessageNode(vscode.l10n.t('Setting forge.issues.queries: {0}', problem), 'warning'));
    return nodes;
  }
}

/** The Issues view: per account, issues assigned to me, created by me, and the user's queries. */
export class IssuesTreeProvider extends AccountsTreeProvider {
  private accountNodes = new Map<string, IssuesAccountNode>();

  constructor(accounts: AccountManager) {
    super(accounts);
  }

  protected rootChildren(): Promise<TreeNode[]> {
    return this.roots.children(this.accounts.list().map((account) => this.accountNode(account)));
  }

  accountNode(account: AccountInfo): IssuesAccountNode {
    const existing = this.accountNodes.get(account.id);
    if (existing && JSON.stringify(existing.account) === JSON.stringify(account)) return existing;
    const node = new IssuesAccountNode(account, this.accounts, (changed) => this.fireChange(changed));
    this.accountNodes.set(account.id, node);
    return node;
  }

  /**
   * The automatic refresh: every list read so far is read again as far as "Load more" had gone and
   * drawn again in place, so the reader keeps their place. A list that fails to read stays as shown
   * (the next refresh tries again; "Refresh" shows the error).
   */
  async reloadInPlace(): Promise<void> {
    const lists = [...this.accountNodes.values()]
      .flatMap((node) => node.loadedLists())
      .filter((node) => node.list.status !== 'idle');
    await Promise.all(
      lists.map(async (node) => {
        await node.list.reload().catch(() => undefined);
        this.fireChange(node);
      }),
    );
  }

  /** Reads every list again. */
  refresh(): void {
    this.accountNodes = new Map();
    this.emitter.fire(undefined);
  }
}
