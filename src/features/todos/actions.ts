import type { AccountManager } from '../../platform/accounts';

/*
 * What a user does with todos, callable without any UI: commands and tests call these, and the
 * view is updated by the caller.
 */

export async function markTodoDone(
  accounts: AccountManager,
  accountId: string,
  todoId: number,
): Promise<void> {
  await (await accounts.client(accountId)).markTodoAsDone(todoId);
}

/** Marks every pending todo of every account done, one account after another. */
export async function markAllTodosDone(accounts: AccountManager): Promise<void> {
  for (const account of accounts.list()) await (await accounts.client(account.id)).markAllTodosAsDone();
}
