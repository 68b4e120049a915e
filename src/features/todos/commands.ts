import * as z from 'zod';
import type { AccountManager } from '../../platform/accounts';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { openServerLink } from '../../platform/serverLinks';
import { showWarning, withProgress } from '../../platform/userMessages';
import { markAllTodosDone, markTodoDone } from './actions';
import { TodoNode, type TodosTreeProvider } from './todosTreeProvider';
import * as l10n from '@vscode/l10n';

const MARK_ALL = l10n.t('Mark All as Done');

/** The todo commands but the filter (todoFilterCommand.ts): refresh, mark done, open. */
export function todoCommands(accounts: AccountManager, todos: TodosTreeProvider): CommandDeclaration[] {
  const todoRow = rowOf(TodoNode, l10n.t('a todo of the Todos view'));
  return [
    defineCommand({ id: 'forge.todos.refresh', args: [], run: () => todos.refresh() }),

    defineCommand({
      id: 'forge.todo.markDone',
      args: [todoRow],
      run: async (node) => {
        await markTodoDone(accounts, node.account.id, node.todo.id);
        todos.removeTodo(node);
      },
    }),

    // A todo's row opens its target on the web, through the check every server link passes.
    defineCommand({
      id: 'forge.todo.openInBrowser',
      args: [todoRow],
      run: (node) => openServerLink(node.todo.target_url, l10n.t('the page of {0}', node.reference)),
    }),

    // `confirmed` is for tests and automation; the title button never passes it.
    defineCommand({
      id: 'forge.todo.markAllDone',
      args: [z.strictObject({ confirmed: z.boolean().optional() }).optional()],
      run: async (options) => {
        const count = todos.pendingCount();
        const confirm = options?.confirmed
          ? MARK_ALL
          : await showWarning(
              count > 0
                ? l10n.t('Mark all {0} pending todos as done?', count)
                : l10n.t('Mark all pending todos as done?'),
              { modal: true },
              MARK_ALL,
            );
        if (confirm !== MARK_ALL) return;
        await withProgress(
          { location: { viewId: 'forge.todos' }, title: l10n.t('Marking todos as done') },
          () => markAllTodosDone(accounts),
        );
        todos.refresh();
      },
    }),
  ];
}
