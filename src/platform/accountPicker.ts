import type { AccountInfo, AccountManager } from './accounts';
import { pickOne, showInformation } from './userMessages';
import * as l10n from '@vscode/l10n';

/** What the picker shows of an account: both kinds of account (forge, channel) have these. */
export interface PickableAccount {
  id: string;
  label: string;
  serverUrl: string;
}

/**
 * The one account picker: nothing to pick says how to add one (`noneMessage`), one account is
 * taken without asking, several are offered by label and server.
 */
export async function chooseAccount<Account extends PickableAccount>(
  candidates: readonly Account[],
  placeHolder: string,
  noneMessage: string,
): Promise<Account | undefined> {
  if (candidates.length === 0) {
    void showInformation(noneMessage);
    return undefined;
  }
  const [only] = candidates;
  if (candidates.length === 1) return only;
  const picked = await pickOne(
    candidates.map((account) => ({ label: account.label, description: account.serverUrl, account })),
    { placeHolder },
  );
  return picked?.account;
}

/** Asks which account, unless there is only one or one was given. */
export async function pickAccount(
  accounts: AccountManager,
  placeHolder: string,
  filter: (account: AccountInfo) => boolean = () => true,
  given?: unknown,
): Promise<AccountInfo | undefined> {
  if (typeof given === 'string') return accounts.get(given);
  return chooseAccount(
    accounts.list().filter(filter),
    placeHolder,
    l10n.t('No matching account. Run "Forge: Add Account" first.'),
  );
}
