import type * as vscode from 'vscode';
import type { AccountManager } from '../../platform/accounts';
import { registerCommands } from '../../platform/commands/registerCommand';
import type { Shell } from '../../shell';
import { TodoFilterStore, describeTodoFilter } from '../../state/todoFilters';
import type { TreeNode } from '../../platform/tree/treeNode';
import { todoCommands } from './commands';
import { todoFilterCommand } from './todoFilterCommand';
import { TodosTreeProvider } from './todosTreeProvider';
import * as l10n from '@vscode/l10n';

/*
 * The Todos feature: the view (pending todos per account, a count badge, the filters named in its
 * description) and its commands. This file is its only public face.
 */

export type { TodosTreeProvider } from './todosTreeProvider';

export interface TodosFeature {
  readonly provider: TodosTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
}

export function createTodosFeature(platform: {
  context: vscode.ExtensionContext;
  shell: Shell;
  log: vscode.LogOutputChannel;
  accounts: AccountManager;
}): TodosFeature {
  const { context, shell, log, accounts } = platform;
  const provider = new TodosTreeProvider(accounts);
  const view = shell.treeView('forge.todos', provider);
  const filters = new TodoFilterStore(context.globalState);
  context.subscriptions.push(provider, view);

  provider.onDidChangeCount((count) => {
    view.badge =
      count > 0
        ? {
            value: count,
            tooltip: count === 1 ? l10n.t('1 pending todo') : l10n.t('{0} pending todos', count),
          }
        : undefined;
  });

  /** The view's description names the active filters. */
  const describeView = (): void => {
    const list = accounts.list();
    const described = list
      .map((account) => ({ account, text: describeTodoFilter(filters.get(account.id)) }))
      .filter((entry) => entry.text !== undefined);
    const [only] = described;
    if (list.length === 1 && only) view.description = only.text;
    else if (described.length > 0)
      view.description = described.map((entry) => `${entry.account.label}: ${entry.text}`).join('; ');
    else view.description = undefined;
  };
  provider.useFilters((accountId) => filters.get(accountId));
  describeView();
  context.subscriptions.push(accounts.onDidChange(describeView));

  registerCommands(context, log, [
    ...todoCommands(accounts, provider),
    todoFilterCommand(accounts, filters, () => {
      provider.refresh();
      describeView();
    }),
  ]);
  return { provider, view };
}
