import * as vscode from 'vscode';
import type { BroadcastMessage } from '../api/hosting';
import { ForbiddenError, UnauthorizedError } from '../api/http';
import { plainBroadcastText, unseenActiveBroadcasts } from '../domain/broadcasts';
import { SeenBroadcastStore } from '../state/seenBroadcasts';
import type { KeyValueStorage } from '../state/todoFilters';
import type { AccountInfo, AccountManager } from './accounts';
import { showInformation } from './userMessages';

/** At most this many messages are read per account (servers keep few; old ones are inactive). */
const MAX_MESSAGES = 100;
const DEFAULT_DELAY_MS = 1_500;

export interface ShownBroadcast {
  accountId: string;
  id: number;
}

export type ShowBroadcast = (account: AccountInfo, message: BroadcastMessage) => void;

/** An information message that does not wait for anyone (never blocks the caller). */
const notify: ShowBroadcast = (account, message) => {
  void showInformation(
    vscode.l10n.t('Broadcast from {0}: {1}', account.label, plainBroadcastText(message.message)),
  );
};

/**
 * Shows each active broadcast message of each account once: after activation and when accounts
 * change, in the background. Seen ids are kept per account in global state. Servers that answer
 * the list only to administrators (401/403) are skipped silently.
 */
export class BroadcastWatcher implements vscode.Disposable {
  private readonly seen: SeenBroadcastStore;
  /** Accounts (with their admin flag) already checked in this session. */
  private readonly checked = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private disposed = false;

  constructor(
    private readonly accounts: AccountManager,
    storage: KeyValueStorage,
    private readonly log: vscode.LogOutputChannel,
    private readonly show: ShowBroadcast = notify,
    private readonly delayMs = DEFAULT_DELAY_MS,
  ) {
    this.seen = new SeenBroadcastStore(storage);
  }

  /** Checks shortly after activation and after every change of accounts; never blocks. */
  start(): void {
    let known = new Set(this.accounts.list().map((account) => account.id));
    this.schedule();
    this.subscriptions.push(
      this.accounts.onDidChange(() => {
        const now = new Set(this.accounts.list().map((account) => account.id));
        // A removed account's ids are of no use any more (a new account gets a new id).
        for (const id of known) if (!now.has(id)) void this.seen.forget(id);
        known = now;
        this.schedule();
      }),
    );
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private schedule(): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.check(false).catch((error: unknown) => {
        this.log.debug(`Broadcast messages: ${error instanceof Error ? error.message : String(error)}`);
      });
    }, this.delayMs);
  }

  /**
   * Shows the active messages not shown before and returns them. `all` checks every account again
   * (the palette command); otherwise only accounts not checked in this session. Runs one at a time.
   */
  check(all: boolean): Promise<ShownBroadcast[]> {
    if (all && this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const run = this.queue.then(() => this.run(all));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Messages this user made need no announcement to them. */
  async markSeen(accountId: string, ids: readonly number[]): Promise<void> {
    await this.seen.add(accountId, ids);
  }

  private async run(all: boolean): Promise<ShownBroadcast[]> {
    const shown: ShownBroadcast[] = [];
    const accounts = this.accounts.list();
    for (const account of accounts) {
      const key = `${account.id}:${account.isAdmin}`;
      if (!all && this.checked.has(key)) continue;
      this.checked.add(key);
      const messages = await this.fetch(account);
      if (!messages) continue;
      const fresh = unseenActiveBroadcasts(messages, this.seen.get(account.id));
      // Remembered before showing: a second window or run must not show them again.
      await this.seen.add(
        account.id,
        fresh.map((message) => message.id),
      );
      for (const message of fresh) {
        this.show(account, message);
        shown.push({ accountId: account.id, id: message.id });
      }
    }
    return shown;
  }

  private async fetch(account: AccountInfo): Promise<BroadcastMessage[] | undefined> {
    try {
      const client = await this.accounts.client(account.id);
      const page = await client.listBroadcastMessages().page({ perPage: MAX_MESSAGES });
      return page.items;
    } catch (error) {
      const reason =
        error instanceof ForbiddenError || error instanceof UnauthorizedError
          ? vscode.l10n.t('not readable with this token')
          : error instanceof Error
            ? error.message
            : String(error);
      this.log.debug(`Broadcast messages of ${account.label} skipped: ${reason}`);
      return undefined;
    }
  }
}
