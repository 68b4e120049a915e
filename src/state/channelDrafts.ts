/**
 * Channel posts and comments that have not reached the server yet. Like the note drafts
 * (`noteDrafts.ts`): a draft is saved before the post is sent and removed only once the server
 * accepted it, so a post that fails (network, a refusal, a closed window) is offered again the next
 * time. A post's draft keeps its title, categories, audience and comment setting too.
 */
import type { DraftMemento } from './noteDrafts';

/** Who a post was meant for, as chosen when it was written. */
export type DraftAudience =
  | { kind: 'default' }
  | { kind: 'public' }
  | {
      kind: 'custom';
      /** Privacy group hashes and connection (xchan) hashes. */
      allowGroups: string[];
      allowConnections: string[];
      denyGroups: string[];
      denyConnections: string[];
    };

export interface ChannelDraft {
  body: string;
  title?: string;
  categories?: string[];
  audience?: DraftAudience;
  nocomment?: boolean;
  /** What the post was made from ("selection in notes.md"), to say what is being restored. */
  source?: string;
  /** ISO time the draft was last saved. */
  savedAt: string;
}

const STORAGE_KEY = 'forge.channelDrafts';
/** Oldest drafts are dropped beyond this. */
export const MAX_CHANNEL_DRAFTS = 50;

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((each) => typeof each === 'string');
}

function readAudience(value: unknown): DraftAudience | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (record['kind'] === 'default' || record['kind'] === 'public') return { kind: record['kind'] };
  if (record['kind'] !== 'custom') return undefined;
  const list = (key: string): string[] => {
    const entry = record[key];
    return isStringList(entry) ? entry : [];
  };
  return {
    kind: 'custom',
    allowGroups: list('allowGroups'),
    allowConnections: list('allowConnections'),
    denyGroups: list('denyGroups'),
    denyConnections: list('denyConnections'),
  };
}

function readDraft(value: unknown): ChannelDraft | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record['body'] !== 'string' || typeof record['savedAt'] !== 'string') return undefined;
  const draft: ChannelDraft = { body: record['body'], savedAt: record['savedAt'] };
  if (typeof record['title'] === 'string') draft.title = record['title'];
  if (isStringList(record['categories'])) draft.categories = record['categories'];
  const audience = readAudience(record['audience']);
  if (audience) draft.audience = audience;
  if (typeof record['nocomment'] === 'boolean') draft.nocomment = record['nocomment'];
  if (typeof record['source'] === 'string') draft.source = record['source'];
  return draft;
}

export class ChannelDrafts {
  constructor(
    private readonly memento: DraftMemento,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The draft of a new post on an account's channel. */
  static postKey(accountId: string): string {
    return `${accountId}|post`;
  }

  /** The draft of a comment on the item with message id `mid`. */
  static commentKey(accountId: string, mid: string): string {
    return `${accountId}|comment|${mid}`;
  }

  private all(): Record<string, ChannelDraft> {
    const stored = this.memento.get<unknown>(STORAGE_KEY);
    if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
    const drafts: Record<string, ChannelDraft> = {};
    for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
      const draft = readDraft(value);
      if (draft) drafts[key] = draft;
    }
    return drafts;
  }

  get(key: string): ChannelDraft | undefined {
    return this.all()[key];
  }

  /** Saves (or replaces) the draft; an empty body without a title removes it. */
  async save(key: string, draft: Omit<ChannelDraft, 'savedAt'>): Promise<void> {
    if (draft.body.trim() === '' && !draft.title?.trim()) {
      await this.delete(key);
      return;
    }
    const drafts = this.all();
    delete drafts[key];
    drafts[key] = { ...draft, savedAt: this.now().toISOString() };
    const keys = Object.keys(drafts).sort((a, b) =>
      (drafts[a]?.savedAt ?? '').localeCompare(drafts[b]?.savedAt ?? ''),
    );
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_CHANNEL_DRAFTS))) delete drafts[old];
    await this.memento.update(STORAGE_KEY, drafts);
  }

  async delete(key: string): Promise<void> {
    const drafts = this.all();
    if (!(key in drafts)) return;
    delete drafts[key];
    await this.memento.update(STORAGE_KEY, Object.keys(drafts).length > 0 ? drafts : undefined);
  }

  /** Every draft key of an account (to drop them when the account is removed). */
  keysOf(accountId: string): string[] {
    return Object.keys(this.all()).filter((key) => key.startsWith(`${accountId}|`));
  }

  /** Saved before `send`, removed after it resolved, kept when it threw (the error is rethrown). */
  async sendWithDraft<T>(
    key: string,
    draft: Omit<ChannelDraft, 'savedAt'>,
    send: () => Promise<T>,
  ): Promise<T> {
    await this.save(key, draft);
    const result = await send();
    await this.delete(key);
    return result;
  }
}

const ITEM_IDS_KEY = 'forge.channelItemIds';
/** Message ids remembered per account beyond this are forgotten, oldest first. */
export const MAX_KNOWN_ITEM_IDS = 500;

/**
 * Numeric ids of items, by message id. Streams carry items in the portable encoding, which has no
 * numeric id, but editing (`item/update` with `post_id`) needs one: the ids of items this editor
 * created or edited are remembered here from the `item/update` replies.
 */
export class ChannelItemIds {
  constructor(private readonly memento: DraftMemento) {}

  private all(): Record<string, [string, number][]> {
    const stored = this.memento.get<unknown>(ITEM_IDS_KEY);
    if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
    const out: Record<string, [string, number][]> = {};
    for (const [account, list] of Object.entries(stored as Record<string, unknown>)) {
      if (!Array.isArray(list)) continue;
      out[account] = list.filter(
        (entry): entry is [string, number] =>
          Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'number',
      );
    }
    return out;
  }

  get(accountId: string, mid: string): number | undefined {
    return this.all()[accountId]?.find(([known]) => known === mid)?.[1];
  }

  async remember(accountId: string, mid: string, itemId: number): Promise<void> {
    const all = this.all();
    const list = (all[accountId] ?? []).filter(([known]) => known !== mid);
    list.push([mid, itemId]);
    all[accountId] = list.slice(-MAX_KNOWN_ITEM_IDS);
    await this.memento.update(ITEM_IDS_KEY, all);
  }

  async forget(accountId: string): Promise<void> {
    const all = this.all();
    if (!(accountId in all)) return;
    delete all[accountId];
    await this.memento.update(ITEM_IDS_KEY, Object.keys(all).length > 0 ? all : undefined);
  }
}
