/**
 * Text the user wrote that has not reached a server yet, kept in VS Code's global state: saved
 * before it is sent and removed only once the server accepted it, so a failed send (network, a
 * refusal, a closed window) is offered again the next time. One store per kind of draft (notes on
 * the forge, posts and comments on a channel); keys start with the account id.
 */

/** The part of VS Code's Memento a store needs (globalState satisfies it). */
export interface DraftMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Every draft has its text and when it was last saved (ISO time). */
export interface StoredDraft {
  body: string;
  savedAt: string;
}

export interface DraftStoreOptions<Draft extends StoredDraft> {
  /** The global state key holding this store's drafts. */
  storageKey: string;
  /** Oldest drafts are dropped beyond this, so abandoned drafts cannot grow the state without end. */
  max: number;
  /** A stored value read back, checked: undefined drops it (written by another version, damaged). */
  read(value: unknown): Draft | undefined;
  /** A draft with nothing worth keeping: saving it removes the draft instead. */
  isEmpty(draft: Omit<Draft, 'savedAt'>): boolean;
}

export class DraftStore<Draft extends StoredDraft> {
  constructor(
    private readonly memento: DraftMemento,
    private readonly options: DraftStoreOptions<Draft>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private all(): Record<string, Draft> {
    const stored = this.memento.get<unknown>(this.options.storageKey);
    if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
    const drafts: Record<string, Draft> = {};
    for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
      const draft = this.options.read(value);
      if (draft) drafts[key] = draft;
    }
    return drafts;
  }

  get(key: string): Draft | undefined {
    return this.all()[key];
  }

  /** Saves (or replaces) the draft; an empty one removes it. */
  async save(key: string, draft: Omit<Draft, 'savedAt'>): Promise<void> {
    if (this.options.isEmpty(draft)) {
      await this.delete(key);
      return;
    }
    const drafts = this.all();
    delete drafts[key];
    drafts[key] = { ...draft, savedAt: this.now().toISOString() } as Draft;
    const keys = Object.keys(drafts).sort((a, b) =>
      (drafts[a]?.savedAt ?? '').localeCompare(drafts[b]?.savedAt ?? ''),
    );
    for (const old of keys.slice(0, Math.max(0, keys.length - this.options.max))) delete drafts[old];
    await this.memento.update(this.options.storageKey, drafts);
  }

  async delete(key: string): Promise<void> {
    const drafts = this.all();
    if (!(key in drafts)) return;
    delete drafts[key];
    await this.memento.update(this.options.storageKey, Object.keys(drafts).length > 0 ? drafts : undefined);
  }

  /** Every draft key of an account (to drop them when the account is removed). */
  keysOf(accountId: string): string[] {
    return Object.keys(this.all()).filter((key) => key.startsWith(`${accountId}|`));
  }

  /** Saved before `send`, removed after it resolved, kept when it threw (the error is rethrown). */
  async sendWithDraft<T>(key: string, draft: Omit<Draft, 'savedAt'>, send: () => Promise<T>): Promise<T> {
    await this.save(key, draft);
    const result = await send();
    await this.delete(key);
    return result;
  }
}
