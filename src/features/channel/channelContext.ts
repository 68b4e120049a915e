import type { ChannelClient } from '../../api/channel';
import type { ChannelAccountInfo, ChannelAccountManager } from '../../platform/channelAccounts';
import type { LoadedPage, PageLoader } from '../../state/pagedList';
import type { TreeNode } from '../../platform/tree/treeNode';

/** Narrows the Files folder: substrings of the name and of the mimetype, as the `files` endpoint takes them. */
export interface ChannelFileFilter {
  filename?: string;
  filetype?: string;
}

/** What every node of the Channel view needs: the accounts, and a way to redraw. */
export interface ChannelTreeContext {
  readonly accounts: ChannelAccountManager;
  /** Redraws `node` (or the whole tree). */
  changed(node?: TreeNode): void;
  fileFilter(accountId: string): ChannelFileFilter;
}

/** A list the server sends whole: one page, nothing more to load. */
export function wholeList<T>(
  context: ChannelTreeContext,
  account: ChannelAccountInfo,
  load: (client: ChannelClient, signal: AbortSignal) => Promise<T[]>,
): PageLoader<T> {
  return async (_cursor, signal): Promise<LoadedPage<T>> => {
    const items = await load(await context.accounts.client(account.id), signal);
    return { items, nextUrl: undefined, total: items.length };
  };
}

/** Text of a loose record's field (numbers as text); '' when missing. */
export function field(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}

/** A 0/1 column of a loose record, given as text, number or boolean. */
export function flag(record: Record<string, unknown>, key: string): boolean {
  const value = record[key];
  return value === true || value === 1 || value === '1';
}
