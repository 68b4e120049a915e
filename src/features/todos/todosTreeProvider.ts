import * as vscode from 'vscode';
import { tooltipMarkdown } from '../../platform/serverMarkdown';
import type { Todo } from '../../api/hosting';
import { formatAge } from '../../domain/time';
import type { AccountInfo, AccountManager } from '../../platform/accounts';
import { PagedList } from '../../state/pagedList';
import { type TodoViewFilter, describeTodoFilter, todoQuery } from '../../state/todoFilters';
import { listLoader } from '../projects';
import { AccountsTreeProvider } from '../../platform/tree/accountsTreeProvider';
import { type TreeNode, pagedChildren } from '../../platform/tree/treeNode';
import { ownEntry } from '../../domain/ownEntry';

const ACTION_ICONS: Record<string, string> = {
  assigned: 'person',
  mentioned: 'mention',
  build_failed: 'error',
  marked: 'bookmark',
  approval_required: 'check',
};

/** The tooltip's sentence: who (`{0}`) did what to which item (`{1}`). */
const ACTION_SENTENCE: Record<string, (who: string, item: string) => string> = {
  assigned: (who, item) => vscode.l10n.t('{0} assigned you {1}', who, item),
  mentioned: (who, item) => vscode.l10n.t('{0} mentioned you on {1}', who, item),
  build_failed: (_who, item) => vscode.l10n.t('The pipeline failed on {0}', item),
  marked: (who, item) => vscode.l10n.t('{0} added a todo for {1}', who, item),
  approval_required: (who, item) => vscode.l10n.t('{0} asks your approval on {1}', who, item),
  directly_addressed: (who, item) => vscode.l10n.t('{0} addressed you on {1}', who, item),
  review_requested: (who, item) => vscode.l10n.t('{0} asked for your review of {1}', who, item),
  unmergeable: (_who, item) => vscode.l10n.t('{0} cannot be merged', item),
  merge_train_removed: (_who, item) => vscode.l10n.t('{0} was removed from the merge train', item),
  member_access_requested: (who, item) => vscode.l10n.t('{0} requested access to {1}', who, item),
};

/** What happened, as the row says it: "Bob mentioned you", "pipeline failed". */
function rowAction(todo: Todo): string {
  const author = todo.author?.name;
  switch (todo.action_name) {
    case 'build_failed':
      return vscode.l10n.t('pipeline failed');
    case 'unmergeable':
      return vscode.l10n.t('cannot merge');
    case 'merge_train_removed':
      return vscode.l10n.t('removed from merge train');
    case 'assigned':
      return vscode.l10n.t('{0} assigned you', author ?? vscode.l10n.t('someone'));
    case 'mentioned':
      return vscode.l10n.t('{0} mentioned you', author ?? vscode.l10n.t('someone'));
    case 'directly_addressed':
      return vscode.l10n.t('{0} addressed you', author ?? vscode.l10n.t('someone'));
    case 'review_requested':
      return vscode.l10n.t('{0} asks your review', author ?? vscode.l10n.t('someone'));
    case 'approval_required':
      return vscode.l10n.t('{0} asks your approval', author ?? vscode.l10n.t('someone'));
    case 'marked':
      return vscode.l10n.t('your todo');
    case undefined:
      return vscode.l10n.t('todo');
    default:
      return todo.action_name.replace(/_/g, ' ');
  }
}

/**
 * One todo. Its tree item is built once and kept: "Load more" redraws the whole list, and VS Code
 * then asks again for every item shown so far. The tooltip is built on hover (`resolveTreeItem`).
 */
export class TodoNode implements TreeNode {
  private item: vscode.TreeItem | undefined;

  constructor(
    readonly account: AccountInfo,
    readonly todo: Todo,
    readonly group: TodoAccountNode,
  ) {}

  get reference(): string {
    const { todo } = this;
    return todo.target_type === 'MergeRequest' ? `!${todo.target?.iid ?? ''}` : `#${todo.target?.iid ?? ''}`;
  }

  tooltip(): vscode.MarkdownString {
    const { todo } = this;
    const action = todo.action_name ?? 'todo';
    const who = todo.author?.name ?? vscode.l10n.t('Someone');
    const sentence = ownEntry(ACTION_SENTENCE, action);
    const tooltip = tooltipMarkdown();
    tooltip.appendText(
      sentence ? sentence(who, this.reference) : vscode.l10n.t('{0}: {1} ({2})', who, this.reference, action),
    );
    if (todo.body) tooltip.appendMarkdown('\n\n').appendText(todo.body);
    return tooltip;
  }

  getTreeItem(): vscode.TreeItem {
    this.item ??= this.createTreeItem();
    return this.item;
  }

  private createTreeItem(): vscode.TreeItem {
    const { todo, reference } = this;
    const action = todo.action_name ?? 'todo';
    const title = typeof todo.target?.title === 'string' ? todo.target.title : (todo.body ?? '');
    // What happened comes first: at a normal sidebar width the description is cut off.
    const item = new vscode.TreeItem(
      vscode.l10n.t('{0}: {1}', rowAction(todo), `${reference} ${title}`.trim()),
    );
    item.id = `account/${this.account.id}/todo/${todo.id}`;
    item.description = [todo.project?.path_with_namespace ?? todo.project?.name, formatAge(todo.created_at)]
      .filter(Boolean)
      .join(' · ');
    item.iconPath = new vscode.ThemeIcon(ownEntry(ACTION_ICONS, action) ?? 'checklist');
    item.contextValue = `todo ${todo.state ?? 'pending'}`;
    item.command = openCommand(this.account.id, todo, this);
    return item;
  }
}

/** The panels open in the editor: an issue or a merge request opens there, the rest in the browser. */
const PANEL_COMMANDS: Readonly<Record<string, string>> = {
  Issue: 'forge.issue.openPanel',
  MergeRequest: 'forge.mergeRequest.openPanel',
};

function openCommand(accountId: string, todo: Todo, row: TodoNode): vscode.Command | undefined {
  const panel = todo.target_type ? ownEntry(PANEL_COMMANDS, todo.target_type) : undefined;
  const iid = todo.target?.iid;
  const project = todo.project?.id;
  if (panel && iid !== undefined && project !== undefined)
    return {
      command: panel,
      title: vscode.l10n.t('Open'),
      arguments: [undefined, { accountId, project, iid }],
    };
  if (!todo.target_url) return undefined;
  return { command: 'forge.todo.openInBrowser', title: vscode.l10n.t('Open in Browser'), arguments: [row] };
}

/** One account's todos: pending ones, unless the account's filter says otherwise. */
export class TodoAccountNode implements TreeNode {
  readonly todos: PagedList<Todo>;
  /** Nodes by todo, kept while the list is, so a page loaded later leaves the others as they are. */
  private readonly nodes = new WeakMap<Todo, TodoNode>();

  constructor(
    readonly account: AccountInfo,
    accounts: AccountManager,
    private readonly changed: (node?: TreeNode) => void,
    /** From "Forge: Filter Todos"; empty means pending, unfiltered. */
    readonly filter: TodoViewFilter = {},
  ) {
    this.todos = new PagedList(
      listLoader(accounts, account.id, (client) => client.listTodos(todoQuery(filter))),
    );
  }

  /** The number of todos listed: the server's total when it sends one, else what is loaded. */
  get listedCount(): number {
    return this.todos.total ?? this.todos.items.length;
  }

  /** The count for the badge: none when the filter shows done todos. */
  get pendingCount(): number {
    return this.filter.state === 'done' ? 0 : this.listedCount;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.account.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `todos/account/${this.account.id}`;
    const filtered = describeTodoFilter({ ...this.filter, state: undefined });
    item.description =
      this.todos.status === 'loaded'
        ? [
            this.filter.state === 'done'
              ? vscode.l10n.t('{0} done', this.listedCount)
              : vscode.l10n.t('{0} pending', this.listedCount),
            filtered,
          ]
            .filter(Boolean)
            .join(' · ')
        : filtered;
    item.iconPath = new vscode.ThemeIcon('account');
    item.contextValue = 'todoAccount';
    return item;
  }

  getChildren(): Promise<TreeNode[]> {
    return pagedChildren(
      this.todos,
      (todos) => todos.map((todo) => this.nodeOf(todo)),
      () => this.changed(),
      {
        emptyMessage: describeTodoFilter(this.filter)
          ? vscode.l10n.t('No todo matches the filter')
          : vscode.l10n.t('Nothing to do'),
        accountId: this.account.id,
      },
    );
  }

  private nodeOf(todo: Todo): TodoNode {
    let node = this.nodes.get(todo);
    if (!node) {
      node = new TodoNode(this.account, todo, this);
      this.nodes.set(todo, node);
    }
    return node;
  }
}

/** The Todos view: pending todos of every account, with a count badge. */
export class TodosTreeProvider extends AccountsTreeProvider {
  private readonly countEmitter = new vscode.EventEmitter<number>();
  /** Fires with the pending count after every load. */
  readonly onDidChangeCount = this.countEmitter.event;
  private groups = new Map<string, TodoAccountNode>();
  private filterOf: (accountId: string) => TodoViewFilter = () => ({});

  override dispose(): void {
    super.dispose();
    this.countEmitter.dispose();
  }

  protected async rootChildren(): Promise<TreeNode[]> {
    const groups = this.accounts.list().map((account) => this.group(account));
    // Empty, so that the welcome content with "Add Account" shows.
    if (groups.length === 0) return [];
    const [only] = groups;
    const children = groups.length === 1 && only ? await only.getChildren() : groups;
    if (groups.length > 1) await Promise.all(groups.map((group) => group.todos.ensureLoaded()));
    this.countEmitter.fire(this.pendingCount());
    return children;
  }

  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    if (node instanceof TodoNode) item.tooltip ??= node.tooltip();
    return item;
  }

  pendingCount(): number {
    return [...this.groups.values()].reduce((sum, group) => sum + group.pendingCount, 0);
  }

  accountGroups(): TodoAccountNode[] {
    return [...this.groups.values()];
  }

  private group(account: AccountInfo): TodoAccountNode {
    let group = this.groups.get(account.id);
    if (!group) {
      group = new TodoAccountNode(
        account,
        this.accounts,
        () => this.emitter.fire(undefined),
        this.filterOf(account.id),
      );
      this.groups.set(account.id, group);
    }
    return group;
  }

  /** Where each account's filter comes from ("Forge: Filter Todos"); reloads the view. */
  useFilters(filterOf: (accountId: string) => TodoViewFilter): void {
    this.filterOf = filterOf;
    this.refresh();
  }

  /**
   * The automatic refresh: each account's todos read again as far as "Load more" had gone and drawn
   * again in place. A list that fails to read stays as shown (the next refresh tries again).
   */
  async reloadInPlace(): Promise<void> {
    await Promise.all([...this.groups.values()].map((group) => group.todos.reload().catch(() => undefined)));
    this.emitter.fire(undefined);
    this.countEmitter.fire(this.pendingCount());
  }

  refresh(): void {
    this.groups = new Map();
    this.emitter.fire(undefined);
  }

  /** Removes a todo that was marked done without reloading the list. */
  removeTodo(node: TodoNode): void {
    node.group.todos.remove((todo) => todo.id === node.todo.id);
    this.emitter.fire(undefined);
    this.countEmitter.fire(this.pendingCount());
  }
}
