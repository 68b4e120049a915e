import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import * as z from 'zod';
import {
  type HttpClientOptions,
  HttpTransport,
  NotFoundError,
  type Query,
  type QueryScalar,
  type RequestOptions,
  UnauthorizedError,
  RunawayGuard,
  parseReply,
  redact,
} from '../http';
import { loadUndici } from '../http/undici';
import {
  ChannelStreamRequest,
  NETWORK_READ_THREADS,
  NetworkStreamRequest,
  collect,
  streamItemKeys,
} from './streams';
import {
  type ChunkedDownloadOptions,
  type ChunkedDownloadResult,
  type FileChunk,
  downloadInChunks,
} from './download';
import {
  CHANNEL_API_PREFIX,
  channelEndpoint,
  type ChannelEndpointId,
  channelEndpointLabel,
} from './endpoints';
import { ChannelAuthError, ChannelReplyError } from './errors';
import {
  type Album,
  AlbumsReplySchema,
  FileDetailReplySchema,
  type FileRecord,
  FiledataReplySchema,
  FilesReplySchema,
  type GroupMember,
  GroupMembersReplySchema,
  type Item,
  ItemFullReplySchema,
  ItemUpdateReplySchema,
  type PermissionAllowed,
  PermissionAllowedSchema,
  PhotoReplySchema,
  PhotosReplySchema,
  type PrivacyGroup,
  PrivacyGroupsReplySchema,
  type StreamItem,
  StreamItemSchema,
  type Xchan,
  XchanSchema,
} from './schemas';

export interface ChannelCallOptions {
  signal?: AbortSignal;
}

export interface ChannelClientOptions extends Omit<HttpClientOptions, 'apiPrefix' | 'credentials' | 'sudo'> {
  /** The channel nickname or the account email. */
  login: string;
  password: string;
}

/** `'YYYY-MM-DD HH:MM:SS'` (UTC), the way channel servers write and read dates. */
export function formatChannelDate(value: string | Date): string {
  if (typeof value === 'string') return value;
  return value.toISOString().slice(0, 19).replace('T', ' ');
}

/** Exactly one way of naming an identity. */
export type XchanLookup = { address: string } | { hash: string } | { guid: string };

export type GroupRef = { id: number } | { name: string };

export type ItemRef = { mid: string } | { itemId: number };

/** A file to upload with a post: bytes in memory, or a path to read. */
export type ItemMedia =
  | { filename: string; data: Uint8Array; contentType?: string }
  | { path: string; filename?: string; contentType?: string };

/** Every input of `item/update`, named as the API names them. */
export interface ItemUpdateInput {
  /** bbcode unless `mimetype` says otherwise. */
  body: string;
  /** Uploaded with the post (sent as multipart); the server appends it to the body. */
  media?: ItemMedia;
  title?: string;
  /**
   * Access lists (xchan hashes, privacy group hashes). Leaving all four out gives the channel's
   * default audience, which may be a privacy group; an empty `contact_allow` makes the post public.
   */
  contact_allow?: readonly string[];
  contact_deny?: readonly string[];
  group_allow?: readonly string[];
  group_deny?: readonly string[];
  coord?: string;
  location?: string;
  /** When the item expires or is removed. */
  expire?: string | Date;
  mimetype?: string;
  /** Id of the parent item: makes this a comment. */
  parent?: number;
  /** The parent by message id instead. */
  parent_mid?: string;
  /** Author when not the channel owner. */
  remote_xchan?: string;
  /** A consensus (voting) item. */
  consensus?: boolean;
  /** Disables comments. */
  nocomment?: boolean;
  /** Internal use on the server; no contract given. */
  origin?: string | number;
  namespace?: string;
  remote_id?: string;
  /** Generated when unset. */
  message_id?: string;
  created?: string | Date;
  /** Edits this existing item instead of creating one. */
  post_id?: number;
  app?: string;
  /** Comma-separated, or a list joined with commas. */
  category?: string | readonly string[];
  /** Page type when not 0. */
  webpage?: number | string;
  pagetitle?: string;
  layout_mid?: string;
  plink?: string;
  verb?: string;
  obj_type?: string;
}

export interface ItemUpdateResult {
  itemId: number;
  item: Item;
}

export interface FileFilter {
  /** Exact hash. */
  filehash?: string;
  /** Substring of the name. */
  filename?: string;
  /** Substring of the mimetype. */
  filetype?: string;
}

export interface FilePage {
  items: FileRecord[];
  start: number;
  records: number;
  /** Where the next page starts; undefined when this one was short (the listing has no total). */
  nextStart: number | undefined;
}

export interface NetworkStreamFilter {
  /** Items created at or after this date. */
  dbegin?: string | Date;
  /** Items created before this date. */
  dend?: string | Date;
}

export interface NetworkStreamPage {
  items: StreamItem[];
  start: number;
  records: number;
  /** Threads in this page (the stream pages by thread, not by item). */
  threads: number;
  nextStart: number | undefined;
}

const PAGE_SIZE = 50;
/** Items per `item/export_page` request. */
const EXPORT_PAGE_RECORDS = 100;
export const NETWORK_THREADS_PER_PAGE = 10;

interface RequestSpec {
  query?: Query;
  form?: Query;
  /** undici's `FormData`: undici writes the boundary and the content type. */
  multipart?: RequestOptions['multipart'];
  signal?: AbortSignal;
  /** What an empty 200 or `false` means for this call, in words. */
  emptyMeans: string;
  /** `{success: false}` without a message is a normal answer here (photos of a channel without any). */
  allowUnsuccessful?: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function decodeBase64(text: string, what: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new Error(`${what} is not valid base64`);
  }
  return Buffer.from(compact, 'base64');
}

/**
 * The channel API (`/api/z/1.0`, Hubzilla-compatible). One method per endpoint of the spec; paths
 * come from `endpoints.ts`. Channel servers report most errors as a 200 with an empty body, `false`
 * or `{success: false}`: every method turns those into a `ChannelReplyError` naming the endpoint.
 */
export class ChannelClient {
  private readonly secrets: readonly string[];

  constructor(
    readonly transport: HttpTransport,
    /** Nickname or email, for messages (never the password). */
    readonly login: string,
    password: string,
  ) {
    this.secrets = [password, Buffer.from(`${login}:${password}`).toString('base64')];
  }

  static create(options: ChannelClientOptions): ChannelClient {
    const { login, password, ...rest } = options;
    const transport = new HttpTransport({
      ...rest,
      apiPrefix: CHANNEL_API_PREFIX,
      credentials: { kind: 'basic', username: login, password },
    });
    return new ChannelClient(transport, login, password);
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  // ---- plumbing -------------------------------------------------------------------------------

  /** Sends the request and returns the JSON reply once it is known not to be an error in disguise. */
  private async request(id: ChannelEndpointId, spec: RequestSpec): Promise<unknown> {
    const endpoint = channelEndpoint(id);
    const label = channelEndpointLabel(id);
    let data: unknown;
    try {
      const response = await this.transport.requestJson({
        method: endpoint.method,
        path: endpoint.path,
        query: spec.query,
        form: spec.form,
        multipart: spec.multipart,
        signal: spec.signal,
      });
      data = response.data;
    } catch (error) {
      throw this.translate(error, label);
    }
    if (data === undefined) {
      throw new ChannelReplyError(
        label,
        'empty',
        `the server answered 200 with an empty body, which is how it reports an error: ${spec.emptyMeans}`,
      );
    }
    if (data === false) {
      throw new ChannelReplyError(label, 'false', `the server answered \`false\`: ${spec.emptyMeans}`);
    }
    if (isRecord(data) && data['success'] === false) {
      const message = data['message'];
      if (typeof message !== 'string' && spec.allowUnsuccessful) return data;
      const reason = typeof message === 'string' && message.trim() !== '' ? message : 'no reason given';
      throw new ChannelReplyError(label, 'refused', `the server refused: ${redact(reason, this.secrets)}`);
    }
    return data;
  }

  private async call<S extends z.ZodType>(
    id: ChannelEndpointId,
    schema: S,
    spec: RequestSpec,
  ): Promise<z.infer<S>> {
    const data = await this.request(id, spec);
    return parseReply(schema, data, channelEndpointLabel(id));
  }

  private translate(error: unknown, label: string): unknown {
    if (error instanceof UnauthorizedError) {
      const said = redact(error.serverMessage, this.secrets);
      return new ChannelAuthError(
        label,
        'unauthorized',
        `the server refused the login "${this.login}" (401${said ? `: ${said}` : ''}). Check the channel nickname or account email and the password.`,
        { cause: error },
      );
    }
    if (error instanceof NotFoundError && /not implemented/i.test(error.serverMessage)) {
      return new ChannelReplyError(
        label,
        'not-implemented',
        'the server does not offer this endpoint (404 not implemented); it may run an older or differently configured version',
        { cause: error },
      );
    }
    return error;
  }

  /** A list reply (bare JSON array) of loose records. */
  private async records(id: ChannelEndpointId, spec: RequestSpec): Promise<Record<string, unknown>[]> {
    return this.call(id, z.array(StreamItemSchema), spec);
  }

  // ---- channel ---------------------------------------------------------------------------------

  /**
   * `channel/export/basic`: the channel's data. Without `sections` the server picks channel,
   * connections, config, apps, chatrooms, events, webpages, mail and wikis; `posts` adds three
   * months of posts. Sections with no data are left out of the reply.
   */
  async exportChannel(
    options: ChannelCallOptions & { sections?: readonly string[]; posts?: boolean } = {},
  ): Promise<Record<string, unknown>> {
    const data = await this.request('channel.exportBasic', {
      query: {
        sections: options.sections && options.sections.length > 0 ? options.sections.join(',') : undefined,
        posts: options.posts === undefined ? undefined : options.posts ? 1 : 0,
      },
      signal: options.signal,
      emptyMeans: 'the export could not be made',
    });
    return parseReply(StreamItemSchema, data, channelEndpointLabel('channel.exportBasic'));
  }

  /**
   * `item/export_page` (beyond the spec, as real hubs have it): one page of the channel's items,
   * oldest first, `page` counted from 0. `channel/export/basic` ignores `posts` on real hubs, so an
   * export with posts reads them here.
   */
  async exportItemsPage(
    page: number,
    options: ChannelCallOptions & { records?: number; since?: string | Date; until?: string | Date } = {},
  ): Promise<StreamItem[]> {
    const reply = await this.request('items.exportPage', {
      query: {
        page,
        records: options.records ?? EXPORT_PAGE_RECORDS,
        since: options.since === undefined ? undefined : formatChannelDate(options.since),
        until: options.until === undefined ? undefined : formatChannelDate(options.until),
      },
      signal: options.signal,
      emptyMeans: 'the posts could not be exported',
    });
    const items =
      typeof reply === 'object' && reply !== null ? (reply as { item?: unknown }).item : undefined;
    if (items === undefined) return [];
    return parseReply(z.array(StreamItemSchema), items, channelEndpointLabel('items.exportPage'));
  }

  /** Every page of `item/export_page` in turn, until one comes back short. */
  async *exportItems(
    options: ChannelCallOptions & { records?: number; since?: string | Date; until?: string | Date } = {},
  ): AsyncGenerator<StreamItem[], void, undefined> {
    const records = options.records ?? EXPORT_PAGE_RECORDS;
    const guard = new RunawayGuard('GET item/export_page', this.transport.maxListPages);
    for (let page = 0; ; page++) {
      const items = await this.exportItemsPage(page, { ...options, records });
      guard.check({ items });
      if (items.length > 0) yield items;
      if (items.length < records) return;
    }
  }

  /**
   * `channel/stream`: the channel's own conversations, oldest first. One call answers items
   * created after `mindate` (without it, servers answer the last 14 days); iterating walks on by
   * advancing `mindate`.
   */
  channelStream(options: { mindate?: string | Date } = {}): ChannelStreamRequest {
    return new ChannelStreamRequest(
      this,
      options.mindate === undefined ? undefined : formatChannelDate(options.mindate),
    );
  }

  /** One `channel/stream` call. */
  fetchChannelStream(mindate: string | undefined, options: ChannelCallOptions = {}): Promise<StreamItem[]> {
    return this.records('channel.stream', {
      query: { mindate },
      signal: options.signal,
      emptyMeans: 'the stream could not be read',
    });
  }

  /** `network/stream`: the network's conversations, paged by thread. */
  networkStream(
    filter: NetworkStreamFilter = {},
    threadsPerPage = NETWORK_READ_THREADS,
  ): NetworkStreamRequest {
    return new NetworkStreamRequest(this, filter, threadsPerPage);
  }

  /** One page of `network/stream`: `records` threads from thread `start`. */
  async fetchNetworkStreamPage(
    filter: NetworkStreamFilter,
    page: { start: number; records: number },
    options: ChannelCallOptions = {},
  ): Promise<NetworkStreamPage> {
    const items = await this.records('network.stream', {
      query: {
        dbegin: filter.dbegin === undefined ? undefined : formatChannelDate(filter.dbegin),
        dend: filter.dend === undefined ? undefined : formatChannelDate(filter.dend),
        start: page.start,
        records: page.records,
      },
      signal: options.signal,
      emptyMeans: 'the stream could not be read',
    });
    const threads = new Set(items.map((item) => streamItemKeys(item).top ?? streamItemKeys(item).id)).size;
    return {
      items,
      start: page.start,
      records: page.records,
      threads,
      nextStart: threads >= page.records && threads > 0 ? page.start + page.records : undefined,
    };
  }

  // ---- files ------------------------------------------------------------------------------------

  /** `files`: the channel's files and folders, oldest first, paged with `start`/`records`. */
  listFiles(filter: FileFilter = {}, pageSize = PAGE_SIZE): FileListRequest {
    return new FileListRequest(this, filter, pageSize);
  }

  /**
   * One page of `files`. `records: 0` means no limit. The server ignores `start` unless `records`
   * is given, so `start` is sent only with it.
   */
  async fetchFilesPage(
    filter: FileFilter,
    page: { start: number; records: number },
    options: ChannelCallOptions = {},
  ): Promise<FilePage> {
    const reply = await this.call('files.list', FilesReplySchema, {
      query: {
        filehash: filter.filehash,
        filename: filter.filename,
        filetype: filter.filetype,
        start: page.records > 0 ? page.start : undefined,
        records: page.records,
      },
      signal: options.signal,
      emptyMeans: 'the file list could not be read',
    });
    const records = page.records;
    return {
      items: reply.results,
      start: page.records > 0 ? page.start : 0,
      records,
      nextStart:
        records > 0 && reply.results.length >= records ? page.start + reply.results.length : undefined,
    };
  }

  /**
   * `filedata`: `length` bytes of the file from byte `start`. `fileId` may be the beginning of
   * the hash. A chunk shorter than asked is the end of the file.
   */
  async getFileData(
    fileId: string,
    range: { start?: number; length?: number } = {},
    options: ChannelCallOptions = {},
  ): Promise<FileChunk> {
    if (fileId === '') throw new RangeError('getFileData needs a file id');
    const reply = await this.call('files.data', FiledataReplySchema, {
      query: { file_id: fileId, start: range.start, length: range.length },
      signal: options.signal,
      emptyMeans: `no file whose id starts with "${fileId}"`,
    });
    const bytes = decodeBase64(reply.attach.content, `${channelEndpointLabel('files.data')} content`);
    return { attach: reply.attach, bytes };
  }

  /**
   * Saves a file by fetching it through `filedata` in chunks, with progress, cancel and resume
   * (see `downloadInChunks`): a failed attempt leaves `destination.part` and a sidecar, and the
   * next call fetches only the missing chunks. The result gets its name only when complete.
   */
  async downloadFile(
    fileId: string,
    destination: string,
    options: ChunkedDownloadOptions = {},
  ): Promise<ChunkedDownloadResult> {
    if (fileId === '') throw new RangeError('downloadFile needs a file id');
    return await downloadInChunks(
      fileId,
      destination,
      (start, length, signal) => this.getFileData(fileId, { start, length }, { signal }),
      options,
      channelEndpointLabel('files.data'),
    );
  }

  /** `filemeta`: metadata of one file; `hash` must be exact. The reply shape is not specified. */
  getFileMeta(hash: string, options: ChannelCallOptions = {}): Promise<unknown> {
    return this.request('files.meta', {
      query: { file_id: hash },
      signal: options.signal,
      emptyMeans: `no file with the hash "${hash}" (filemeta needs the whole hash)`,
    });
  }

  /** `file/export`: the file's export record. It names a path on the server; it does not carry bytes. */
  async exportFile(hash: string, options: ChannelCallOptions = {}): Promise<unknown> {
    const reply = await this.request('files.export', {
      query: { file_id: hash },
      signal: options.signal,
      emptyMeans: `no file with the hash "${hash}"`,
    });
    // Real hubs answer an unknown hash with an empty success.
    const attach =
      typeof reply === 'object' && reply !== null ? (reply as { attach?: unknown }).attach : undefined;
    if (!Array.isArray(attach) || attach.length === 0) {
      throw this.notFound('files.export', `no file with the hash "${hash}"`);
    }
    return reply;
  }

  private notFound(id: ChannelEndpointId, what: string): ChannelReplyError {
    return new ChannelReplyError(
      channelEndpointLabel(id),
      'not-found',
      `${what} (the server answered an empty success)`,
    );
  }

  /**
   * `file`: one file with its whole content in base64 (`hash` must be exact). Folders come back
   * with empty content. For large files use `downloadFile`.
   */
  async getFile(hash: string, options: ChannelCallOptions = {}): Promise<{ reply: unknown; bytes: Buffer }> {
    const reply = await this.request('files.get', {
      query: { file_id: hash },
      signal: options.signal,
      emptyMeans: `no file with the hash "${hash}" (file needs the whole hash)`,
    });
    const parsed = parseReply(FileDetailReplySchema, reply, channelEndpointLabel('files.get'));
    const bytes = decodeBase64(parsed.attach.content ?? '', `${channelEndpointLabel('files.get')} content`);
    return { reply, bytes };
  }

  // ---- photos -----------------------------------------------------------------------------------

  async listAlbums(options: ChannelCallOptions = {}): Promise<Album[]> {
    const reply = await this.call('albums.list', AlbumsReplySchema, {
      signal: options.signal,
      emptyMeans: 'the albums could not be listed',
    });
    return reply.albums;
  }

  /** `photos`: photo metadata, one entry per image scale; `album` narrows it to one album. */
  async listPhotos(
    options: ChannelCallOptions & { album?: string } = {},
  ): Promise<Record<string, unknown>[]> {
    const reply = await this.call('photos.list', PhotosReplySchema, {
      query: { album: options.album },
      signal: options.signal,
      emptyMeans: 'the photos could not be listed',
      allowUnsuccessful: true,
    });
    // An unknown album is an empty success on real hubs (a channel without photos says success: false).
    if (options.album !== undefined && reply.success === true && (reply.photos ?? []).length === 0) {
      throw this.notFound('photos.list', `no album "${options.album}"`);
    }
    return reply.photos ?? [];
  }

  /** `photo`: one scale of a photo (0 is the original) with its bytes, and the items about it. */
  async getPhoto(
    photoId: string,
    options: ChannelCallOptions & { scale?: number } = {},
  ): Promise<{ reply: unknown; bytes: Buffer }> {
    const reply = await this.request('photos.get', {
      query: { photo_id: photoId, scale: options.scale },
      signal: options.signal,
      emptyMeans: `no photo "${photoId}"${options.scale === undefined ? '' : ` at scale ${options.scale}`}`,
    });
    const parsed = parseReply(PhotoReplySchema, reply, channelEndpointLabel('photos.get'));
    return {
      reply,
      bytes: decodeBase64(parsed.photo.content, `${channelEndpointLabel('photos.get')} content`),
    };
  }

  // ---- privacy groups and connections -----------------------------------------------------------

  listGroups(options: ChannelCallOptions = {}): Promise<PrivacyGroup[]> {
    return this.call('groups.list', PrivacyGroupsReplySchema, {
      signal: options.signal,
      emptyMeans: 'the privacy groups could not be listed',
    });
  }

  listGroupMembers(group: GroupRef, options: ChannelCallOptions = {}): Promise<GroupMember[]> {
    const query = 'id' in group ? { group_id: group.id } : { group_name: group.name };
    const which = 'id' in group ? `id ${group.id}` : `"${group.name}"`;
    return this.call('groups.members', GroupMembersReplySchema, {
      query,
      signal: options.signal,
      emptyMeans: `no privacy group ${which}`,
    });
  }

  /** `xchan`: a channel identity by exactly one of address, hash or guid. */
  async getXchan(lookup: XchanLookup, options: ChannelCallOptions = {}): Promise<Xchan> {
    const keys = Object.keys(lookup).filter((key) => ['address', 'hash', 'guid'].includes(key));
    if (keys.length !== 1) throw new RangeError('getXchan needs exactly one of address, hash or guid');
    const [key] = keys as ['address' | 'hash' | 'guid'];
    const value = (lookup as Record<string, string>)[key] ?? '';
    return await this.call('xchan.get', XchanSchema, {
      query: { [key]: value },
      signal: options.signal,
      emptyMeans: `no channel identity with the ${key} "${value}"`,
    });
  }

  /** `abook`: the channel's connections (address-book rows joined with their identities). */
  async listConnections(
    options: ChannelCallOptions & { abookId?: number } = {},
  ): Promise<Record<string, unknown>[]> {
    const rows = await this.records('abook.list', {
      query: { abook_id: options.abookId },
      signal: options.signal,
      emptyMeans: 'the connections could not be listed',
    });
    // An unknown `abook_id` is an empty success on real hubs.
    if (options.abookId !== undefined && rows.length === 0) {
      throw this.notFound('abook.list', `no connection ${options.abookId}`);
    }
    return rows;
  }

  /**
   * The connection (`abook_id`) an address, hash or guid belongs to, looked up in the channel's
   * address book; undefined when that identity is not a connection.
   */
  async findConnection(lookup: XchanLookup, options: ChannelCallOptions = {}): Promise<number | undefined> {
    const rows = await this.listConnections(options);
    const [field, wanted] =
      'address' in lookup
        ? ['xchan_addr', lookup.address.toLowerCase()]
        : 'hash' in lookup
          ? ['xchan_hash', lookup.hash]
          : ['xchan_guid', lookup.guid];
    const row = rows.find((candidate) => {
      const value = candidate[field];
      return typeof value === 'string' && (field === 'xchan_addr' ? value.toLowerCase() : value) === wanted;
    });
    const id = row === undefined ? undefined : Number(row['abook_id']);
    return id !== undefined && Number.isSafeInteger(id) && id > 0 ? id : undefined;
  }

  /** `abconfig`: connection settings such as permissions; values are strings like "1". */
  listConnectionConfig(
    options: ChannelCallOptions & { abookId?: number } = {},
  ): Promise<Record<string, unknown>[]> {
    return this.records('abconfig.list', {
      query: { abook_id: options.abookId },
      signal: options.signal,
      emptyMeans: 'the connection settings could not be read',
    });
  }

  /**
   * `perm_allowed`: whether a connection (by `abookId`) or identity has `perm`, or every
   * permission when `perm` is left out.
   */
  async permissionsAllowed(
    target: { abookId: number } | XchanLookup,
    options: ChannelCallOptions & { perm?: string } = {},
  ): Promise<PermissionAllowed[]> {
    const query: Record<string, QueryScalar | undefined> = { perm: options.perm };
    if ('abookId' in target) query['abook_id'] = target.abookId;
    else Object.assign(query, target);
    return this.call('permissions.allowed', z.array(PermissionAllowedSchema), {
      query,
      signal: options.signal,
      emptyMeans: 'no such connection or identity',
    });
  }

  // ---- items ------------------------------------------------------------------------------------

  /**
   * `item/update`: creates an item, or edits the one `post_id` names. Sent as a form, multipart
   * when `media` is attached. Never retried: the server may have created the item.
   */
  async updateItem(input: ItemUpdateInput, options: ChannelCallOptions = {}): Promise<ItemUpdateResult> {
    const fields = itemFields(input);
    const spec: RequestSpec = {
      signal: options.signal,
      emptyMeans:
        input.post_id === undefined ? 'the item was not created' : `item ${input.post_id} was not updated`,
    };
    if (input.media === undefined) {
      const form: Record<string, string | string[]> = {};
      for (const [key, value] of fields) {
        const existing = form[key];
        if (existing === undefined) form[key] = key.endsWith('[]') ? [value] : value;
        else if (Array.isArray(existing)) existing.push(value);
        else form[key] = [existing, value];
      }
      spec.form = form;
    } else {
      const { FormData } = await loadUndici();
      const body = new FormData();
      for (const [key, value] of fields) body.append(key, value);
      const media = await mediaPart(input.media);
      // A copy in a plain ArrayBuffer: what Blob takes (the caller's bytes may sit in a shared buffer).
      const bytes = new Uint8Array(media.data.byteLength);
      bytes.set(media.data);
      body.append('media', new Blob([bytes], { type: media.contentType }), media.filename);
      spec.multipart = body;
    }
    let reply;
    try {
      reply = await this.call('items.update', ItemUpdateReplySchema, { ...spec });
    } catch (error) {
      // Hubs refuse a body posted in the last couple of minutes and say only "operation cancelled".
      if (
        error instanceof ChannelReplyError &&
        error.problem === 'refused' &&
        /operation cancelled/i.test(error.detail)
      ) {
        throw new ChannelReplyError(
          error.endpoint,
          'duplicate',
          'the hub suppressed this post as a duplicate of one posted in the last couple of minutes (it answered "operation cancelled"); change the text, or wait a few minutes',
          { cause: error },
        );
      }
      throw error;
    }
    return { itemId: reply.item_id, item: reply.item };
  }

  /** `item/full`: every item of the thread `mid` or `itemId` names, with their ids. */
  async getItem(
    ref: ItemRef,
    options: ChannelCallOptions = {},
  ): Promise<{ reply: unknown; items: StreamItem[] }> {
    const query = 'mid' in ref ? { mid: ref.mid } : { item_id: ref.itemId };
    const which = 'mid' in ref ? `message ${ref.mid}` : `item ${ref.itemId}`;
    const label = channelEndpointLabel('items.full');
    const reply = await this.request('items.full', {
      query,
      signal: options.signal,
      emptyMeans: `no ${which}`,
    });
    if (Array.isArray(reply) && reply.length === 0) {
      throw new ChannelReplyError(
        label,
        'nothing-found',
        `the server answered \`[]\`: no ${which} visible to this channel`,
      );
    }
    return { reply, items: parseReply(ItemFullReplySchema, reply, label).item };
  }
}

/** The form fields of `item/update`, in a stable order, arrays as `name[]`. */
export function itemFields(input: ItemUpdateInput): [string, string][] {
  const fields: [string, string][] = [['body', input.body]];
  const add = (key: string, value: string | number | boolean | Date | undefined): void => {
    if (value === undefined) return;
    if (typeof value === 'boolean') fields.push([key, value ? '1' : '0']);
    else if (value instanceof Date) fields.push([key, formatChannelDate(value)]);
    else fields.push([key, String(value)]);
  };
  const addList = (key: string, values: readonly string[] | undefined): void => {
    if (values === undefined) return;
    // An empty list must still reach the server: its presence is what overrides the default audience.
    if (values.length === 0) fields.push([key, '']);
    for (const value of values) fields.push([`${key}[]`, value]);
  };
  add('title', input.title);
  addList('contact_allow', input.contact_allow);
  addList('contact_deny', input.contact_deny);
  addList('group_allow', input.group_allow);
  addList('group_deny', input.group_deny);
  add('coord', input.coord);
  add('location', input.location);
  add('expire', input.expire);
  add('mimetype', input.mimetype);
  add('parent', input.parent);
  add('parent_mid', input.parent_mid);
  add('remote_xchan', input.remote_xchan);
  add('consensus', input.consensus);
  add('nocomment', input.nocomment);
  add('origin', input.origin);
  add('namespace', input.namespace);
  add('remote_id', input.remote_id);
  add('message_id', input.message_id);
  add('created', input.created);
  add('post_id', input.post_id);
  add('app', input.app);
  add('category', typeof input.category === 'string' ? input.category : input.category?.join(','));
  add('webpage', input.webpage);
  add('pagetitle', input.pagetitle);
  add('layout_mid', input.layout_mid);
  add('plink', input.plink);
  add('verb', input.verb);
  add('obj_type', input.obj_type);
  return fields;
}

interface MediaPart {
  filename: string;
  contentType: string;
  data: Uint8Array;
}

async function mediaPart(media: ItemMedia): Promise<MediaPart> {
  const contentType = media.contentType ?? 'application/octet-stream';
  if ('data' in media) return { filename: media.filename, contentType, data: media.data };
  return { filename: media.filename ?? basename(media.path), contentType, data: await readFile(media.path) };
}

/** Collects an async iterable. */

/** `files` bound to a filter: iterate for every record, or take pages with `page()`. */
export class FileListRequest implements AsyncIterable<FileRecord> {
  constructor(
    private readonly client: ChannelClient,
    readonly filter: FileFilter,
    readonly pageSize: number,
  ) {}

  page(page: { start?: number; records?: number } = {}, options: ChannelCallOptions = {}): Promise<FilePage> {
    return this.client.fetchFilesPage(
      this.filter,
      { start: page.start ?? 0, records: page.records ?? this.pageSize },
      options,
    );
  }

  async *all(options: ChannelCallOptions = {}): AsyncGenerator<FileRecord, void, undefined> {
    const records = Math.max(1, Math.floor(this.pageSize));
    const guard = new RunawayGuard('GET files', this.client.transport.maxListPages);
    let start: number | undefined = 0;
    while (start !== undefined) {
      const page: FilePage = await this.client.fetchFilesPage(this.filter, { start, records }, options);
      guard.check(page);
      yield* page.items;
      start = page.nextStart;
    }
  }

  toArray(options: ChannelCallOptions = {}): Promise<FileRecord[]> {
    return collect(this.all(options));
  }

  [Symbol.asyncIterator](): AsyncIterator<FileRecord> {
    return this.all();
  }
}
