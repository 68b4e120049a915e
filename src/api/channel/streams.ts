/*
 * The two streams of a channel, read so that every item comes exactly once from a real hub
 * (design.md section 3, 2026-11). `channel/stream` answers at most about 200 threads created
 * strictly after `mindate`, to the second; `network/stream` orders threads by a one-second time
 * column and pages with LIMIT/OFFSET, so threads of the same second swap places between requests.
 */
import { RunawayGuard } from '../http';
import type { HttpTransport } from '../http';
import type { ChannelCallOptions, NetworkStreamFilter, NetworkStreamPage } from './channelTypes';
import type { StreamItem } from './schemas';

/** Message id, thread top and creation date of a stream item, in either item shape servers use. */
export function streamItemKeys(item: StreamItem): { id?: string; top?: string; created?: string } {
  const text = (...keys: string[]): string | undefined => {
    for (const key of keys) {
      const value = item[key];
      if (typeof value === 'string' && value !== '') return value;
      if (typeof value === 'number') return String(value);
    }
    return undefined;
  };
  return {
    id: text('message_id', 'mid'),
    top: text('message_top', 'parent_mid'),
    created: text('created'),
  };
}

/** Threads per `network/stream` request when reading it whole: large pages lose the least to ties. */
export const NETWORK_READ_THREADS = 200;
/** A tie group larger than this is read in pages of this size at most (a bound, not a target). */
const MAX_READ_THREADS = 5_000;

/** `'YYYY-MM-DD HH:MM:SS'` one second earlier (the dates are UTC). */
function secondBefore(date: string): string {
  const time = Date.parse(`${date.replace(' ', 'T')}Z`);
  if (Number.isNaN(time)) return date;
  return new Date(time - 1000).toISOString().slice(0, 19).replace('T', ' ');
}

function textOf(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' && field !== '' ? field : undefined;
}

/** Who owns an item's conversation (its wall), by address or hash. */
function ownerOf(item: StreamItem): string | undefined {
  return textOf(item['owner'], 'address') ?? textOf(item['owner'], 'hash') ?? textOf(item, 'owner_xchan');
}

/** A thread top's place in `network/stream`: its latest activity, to the second. */
function activityOf(item: StreamItem): string {
  return textOf(item, 'commented') ?? textOf(item, 'created') ?? '';
}

/** The items of a page grouped by thread, in page order. */
function threadsOf(items: readonly StreamItem[]): { top: string; items: StreamItem[]; activity: string }[] {
  const threads = new Map<string, { top: string; items: StreamItem[]; activity: string }>();
  for (const item of items) {
    const keys = streamItemKeys(item);
    const top = keys.top ?? keys.id ?? '';
    let thread = threads.get(top);
    if (!thread) {
      thread = { top, items: [], activity: '' };
      threads.set(top, thread);
    }
    thread.items.push(item);
    if (keys.id !== undefined && keys.id === top) thread.activity = activityOf(item);
  }
  return [...threads.values()];
}

/** What the stream requests read with: the client's stream calls (an interface: the client builds the requests). */
export interface StreamReader {
  readonly transport: Pick<HttpTransport, 'maxListPages'>;
  fetchChannelStream(mindate: string | undefined, options?: ChannelCallOptions): Promise<StreamItem[]>;
  fetchNetworkStreamPage(
    filter: NetworkStreamFilter,
    page: { start: number; records: number },
    options?: ChannelCallOptions,
  ): Promise<NetworkStreamPage>;
  networkStream(filter: NetworkStreamFilter): NetworkStreamRequest;
}

/**
 * `channel/stream` from a date on, oldest first. Each next request starts one second before the
 * newest thread seen (the server keeps only what is strictly newer, and many posts can share that
 * second); what was seen is dropped by message id; the walk ends when a reply brings nothing new.
 * A second holding more threads than one reply is read from `network/stream` for that second alone.
 */
export class ChannelStreamRequest implements AsyncIterable<StreamItem> {
  constructor(
    private readonly client: StreamReader,
    readonly mindate: string | undefined,
  ) {}

  fetch(options: ChannelCallOptions = {}): Promise<StreamItem[]> {
    return this.client.fetchChannelStream(this.mindate, options);
  }

  async *all(options: ChannelCallOptions = {}): AsyncGenerator<StreamItem, void, undefined> {
    const seen = new Set<string>();
    const fresh = (item: StreamItem): boolean => {
      const id = streamItemKeys(item).id;
      if (id === undefined) return true;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    };
    let mindate = this.mindate;
    const readSeconds = new Set<string>();
    // The last reply repeats the one before when every thread left is in its newest second (a
    // channel of one post): nothing in it is new, and the walk ends there.
    const guard = new RunawayGuard('GET channel/stream', this.client.transport.maxListPages, {
      sameRowsAgainEnds: true,
    });
    for (;;) {
      const items = await this.client.fetchChannelStream(mindate, options);
      guard.check({ items });
      let count = 0;
      let newestTop: string | undefined;
      let owner: string | undefined;
      for (const item of items) {
        const keys = streamItemKeys(item);
        owner ??= ownerOf(item);
        if (keys.id !== undefined && keys.id === keys.top && keys.created !== undefined) {
          if (newestTop === undefined || keys.created > newestTop) newestTop = keys.created;
        }
        if (!fresh(item)) continue;
        count++;
        yield item;
      }
      if (count === 0 || newestTop === undefined) return;
      const next = secondBefore(newestTop);
      if (mindate === undefined || next > mindate) {
        mindate = next;
        continue;
      }
      // Every thread of the reply is in the second after `mindate`: the reply cannot move past it.
      // That second is read whole from network/stream, then the walk goes on after it.
      if (!readSeconds.has(newestTop)) {
        readSeconds.add(newestTop);
        for await (const item of this.client
          .networkStream({ dbegin: newestTop, dend: newestTop })
          .all(options)) {
          if (owner !== undefined && ownerOf(item) !== owner) continue;
          if (fresh(item)) yield item;
        }
      }
      mindate = newestTop;
    }
  }

  toArray(options: ChannelCallOptions = {}): Promise<StreamItem[]> {
    return collect(this.all(options));
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamItem> {
    return this.all();
  }
}

/**
 * `network/stream` bound to a date range, latest activity first. Read in large pages; when a page
 * is full, the next one starts where the page's last second began, so a group of threads that share
 * that second is read whole in one reply whatever order the server gives it (a group larger than
 * the page doubles the page). Items are yielded once each, by message id.
 */
export class NetworkStreamRequest implements AsyncIterable<StreamItem> {
  constructor(
    private readonly client: StreamReader,
    readonly filter: NetworkStreamFilter,
    readonly threadsPerPage: number,
  ) {}

  page(start = 0, options: ChannelCallOptions = {}) {
    return this.client.fetchNetworkStreamPage(this.filter, { start, records: this.threadsPerPage }, options);
  }

  /** The new items of each request, in order: a page's threads whole, none twice. */
  async *pages(options: ChannelCallOptions = {}): AsyncGenerator<StreamItem[], void, undefined> {
    const seen = new Set<string>();
    const guard = new RunawayGuard('GET network/stream', this.client.transport.maxListPages);
    let start = 0;
    let records = Math.max(1, this.threadsPerPage);
    for (;;) {
      const page = await this.client.fetchNetworkStreamPage(this.filter, { start, records }, options);
      guard.check(page);
      const fresh = page.items.filter((item) => {
        const id = streamItemKeys(item).id;
        if (id === undefined) return true;
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      });
      if (fresh.length > 0) yield fresh;
      const threads = threadsOf(page.items);
      if (threads.length < records) return;
      const lastActivity = threads.at(-1)?.activity ?? '';
      const groupStart = threads.findIndex((thread) => thread.activity === lastActivity);
      if (groupStart > 0) {
        start += groupStart;
        continue;
      }
      // One second fills the whole page: ask for more at once, from the same place.
      if (records >= MAX_READ_THREADS) {
        start += threads.length;
        continue;
      }
      records = Math.min(MAX_READ_THREADS, records * 2);
    }
  }

  async *all(options: ChannelCallOptions = {}): AsyncGenerator<StreamItem, void, undefined> {
    for await (const items of this.pages(options)) yield* items;
  }

  toArray(options: ChannelCallOptions = {}): Promise<StreamItem[]> {
    return collect(this.all(options));
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamItem> {
    return this.all();
  }
}

/** Every item of an async iterable, in order. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
