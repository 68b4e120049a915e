import * as z from 'zod';
import type { AccountManager } from '../../platform/accounts';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { openServerLink } from '../../platform/serverLinks';
import { showWarning, withProgress } from '../../platform/userMessages';
import { markAllTodosDone, markTodoDone } from './actions';
import { TodoNode, type TodosTreeProvider } from './todosTreeProvider';

const MARK_ALL = 'Mark All as Done';

/** The todo commands but the filter (todoFilterCommand.ts): refresh, mark done, open. */
export function todoCommands(accounts: AccountManager, todos: TodosTreeProvider): CommandDeclaration[] {
  const todoRow = rowOf(TodoNode, 'a todo of the Todos view');
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
      run: (node) => openServerLink(node.todo.target_url, `the page of ${node.reference}`),
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
              count > 0 ? `Mark all ${count} pending todos as done?` : 'Mark all pending todos as done?',
              { modal: true },
              MARK_ALL,
            );
        if (confirm !== MARK_ALL) return;
        await withProgress({ location: { viewId: 'forge.todos' }, title: 'Marking todos as done' }, () =>
          markAllTodosDone(accounts),
        );
        todos.refresh();
      },
    }),
  ];
}
