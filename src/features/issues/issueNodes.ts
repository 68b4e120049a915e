import * as vscode from 'vscode';
import type { HostingClient, Issue } from '../../api/hosting';
import type { ListRequest } from '../../api/http';
import type { z } from 'zod';
import { issueAppearance } from '../../domain/issueView';
import { formatAge } from '../../domain/time';
import type { AccountInfo, AccountManager } from '../../platform/accounts';
import { tooltipMarkdown } from '../../platform/serverMarkdown';
import { type TreeNode, pagedChildren } from '../../platform/tree/treeNode';
import { PagedList } from '../../state/pagedList';
import { listLoader } from '../projects';
import { projectPathOf } from './issueTarget';

/** Issues read per page in a list of the Issues view or a project's Issues folder. */
export const ISSUE_PAGE = 50;

/** An issue in a list; opens its panel. `issue opened|closed` for menus. */
export class IssueNode implements TreeNode {
  constructor(
    readonly account: AccountInfo,
    readonly issue: Issue,
    private readonly parentId: string,
    /** Rows inside a project's folder leave the project out of their description. */
    private readonly showProject: boolean,
  ) {}

  get projectId(): number | undefined {
    return this.issue.project_id;
  }

  getTreeItem(): vscode.TreeItem {
    const { issue } = this;
    const appearance = issueAppearance({ state: issue.state ?? 'opened', confidential: issue.confidential });
    const item = new vscode.TreeItem(`#${issue.iid} ${issue.title}`);
    item.id = `${this.parentId}/issue/${issue.project_id ?? 0}/${issue.iid}`;
    const tasks = issue.task_completion_status;
    item.description = [
      this.showProject ? projectPathOf(issue) : undefined,
      (issue.labels ?? []).slice(0, 3).join(', ') || undefined,
      tasks && tasks.count > 0
        ? vscode.l10n.t('{0} of {1} tasks', tasks.completed_count, tasks.count)
        : undefined,
      issue.updated_at ? formatAge(issue.updated_at) : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    const tooltip = tooltipMarkdown();
    tooltip.appendMarkdown('**').appendText(`#${issue.iid} ${issue.title}`).appendMarkdown('**\n\n');
    const assignees = (issue.assignees ?? (issue.assignee ? [issue.assignee] : [])).map((user) => user.name);
    tooltip.appendText(
      [
        projectPathOf(issue),
        appearance.label,
        issue.author ? vscode.l10n.t('by {0}', issue.author.name) : undefined,
        assignees.length > 0 ? vscode.l10n.t('assigned to {0}', assignees.join(', ')) : undefined,
        issue.milestone?.title ? vscode.l10n.t('milestone {0}', issue.milestone.title) : undefined,
        issue.due_date ? vscode.l10n.t('due {0}', issue.due_date) : undefined,
      ]
        .filter(Boolean)
        .join(' · '),
    );
    if (issue.labels && issue.labels.length > 0)
      tooltip.appendMarkdown('\n\n').appendText(vscode.l10n.t('Labels: {0}', issue.labels.join(', ')));
    item.tooltip = tooltip;
    item.iconPath = new vscode.ThemeIcon(appearance.codicon, new vscode.ThemeColor(appearance.color));
    item.contextValue = `issue ${issue.state === 'closed' ? 'closed' : 'opened'}`;
    item.command = {
      command: 'forge.issue.openPanel',
      title: vscode.l10n.t('Open Issue'),
      arguments: [this],
    };
    return item;
  }
}

/** A list of issues read a page at a time, with its count and "Load more". */
export class IssueListNode implements TreeNode {
  readonly list: PagedList<Issue>;

  constructor(
    readonly account: AccountInfo,
    private readonly look: {
      id: string;
      label: string;
      icon: string;
      expanded: boolean;
      contextValue: string;
    },
    accounts: AccountManager,
    request: (client: HostingClient) => ListRequest<z.ZodType<Issue>>,
    private readonly changed: (node?: TreeNode) => void,
    private readonly options: { emptyMessage: string; showProject: boolean; problem?: string },
  ) {
    this.list = new PagedList(listLoader(accounts, account.id, request, ISSUE_PAGE));
  }

  getTreeItem(): vscode.TreeItem {
    const { look, list } = this;
    const item = new vscode.TreeItem(
      look.label,
      look.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = look.id;
    item.iconPath = new vscode.ThemeIcon(look.icon);
    item.contextValue = look.contextValue;
    const count = list.total ?? (list.status === 'loaded' && !list.hasMore ? list.items.length : undefined);
    item.description = count === undefined ? undefined : String(count);
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    const hadCount = this.list.total !== undefined;
    const children = await pagedChildren(
      this.list,
      (items) =>
        items.map((issue) => new IssueNode(this.account, issue, this.look.id, this.options.showProject)),
      () => this.changed(this),
      { emptyMessage: this.options.emptyMessage, accountId: this.account.id },
    );
    // The count comes with the first page: the row draws again to show it.
    if (!hadCount && this.list.total !== undefined) this.changed(this);
    return children;
  }

  reload(): void {
    this.list.reset();
    this.changed(this);
  }
}
