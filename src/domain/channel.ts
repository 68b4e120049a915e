/**
 * Pure logic of the channel (Hubzilla-compatible `/api/z/1.0`) in the editor: server addresses,
 * stream items read from either item shape, threads with nested comments, bbcode shown as plain
 * text, who will see a post, permission names, export sections and safe local file names.
 */
import { normalizeServerUrl } from './serverUrl';
import * as l10n from '@vscode/l10n';
import { ownEntry } from './ownEntry';

/** The address a person typed for a channel server, without `/api/z/1.0`; or what is wrong with it. */
export function normalizeChannelUrl(input: string): { url: string } | { problem: string } {
  const trimmed = input.trim();
  if (trimmed === '')
    return { problem: l10n.t('Enter the address of the channel server, e.g. https://hub.example.org') };
  const normalized = normalizeServerUrl(trimmed);
  if ('problem' in normalized) return normalized;
  return { url: normalized.url.replace(/\/api\/z\/1\.0$/i, '') };
}

/** `'YYYY-MM-DD HH:MM:SS'` (UTC, as channel servers write it) as ISO text; undefined for zero dates. */
export function channelDateToIso(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value);
  if (!match || Number(match[1]) < 1000) return undefined;
  return `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z`;
}

/** Every permission of the channel permission system, in the order servers list them. */
export const CHANNEL_PERMISSIONS = [
  'view_stream',
  'view_profile',
  'view_contacts',
  'view_storage',
  'view_pages',
  'view_wiki',
  'send_stream',
  'post_wall',
  'post_comments',
  'post_mail',
  'post_like',
  'tag_deliver',
  'chat',
  'write_storage',
  'write_pages',
  'write_wiki',
  'republish',
  'delegate',
] as const;

const PERMISSION_TEXT: Record<string, string> = {
  view_stream: l10n.t('see my stream and posts'),
  view_profile: l10n.t('see my profile'),
  view_contacts: l10n.t('see my connections'),
  view_storage: l10n.t('see my files and photos'),
  view_pages: l10n.t('see my web pages'),
  view_wiki: l10n.t('see my wikis'),
  send_stream: l10n.t('send me their posts'),
  post_wall: l10n.t('post on my channel page'),
  post_comments: l10n.t('comment on my posts'),
  post_mail: l10n.t('send me private mail'),
  post_like: l10n.t('like my posts'),
  tag_deliver: l10n.t('deliver to me through tags'),
  chat: l10n.t('join my chat rooms'),
  write_storage: l10n.t('change my files and photos'),
  write_pages: l10n.t('change my web pages'),
  write_wiki: l10n.t('change my wikis'),
  republish: l10n.t('republish my posts'),
  delegate: l10n.t('act as me (delegation)'),
};

/** "comment on my posts" for `post_comments`; the name itself for permissions not known here. */
export function describePermission(perm: string): string {
  return ownEntry(PERMISSION_TEXT, perm) ?? perm;
}

/** Sections of `channel/export/basic`; the server's default set when none is asked for. */
export const CHANNEL_EXPORT_SECTIONS = [
  'channel',
  'connections',
  'config',
  'apps',
  'chatrooms',
  'events',
  'webpages',
  'mail',
  'wikis',
] as const;

/** Whether an export of these sections holds the channel's private key (the `channel` section does). */
export function exportHoldsPrivateKey(sections: readonly string[] | undefined): boolean {
  return sections === undefined || sections.length === 0 || sections.includes('channel');
}

/** The export without its private keys (`channel_prvkey` and any other `*prvkey` field), at any depth. */
export function withoutPrivateKeys(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(withoutPrivateKeys);
  if (typeof data !== 'object' || data === null) return data;
  return Object.fromEntries(
    Object.entries(data)
      .filter(([key]) => !key.toLowerCase().endsWith('prvkey'))
      .map(([key, value]) => [key, withoutPrivateKeys(value)]),
  );
}

/** How an identity was named: an address has an `@`; hashes and guids look alike. */
export function identityQueryKinds(query: string): ('address' | 'hash' | 'guid')[] {
  const trimmed = query.trim();
  if (trimmed.includes('@')) return ['address'];
  return ['hash', 'guid'];
}

// ---- bbcode as text ---------------------------------------------------------------------------

/**
 * The text of a bbcode (or plain, or markdown) body for a tree label or tooltip: tags removed, link
 * targets dropped in favour of their text, whitespace kept. Never markup: callers show it as text.
 */
export function bbcodeToText(body: string): string {
  return body
    .replace(/\[attachment\][^[]*\[\/attachment\]/gi, '(attachment)')
    .replace(/\[(img|zmg)(=[^\][]*)?\][^[]*\[\/\1\]/gi, '(image)')
    .replace(/\[\/?[a-z*][a-z0-9*_-]*(=[^\][]*)?\]/gi, '')
    .replace(/\r\n?/g, '\n');
}

/** The first non-empty line, shortened to `max` characters. */
export function firstTextLine(text: string, max = 80): string {
  const line =
    text
      .split('\n')
      .map((each) => each.trim())
      .find((each) => each !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

// ---- stream items -------------------------------------------------------------------------------

export interface ChannelPerson {
  name: string;
  address: string;
  guid: string | undefined;
  url: string | undefined;
}

/** A stream item (`channel/stream`, `network/stream`, `item/full`) reduced to what the editor shows. */
export interface StreamEntry {
  /** Message id. */
  mid: string;
  /** Message id of the thread's top item (its own for a top item). */
  top: string;
  /** Message id of the item this one answers (its own for a top item). */
  parent: string;
  /** Numeric id when the server sent one (the portable encoding usually does not). */
  itemId: number | undefined;
  created: string | undefined;
  title: string;
  body: string;
  mimetype: string | undefined;
  author: ChannelPerson;
  owner: ChannelPerson;
  categories: string[];
  /** Only the audience the post was addressed to may see it. */
  restricted: boolean;
  /** The author turned comments off (read from the thread's top item). */
  commentsClosed: boolean;
  permalink: string | undefined;
}

function text(record: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function person(value: unknown, fallbackHash?: string): ChannelPerson {
  if (!isRecord(value)) return { name: fallbackHash ?? '', address: '', guid: undefined, url: undefined };
  return {
    name: text(value, 'name', 'xchan_name') ?? '',
    address: text(value, 'address', 'xchan_addr') ?? '',
    guid: text(value, 'guid', 'xchan_guid'),
    url: text(value, 'url', 'xchan_url'),
  };
}

function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** Reads a stream item in the portable encoding (`message_id`, `author`…) or as a row (`mid`, `id`…). */
export function readStreamEntry(item: Record<string, unknown>): StreamEntry | undefined {
  const mid = text(item, 'message_id', 'mid');
  if (mid === undefined) return undefined;
  const flags = Array.isArray(item['flags']) ? item['flags'].filter((flag) => typeof flag === 'string') : [];
  const tags = Array.isArray(item['tags']) ? item['tags'] : [];
  const categories = tags
    .filter((tag): tag is Record<string, unknown> => isRecord(tag) && tag['type'] === 'category')
    .map((tag) => text(tag, 'tag') ?? '')
    .filter((tag) => tag !== '');
  const idText = text(item, 'item_id', 'id');
  const itemId = idText !== undefined && /^\d+$/.test(idText) ? Number(idText) : undefined;
  // Not `public_scope`: real hubs send it empty on every item, public ones too.
  const restricted = flags.includes('private') || truthy(item['item_private']);
  return {
    mid,
    top: text(item, 'message_top', 'parent_mid') ?? mid,
    parent: text(item, 'message_parent', 'thr_parent') ?? text(item, 'message_top', 'parent_mid') ?? mid,
    itemId,
    created: text(item, 'created'),
    title: text(item, 'title') ?? '',
    body: text(item, 'body') ?? '',
    mimetype: text(item, 'mimetype'),
    author: person(item['author'], text(item, 'author_xchan')),
    owner: person(item['owner'], text(item, 'owner_xchan')),
    categories,
    restricted,
    commentsClosed:
      flags.includes('nocomment') || item['comment_scope'] === 'none' || truthy(item['item_nocomment']),
    permalink: text(item, 'permalink', 'plink'),
  };
}

/** Whether the channel with this identity wrote the entry. */
export function isOwnEntry(
  entry: StreamEntry,
  identity: { guid?: string; address?: string } | undefined,
): boolean {
  if (!identity) return false;
  if (identity.guid && entry.author.guid) return entry.author.guid === identity.guid;
  return (
    identity.address !== undefined && identity.address !== '' && entry.author.address === identity.address
  );
}

// ---- audiences ------------------------------------------------------------------------------------

/** Access lists as the server stores them: `<hash><hash>`. */
export interface AccessLists {
  allowCid: string;
  allowGid: string;
  denyCid: string;
  denyGid: string;
}

/** The hashes in `<a><b>` text. */
export function parseAclText(value: string | null | undefined): string[] {
  if (!value) return [];
  return [...value.matchAll(/<([^<>]+)>/g)].map((match) => match[1] ?? '').filter((hash) => hash !== '');
}

/**
 * Who will see a post with these access lists, in words: "everyone", "Friends, Ada Lovelace",
 * "your connections except Ken Thompson". Names come from `nameOf` (hash to group or person name).
 */
export function describeAudience(acl: AccessLists, nameOf: (hash: string) => string | undefined): string {
  const names = (text: string): string[] => parseAclText(text).map((hash) => nameOf(hash) ?? 'someone');
  const allow = [...names(acl.allowGid), ...names(acl.allowCid)];
  const deny = [...names(acl.denyGid), ...names(acl.denyCid)];
  if (allow.length === 0 && deny.length === 0) return l10n.t('everyone (public)');
  const who = allow.length > 0 ? l10n.t('only {0}', allow.join(', ')) : l10n.t('your connections');
  return deny.length > 0 ? l10n.t('{0} except {1}', who, deny.join(', ')) : who;
}

// ---- files ----------------------------------------------------------------------------------------

/** A name safe to create in a local folder: no path, no control or reserved characters. */
export function safeFileName(name: string, fallback = 'download'): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/^\.+/, '')
    .trim();
  const limited = cleaned.slice(0, 200);
  return limited === '' ? fallback : limited;
}

/** A theme icon id for a file record. */
export function fileIcon(filetype: string, isDir: boolean): string {
  if (isDir) return 'folder';
  if (filetype.startsWith('image/')) return 'file-media';
  if (filetype === 'application/pdf') return 'file-pdf';
  if (/zip|tar|gzip|compressed|x-7z/.test(filetype)) return 'file-zip';
  if (filetype.startsWith('text/') || /json|xml|javascript/.test(filetype)) return 'file-code';
  return 'file-binary';
}

/** Types the Files filter offers, as mimetype substrings. */
export const FILE_TYPE_CHOICES: readonly { label: string; filetype: string }[] = [
  { label: l10n.t('Images'), filetype: 'image/' },
  { label: l10n.t('Text'), filetype: 'text/' },
  { label: l10n.t('PDF documents'), filetype: 'application/pdf' },
  { label: l10n.t('Folders'), filetype: 'multipart/mixed' },
  { label: l10n.t('Other binary files'), filetype: 'application/octet-stream' },
];

/** "name contains "notes" · type image/" for a files filter; '' when there is none. */
export function describeFileFilter(filter: { filename?: string; filetype?: string }): string {
  const parts: string[] = [];
  if (filter.filename) parts.push(l10n.t('name contains "{0}"', filter.filename));
  if (filter.filetype) parts.push(l10n.t('type {0}', filter.filetype));
  return parts.join(' · ');
}

/** Whether bytes look like UTF-8 text (no NUL in the first 8 KB, decodes cleanly). */
export function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
