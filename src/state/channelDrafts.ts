/**
 * Channel posts and comments that have not reached the server yet. Like the note drafts
 * (`noteDrafts.ts`): a draft is saved before the post is sent and removed only once the server
 * accepted it, so a post that fails (network, a refusal, a closed window) is offered again the next
 * time. A post's draft keeps its title, categories, audience and comment setting too.
 */
import { type DraftMemento, DraftStore } from './draftStore';

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

/** Drafts of channel posts (with their title, categories, audience …) and comments. */
export class ChannelDrafts extends DraftStore<ChannelDraft> {
  constructor(memento: DraftMemento, now: () => Date = () => new Date()) {
    super(
      memento,
      {
        storageKey: STORAGE_KEY,
        max: MAX_CHANNEL_DRAFTS,
        read: readDraft,
        // A post with a title and no text yet is still worth keeping.
        isEmpty: (draft) => draft.body.trim() === '' && !draft.title?.trim(),
      },
      now,
    );
  }

  /** The draft of a new post on an account's channel. */
  static postKey(accountId: string): string {
    return `${accountId}|post`;
  }

  /** The draft of a comment on the item with message id `mid`. */
  static commentKey(accountId: string, mid: string): string {
    return `${accountId}|comment|${mid}`;
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
