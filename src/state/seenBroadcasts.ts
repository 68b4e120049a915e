import { rememberIds } from '../domain/broadcasts';
import type { KeyValueStorage } from './todoFilters';

/** The ids of broadcast messages already shown, per account, kept across restarts. */
export class SeenBroadcastStore {
  constructor(
    private readonly storage: KeyValueStorage,
    private readonly limit = 200,
  ) {}

  private key(accountId: string): string {
    return `forge.broadcasts.seen.${accountId}`;
  }

  get(accountId: string): number[] {
    const raw = this.storage.get(this.key(accountId));
    return Array.isArray(raw) ? raw.filter((id): id is number => Number.isInteger(id)) : [];
  }

  async add(accountId: string, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.storage.update(this.key(accountId), rememberIds(this.get(accountId), ids, this.limit));
  }

  /** Forgets an account's seen ids (the account was removed). */
  async forget(accountId: string): Promise<void> {
    await this.storage.update(this.key(accountId), undefined);
  }
}
