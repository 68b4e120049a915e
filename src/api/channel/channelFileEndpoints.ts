import * as z from 'zod';
import { RunawayGuard, parseReply } from '../http';
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
import { type ChannelEndpointId, channelEndpointLabel } from './endpoints';
import { ChannelReplyError } from './errors';
import {
  FileDetailReplySchema,
  type FileRecord,
  FiledataReplySchema,
  FilesReplySchema,
  type StreamItem,
  StreamItemSchema,
} from './schemas';
import {
  type ChannelCallOptions,
  formatChannelDate,
  type FileFilter,
  type FilePage,
  type NetworkStreamFilter,
  type NetworkStreamPage,
} from './channelTypes';
import { ChannelCore, EXPORT_PAGE_RECORDS, PAGE_SIZE, decodeBase64 } from './channelCore';
import * as l10n from '@vscode/l10n';

/** The channel's own export and streams, and its files. */
export class ChannelFileEndpoints extends ChannelCore {
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
      emptyMeans: l10n.t('the export could not be made'),
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
      emptyMeans: l10n.t('the posts could not be exported'),
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
      emptyMeans: l10n.t('the stream could not be read'),
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
      emptyMeans: l10n.t('the stream could not be read'),
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
      emptyMeans: l10n.t('the file list could not be read'),
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
    if (fileId === '') throw new RangeError(l10n.t('getFileData needs a file id'));
    const reply = await this.call('files.data', FiledataReplySchema, {
      query: { file_id: fileId, start: range.start, length: range.length },
      signal: options.signal,
      emptyMeans: l10n.t('no file whose id starts with "{0}"', fileId),
    });
    const bytes = decodeBase64(
      reply.attach.content,
      l10n.t('{0} content', channelEndpointLabel('files.data')),
    );
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
    if (fileId === '') throw new RangeError(l10n.t('downloadFile needs a file id'));
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
      emptyMeans: l10n.t('no file with the hash "{0}" (filemeta needs the whole hash)', hash),
    });
  }

  /** `file/export`: the file's export record. It names a path on the server; it does not carry bytes. */
  async exportFile(hash: string, options: ChannelCallOptions = {}): Promise<unknown> {
    const reply = await this.request('files.export', {
      query: { file_id: hash },
      signal: options.signal,
      emptyMeans: l10n.t('no file with the hash "{0}"', hash),
    });
    // Real hubs answer an unknown hash with an empty success.
    const attach =
      typeof reply === 'object' && reply !== null ? (reply as { attach?: unknown }).attach : undefined;
    if (!Array.isArray(attach) || attach.length === 0) {
      throw this.notFound('files.export', l10n.t('no file with the hash "{0}"', hash));
    }
    return reply;
  }

  protected notFound(id: ChannelEndpointId, what: string): ChannelReplyError {
    return new ChannelReplyError(
      channelEndpointLabel(id),
      'not-found',
      l10n.t('{0} (the server answered an empty success)', what),
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
      emptyMeans: l10n.t('no file with the hash "{0}" (file needs the whole hash)', hash),
    });
    const parsed = parseReply(FileDetailReplySchema, reply, channelEndpointLabel('files.get'));
    const bytes = decodeBase64(
      parsed.attach.content ?? '',
      l10n.t('{0} content', channelEndpointLabel('files.get')),
    );
    return { reply, bytes };
  }
}

/** `files` bound to a filter: iterate for every record, or take pages with `page()`. */
export class FileListRequest implements AsyncIterable<FileRecord> {
  constructor(
    private readonly client: ChannelFileEndpoints,
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
