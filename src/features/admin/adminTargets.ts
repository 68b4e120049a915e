import * as z from 'zod';
import type { AccountInfo, AccountManager } from '../../platform/accounts';
import { pickAccount } from '../../platform/accountPicker';
import {
  AdminAccountNode,
  BroadcastMessageNode,
  BroadcastMessagesFolder,
  SshKeyLookupNode,
  SystemHookNode,
  SystemHooksFolder,
} from './adminTreeProvider';
import * as l10n from '@vscode/l10n';

const ADMIN_ROWS = [
  AdminAccountNode,
  BroadcastMessagesFolder,
  SystemHooksFolder,
  SshKeyLookupNode,
  BroadcastMessageNode,
  SystemHookNode,
] as const;

/** A row of the Admin view: each knows its administrator account. */
export type AdminRow = InstanceType<(typeof ADMIN_ROWS)[number]>;

/** The first argument of an admin command: a row of the Admin view, an account id, or nothing (ask). */
export const AdminTargetSchema = z
  .union([
    z.string(),
    z.custom<AdminRow>((value) => ADMIN_ROWS.some((rowClass) => value instanceof rowClass), {
      error: l10n.t('expected a row of the Admin view or an account id'),
    }),
  ])
  .optional();

/** The administrator account of a row or an id, or one picked among administrator accounts. */
export function adminAccount(
  accounts: AccountManager,
  target: z.output<typeof AdminTargetSchema>,
): Promise<AccountInfo | undefined> {
  if (target !== undefined && typeof target !== 'string') return Promise.resolve(target.account);
  return pickAccount(
    accounts,
    l10n.t('Which administrator account?'),
    (account) => accounts.actsAsAdmin(account),
    target,
  );
}
