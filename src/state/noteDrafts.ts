/**
 * Notes that have not reached the server yet. A draft is saved before the note is sent and removed
 * only once the server accepted it, so a note that fails to post (network, 5xx, a closed window)
 * is offered again the next time the user comments on the same thing.
 */

/** The part of VS Code's Memento this store needs (globalState satisfies it). */
export interface DraftMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** What a note is written on, as far as the draft key is concerned. */
export interface DraftParent {
  kind: string;
  project: number | string;
  /** iid for issues and merge requests, id for snippets. */
  id: number;
}

export interface NoteDraft {
  body: string;
  /** ISO time the draft was last saved. */
  savedAt: string;
}

const STORAGE_KEY = 'forge.noteDrafts';
/** Oldest drafts are dropped beyond this, so abandoned drafts cannot grow the state without end. */
export const MAX_DRAFTS = 100;

export class NoteDrafts {
  constructor(
    private readonly memento: DraftMemento,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** One key per account and parent: `account|project|kind|id`. */
  static keyFor(accountId: string, parent: DraftParent): string {
    return [accountId, String(parent.project), parent.kind, String(parent.id)].join('|');
  }

  private all(): Record<string, NoteDraft> {
    const stored = this.memento.get<unknown>(STORAGE_KEY);
    if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
    const drafts: Record<string, NoteDraft> = {};
    for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
      if (
        value &&
        typeof value === 'object' &&
        typeof (value as NoteDraft).body === 'string' &&
        typeof (value as NoteDraft).savedAt === 'string'
      ) {
        drafts[key] = { body: (value as NoteDraft).body, savedAt: (value as NoteDraft).savedAt };
      }
    }
    return drafts;
  }

  get(key: string): NoteDraft | undefined {
    return this.all()[key];
  }

  /** Saves (or replaces) the draft; an empty body removes it. */
  async save(key: string, body: string): Promise<void> {
    if (body.trim() === '') {
      await this.delete(key);
      return;
    }
    const drafts = this.all();
    delete drafts[key];
    drafts[key] = { body, savedAt: this.now().toISOString() };
    const keys = Object.keys(drafts).sort((a, b) =>
      (drafts[a]?.savedAt ?? '').localeCompare(drafts[b]?.savedAt ?? ''),
    );
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_DRAFTS))) delete drafts[old];
    await this.memento.update(STORAGE_KEY, drafts);
  }

  async delete(key: string): Promise<void> {
    const drafts = this.all();
    if (!(key in drafts)) return;
    delete drafts[key];
    await this.memento.update(STORAGE_KEY, Object.keys(drafts).length > 0 ? drafts : undefined);
  }

  /** Every draft of an account (e.g. to drop them when the account is removed). */
  keysOf(accountId: string): string[] {
    return Object.keys(this.all()).filter((key) => key.startsWith(`${accountId}|`));
  }

  /**
   * Sends a note with its draft kept until the server accepted it: saved before `send`, removed
   * after it resolved, kept when it threw (the error is rethrown).
   */
  async sendWithDraft<T>(key: string, body: string, send: () => Promise<T>): Promise<T> {
    await this.save(key, body);
    const result = await send();
    await this.delete(key);
    return result;
  }
}
