/**
 * Notes that have not reached the server yet. A draft is saved before the note is sent and removed
 * only once the server accepted it, so a note that fails to post (network, 5xx, a closed window)
 * is offered again the next time the user comments on the same thing.
 */

import { type DraftMemento, DraftStore, type StoredDraft } from './draftStore';

export type { DraftMemento } from './draftStore';

/** What a note is written on, as far as the draft key is concerned. */
export interface DraftParent {
  kind: string;
  project: number | string;
  /** iid for issues and merge requests, id for snippets. */
  id: number;
}

export type NoteDraft = StoredDraft;

const STORAGE_KEY = 'forge.noteDrafts';
/** Oldest drafts are dropped beyond this, so abandoned drafts cannot grow the state without end. */
export const MAX_DRAFTS = 100;

function readNoteDraft(value: unknown): NoteDraft | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record['body'] !== 'string' || typeof record['savedAt'] !== 'string') return undefined;
  return { body: record['body'], savedAt: record['savedAt'] };
}

/** Drafts of notes, by account and what they are written on; the text is all a note draft holds. */
export class NoteDrafts {
  private readonly store: DraftStore<NoteDraft>;

  constructor(memento: DraftMemento, now: () => Date = () => new Date()) {
    this.store = new DraftStore<NoteDraft>(
      memento,
      {
        storageKey: STORAGE_KEY,
        max: MAX_DRAFTS,
        read: readNoteDraft,
        isEmpty: (draft) => draft.body.trim() === '',
      },
      now,
    );
  }

  /** One key per account and parent: `account|project|kind|id`. */
  static keyFor(accountId: string, parent: DraftParent): string {
    return [accountId, String(parent.project), parent.kind, String(parent.id)].join('|');
  }

  get(key: string): NoteDraft | undefined {
    return this.store.get(key);
  }

  /** Saves (or replaces) the draft; an empty body removes it. */
  save(key: string, body: string): Promise<void> {
    return this.store.save(key, { body });
  }

  delete(key: string): Promise<void> {
    return this.store.delete(key);
  }

  /** Every draft of an account (e.g. to drop them when the account is removed). */
  keysOf(accountId: string): string[] {
    return this.store.keysOf(accountId);
  }

  /**
   * Sends a note with its draft kept until the server accepted it: saved before `send`, removed
   * after it resolved, kept when it threw (the error is rethrown).
   */
  sendWithDraft<T>(key: string, body: string, send: () => Promise<T>): Promise<T> {
    return this.store.sendWithDraft(key, { body }, send);
  }
}
