import { Prng } from '../prng';
/*
 * In-memory data of the fake channel server (the `/api/z/1.0` API of spec/channel-api-z1.md): one channel
 * with its account, identities (xchans), connections (abook + abconfig), privacy groups, files, photos
 * and items. Rows keep integers as numbers; `present.ts` turns them into strings when the server imitates
 * an older version (`numbers = 'strings'`).
 */

/** Older servers send every column as a string; current ones send integer columns as JSON numbers. */
export type NumberStyle = 'strings' | 'numbers';

/** The host part of every address of the seeded hub (addresses are identities, not URLs). */
export const HUB_HOST = 'hub.forge.test';

/** Access lists as stored: `<hash><hash>`, empty for nobody. */
export interface Acl {
  allowCid: string;
  allowGid: string;
  denyCid: string;
  denyGid: string;
}

export const PUBLIC_ACL: Acl = { allowCid: '', allowGid: '', denyCid: '', denyGid: '' };

export interface ChannelAccount {
  id: number;
  email: string;
  password: string;
}

export interface ChannelIdentity {
  uid: number;
  nickname: string;
  name: string;
  hash: string;
  guid: string;
  /** Who sees a post made without access fields (here a privacy group, as on many real channels). */
  defaultAcl: Acl;
}

export interface XchanRecord {
  hash: string;
  guid: string;
  guidSig: string;
  pubkey: string;
  photoMimetype: string;
  /** Absolute, or starting with `/` for the fake hub itself (made absolute with the request's origin). */
  photoL: string;
  photoM: string;
  photoS: string;
  address: string;
  url: string;
  connurl: string;
  follow: string;
  connpage: string;
  name: string;
  network: string;
  instanceUrl: string;
  flags: number;
  photoDate: string;
  nameDate: string;
  hidden: number;
  orphan: number;
  censored: number;
  selfcensored: number;
  system: number;
  pubforum: number;
  deleted: number;
}

export interface AbookRecord {
  id: number;
  xchan: string;
  myPerms: number;
  theirPerms: number;
  closeness: number;
  created: string;
  updated: string;
  connected: string;
  blocked: number;
  ignored: number;
  hidden: number;
  archived: number;
  pending: number;
  unconnected: number;
  self: number;
  feed: number;
}

/** Connection settings, e.g. cat `my_perms`, k `view_stream`, v `"1"`. Values are always text. */
export interface AbconfigRecord {
  id: number;
  xchan: string;
  cat: string;
  k: string;
  v: string;
}

export interface GroupRecord {
  id: number;
  hash: string;
  name: string;
  visible: number;
  deleted: number;
}

export interface GroupMemberRecord {
  id: number;
  gid: number;
  xchan: string;
}

export interface StoredFile {
  id: number;
  hash: string;
  filename: string;
  filetype: string;
  /** What the server reports; tests may make it differ from `content.length` (a truncated file). */
  filesize: number;
  content: Buffer;
  revision: number;
  /** Hash of the parent folder, '' at the top. */
  folder: string;
  osStorage: number;
  isDir: number;
  isPhoto: number;
  flags: number;
  created: string;
  edited: string;
  creator: string;
  displayPath: string;
  acl: Acl;
}

export interface StoredPhoto {
  id: number;
  resourceId: string;
  /** '' for photos outside any album (listed as `/`). */
  album: string;
  title: string;
  description: string;
  filename: string;
  mimetype: string;
  width: number;
  height: number;
  /** 0 is the original, 1 to 3 smaller versions. */
  scale: number;
  /** 0 normal, 1 profile photo, 2 cover photo. */
  usage: number;
  created: string;
  edited: string;
  content: Buffer;
  acl: Acl;
}

export interface StoredItem {
  id: number;
  mid: string;
  /** Id of the thread top (its own id for a top-level item). */
  parent: number;
  parentMid: string;
  thrParent: string;
  created: string;
  edited: string;
  expires: string;
  commented: string;
  received: string;
  changed: string;
  ownerXchan: string;
  authorXchan: string;
  sourceXchan: string;
  mimetype: string;
  title: string;
  body: string;
  app: string;
  verb: string;
  objType: string;
  location: string;
  coord: string;
  layoutMid: string;
  plink: string;
  /** JSON text of attached files, '' when none. */
  attach: string;
  acl: Acl;
  commentPolicy: string;
  itemPrivate: number;
  itemOrigin: number;
  itemWall: number;
  itemConsensus: number;
  itemNocomment: number;
  itemDeleted: number;
  /** 0 a post, 1 a webpage, 2 a block, 3 a layout ... */
  itemType: number;
  categories: string[];
  /** Rows of the `item_id` table: other identities of the item (a webpage name, a remote id). */
  iids: { service: string; sid: string }[];
}

export interface ConfigRecord {
  id: number;
  cat: string;
  k: string;
  v: string;
}

export interface EventRecord {
  id: number;
  hash: string;
  summary: string;
  dtstart: string;
  dtend: string;
  location: string;
}

/** Every permission name of the permission system, in the order servers list them. */
export const PERMISSIONS = [
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

/** A request the fake channel server answered, for coverage checks. */
export interface ServedRequest {
  method: string;
  /** Route under /api/z/1.0, e.g. `/filedata`; the raw path for unknown routes. */
  route: string;
  /** `ok`, or how the failure was reported (the real servers' ways: 200 + empty, `false`, ...). */
  outcome: 'ok' | 'empty' | 'false' | 'empty-list' | 'unsuccessful' | 'unauthorized' | 'not-implemented';
}

const NULL_DATE = '0001-01-01 00:00:00';

export class ChannelState {
  /** How integer columns are sent; tests switch it to check both kinds of server. */
  numbers: NumberStyle = 'strings';
  /**
   * Lines of this many characters in base64 file data, as a server or proxy that wraps MIME-style
   * (76) sends it; undefined for one line.
   */
  base64LineLength: number | undefined = undefined;
  /** How many threads one `channel/stream` reply holds at most: about 200 on a real hub (201 seen). */
  channelStreamLimit = 200;
  /**
   * Real hubs order stream threads by a time column with one-second resolution and no tiebreaker:
   * threads of the same second come back in a different order from one request to the next. This
   * draws that order (seeded, so a run is repeatable).
   */
  readonly tieOrder = new Prng('channel/tie-order');
  /** Threads per `network/stream` page when paged with `page`. */
  networkThreadsPerPage = 10;

  account: ChannelAccount = { id: 1, email: '', password: '' };
  channel: ChannelIdentity = {
    uid: 2,
    nickname: '',
    name: '',
    hash: '',
    guid: '',
    defaultAcl: { ...PUBLIC_ACL },
  };
  readonly xchans = new Map<string, XchanRecord>();
  readonly abook: AbookRecord[] = [];
  readonly abconfig: AbconfigRecord[] = [];
  readonly groups: GroupRecord[] = [];
  readonly groupMembers: GroupMemberRecord[] = [];
  readonly files: StoredFile[] = [];
  readonly photos: StoredPhoto[] = [];
  readonly items: StoredItem[] = [];
  readonly config: ConfigRecord[] = [];
  readonly events: EventRecord[] = [];
  /** Every answered request, in order. */
  readonly served: ServedRequest[] = [];

  private readonly ids = new Map<string, number>();
  private clockSeconds: number;

  constructor(
    /** The fake "now" at start: times of new records count up from here, one second per record. */
    now = '2024-07-01 12:00:00',
  ) {
    this.clockSeconds = Date.parse(`${now.replace(' ', 'T')}Z`) / 1000;
  }

  /** A fresh id for a table, counting from `first`. */
  nextId(table: string, first = 1): number {
    const next = Math.max(this.ids.get(table) ?? first, first);
    this.ids.set(table, next + 1);
    return next;
  }

  /** The fake clock: deterministic, one second later on every call. */
  now(): string {
    this.clockSeconds += 1;
    return formatDate(this.clockSeconds * 1000);
  }

  /** The current fake time without advancing it. */
  peekNow(): string {
    return formatDate(this.clockSeconds * 1000);
  }

  get nullDate(): string {
    return NULL_DATE;
  }

  get ownAddress(): string {
    return `${this.channel.nickname}@${HUB_HOST}`;
  }

  ownXchan(): XchanRecord {
    const own = this.xchans.get(this.channel.hash);
    if (!own) throw new Error('the channel has no xchan');
    return own;
  }

  /** xchan_fetch: by hash, then guid, then address. */
  findXchan(lookup: { hash?: string; guid?: string; address?: string }): XchanRecord | undefined {
    if (lookup.hash) return this.xchans.get(lookup.hash);
    if (lookup.guid) return [...this.xchans.values()].find((xchan) => xchan.guid === lookup.guid);
    if (lookup.address) return [...this.xchans.values()].find((xchan) => xchan.address === lookup.address);
    return undefined;
  }

  findFile(hash: string): StoredFile | undefined {
    return this.files.find((file) => file.hash === hash);
  }

  findItem(id: number): StoredItem | undefined {
    return this.items.find((item) => item.id === id);
  }

  findItemByMid(mid: string): StoredItem | undefined {
    return this.items.find((item) => item.mid === mid);
  }

  /** Items of one thread, top first, then by creation. */
  thread(top: StoredItem): StoredItem[] {
    return this.items
      .filter((item) => item.parent === top.id && item.itemDeleted === 0)
      .sort((a, b) =>
        a.id === top.id ? -1 : b.id === top.id ? 1 : a.created.localeCompare(b.created) || a.id - b.id,
      );
  }

  threadTops(): StoredItem[] {
    return this.items.filter((item) => item.id === item.parent && item.itemDeleted === 0);
  }

  /** What the channel allows `xchan` (from abconfig `my_perms`). */
  permissionAllowed(xchan: string, perm: string): boolean {
    return this.abconfig.some(
      (row) => row.xchan === xchan && row.cat === 'my_perms' && row.k === perm && row.v === '1',
    );
  }
}

/** `'YYYY-MM-DD HH:MM:SS'` (UTC) of a millisecond time. */
export function formatDate(milliseconds: number): string {
  return new Date(milliseconds).toISOString().slice(0, 19).replace('T', ' ');
}

/** `<a><b>` from a list of hashes. */
export function aclText(hashes: readonly string[]): string {
  return hashes
    .filter((hash) => hash !== '')
    .map((hash) => `<${hash}>`)
    .join('');
}
