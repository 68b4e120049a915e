import * as l10n from '@vscode/l10n';
import type { BroadcastMessageInput, SystemHook, SystemHookTest } from '../../api/hosting';
import { NotFoundError } from '../../api/http';
import { parseWhen } from '../../domain/broadcasts';
import type { AccountManager } from '../../platform/accounts';

/*
 * What an administrator does, without any UI: commands call these after asking, tests and
 * automation through the commands' trailing options.
 */

/** What forge.sshKey.lookup returns (for tests and automation); the dialog shows the same. */
export interface SshKeySummary {
  id: number;
  title: string;
  owner: string | undefined;
  createdAt: string | undefined;
  /** The key type and the start of the key: enough to recognise it. */
  keyStart: string;
}

export function summarizeKey(key: {
  id: number;
  title: string;
  key: string;
  created_at?: string | undefined;
  user?: { name: string; username: string } | undefined;
}): SshKeySummary {
  const [type, body = ''] = key.key.trim().split(/\s+/);
  return {
    id: key.id,
    title: key.title,
    owner: key.user ? `${key.user.name} (@${key.user.username})` : undefined,
    createdAt: key.created_at,
    keyStart: `${type ?? ''} ${body.slice(0, 24)}…`.trim(),
  };
}

/** The key with that id, or undefined when the server has none. */
export async function lookUpSshKey(
  accounts: AccountManager,
  accountId: string,
  id: number,
): Promise<SshKeySummary | undefined> {
  const client = await accounts.client(accountId);
  try {
    return summarizeKey(await client.getSshKey(id));
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** A time from options (already ISO, or words like "in 1 hour"), as ISO 8601. */
export function optionTime(value: string | undefined, from?: number): string | undefined {
  if (value === undefined) return undefined;
  const result = parseWhen(value, from);
  if ('problem' in result) throw new Error(`"${value}": ${result.problem}`);
  return result.date.toISOString();
}

/** Only the fields that are set: an edit sends what changed. */
export function changedFields(input: BroadcastMessageInput): Partial<BroadcastMessageInput> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}

export function describeSample(hook: SystemHook | undefined, sample: SystemHookTest): string {
  const answer = l10n.t(
    'the server answered a sample "{0}" event for the project "{1}" ({2}), owner {3} <{4}>.',
    sample.event_name,
    sample.name,
    sample.path,
    sample.owner_name,
    sample.owner_email,
  );
  return hook ? `${hook.url}: ${answer}` : answer;
}
