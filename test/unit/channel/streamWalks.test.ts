// The requests the stream walks make, against a scripted hub in memory: where `channel/stream` goes on
// from (one second before the newest thread), when a second is read from `network/stream` instead
// (and only the same wall's items kept), and how `network/stream` pages grow when one second fills
// a page. The fake forge's hub (streamsExactlyOnce.test.ts) checks the outcome; this the steps.
import assert from 'node:assert/strict';
import {
  ChannelStreamRequest,
  NetworkStreamRequest,
  type StreamReader,
} from '../../../src/api/channel/streams';
import type { NetworkStreamFilter, NetworkStreamPage, StreamItem } from '../../../src/api/channel';
import { streamItemKeys } from '../../../src/api/channel';

/** A thread top: its own message id, created (and last commented) at `created`. */
function top(id: string, created: string, extra: Record<string, unknown> = {}): StreamItem {
  return { message_id: id, message_top: id, created, ...extra };
}

/** A scripted hub: `channel/stream` answers from `replies` in turn; `network/stream` from `network`. */
class ScriptedHub implements StreamReader {
  readonly transport = { maxListPages: 50 };
  readonly channelAsks: (string | undefined)[] = [];
  readonly networkAsks: { filter: NetworkStreamFilter; start: number; records: number }[] = [];

  constructor(
    private readonly replies: StreamItem[][],
    private readonly network: StreamItem[] = [],
  ) {}

  fetchChannelStream(mindate: string | undefined): Promise<StreamItem[]> {
    this.channelAsks.push(mindate);
    return Promise.resolve(this.replies[this.channelAsks.length - 1] ?? []);
  }

  fetchNetworkStreamPage(
    filter: NetworkStreamFilter,
    page: { start: number; records: number },
  ): Promise<NetworkStreamPage> {
    this.networkAsks.push({ filter, ...page });
    // The hub pages by thread: a thread's replies come with it.
    const threads = new Map<string, StreamItem[]>();
    for (const item of this.network) {
      const keys = streamItemKeys(item);
      const key = keys.top ?? keys.id ?? '';
      threads.set(key, [...(threads.get(key) ?? []), item]);
    }
    const picked = [...threads.values()].slice(page.start, page.start + page.records);
    return Promise.resolve({ items: picked.flat(), ...page, threads: picked.length, nextStart: undefined });
  }

  networkStream(filter: NetworkStreamFilter): NetworkStreamRequest {
    return new NetworkStreamRequest(this, filter, 200);
  }
}

const ids = (items: readonly StreamItem[]) => items.map((item) => streamItemKeys(item).id);

describe('streamItemKeys', () => {
  it('reads both item shapes, numbers as text, and skips empty values', () => {
    assert.deepEqual(streamItemKeys({ mid: 7, parent_mid: 3, created: '2024-01-01 00:00:00' }), {
      id: '7',
      top: '3',
      created: '2024-01-01 00:00:00',
    });
    assert.deepEqual(streamItemKeys({ message_id: '', mid: 'b', message_top: 'a', created: '' }), {
      id: 'b',
      top: 'a',
      created: undefined,
    });
    assert.deepEqual(streamItemKeys({ message_id: true, message_top: null }), {
      id: undefined,
      top: undefined,
      created: undefined,
    });
  });
});

describe('ChannelStreamRequest: the walk', () => {
  it('goes on from one second before the newest thread, and ends when a reply brings nothing new', async () => {
    const hub = new ScriptedHub([
      [top('a', '2024-01-01 10:00:00'), top('b', '2024-01-01 10:00:05')],
      [top('b', '2024-01-01 10:00:05'), top('c', '2024-01-01 10:01:00')],
      [top('c', '2024-01-01 10:01:00')],
    ]);
    const items = await new ChannelStreamRequest(hub, '2024-01-01 00:00:00').toArray();
    assert.deepEqual(ids(items), ['a', 'b', 'c']);
    assert.deepEqual(hub.channelAsks, ['2024-01-01 00:00:00', '2024-01-01 10:00:04', '2024-01-01 10:00:59']);
    assert.deepEqual(hub.networkAsks, []);
  });

  it('ends when a reply repeats the one before (a channel of one post), or on a date it cannot read', async () => {
    const single = new ScriptedHub([[top('a', '2024-01-01 10:00:05')], [top('a', '2024-01-01 10:00:05')]]);
    assert.deepEqual(ids(await new ChannelStreamRequest(single, undefined).toArray()), ['a']);
    assert.deepEqual(single.channelAsks, [undefined, '2024-01-01 10:00:04']);
    const hub = new ScriptedHub([[top('a', 'yesterday')], [top('a', 'yesterday')]]);
    assert.deepEqual(ids(await new ChannelStreamRequest(hub, undefined).toArray()), ['a']);
    // One second before a date it cannot read is that date.
    assert.deepEqual(hub.channelAsks, [undefined, 'yesterday']);
  });

  it('reads a second the reply cannot move past from network/stream, keeping the same wall only', async () => {
    const second = '2024-01-01 10:00:05';
    const own = { owner: { address: 'wren@hub' } };
    const hub = new ScriptedHub(
      // Asked from `second` on, the hub has nothing newer.
      [[top('a', second, own), top('b', second, own)], []],
      [
        top('b', second, { ...own, commented: second }),
        top('c', second, { ...own, commented: second }),
        top('x', second, { owner: { address: 'someone@else' }, commented: second }),
        top('d', second, { owner_xchan: 'wren@hub', commented: second }),
      ],
    );
    const items = await new ChannelStreamRequest(hub, '2024-01-01 10:00:04').toArray();
    // `x` is on another wall; `d` names the same wall by its owner_xchan.
    assert.deepEqual(ids(items), ['a', 'b', 'c', 'd']);
    assert.deepEqual(hub.networkAsks, [{ filter: { dbegin: second, dend: second }, start: 0, records: 200 }]);
    assert.deepEqual(hub.channelAsks, ['2024-01-01 10:00:04', second]);
  });

  it('knows the wall by its hash or its owner_xchan when the owner has no address', async () => {
    const second = '2024-01-01 10:00:05';
    for (const own of [{ owner: { hash: 'h1' } }, { owner_xchan: 'h1' }]) {
      const hub = new ScriptedHub(
        [[top('a', second, own)], []],
        [
          top('b', second, { owner: { hash: 'h1' }, commented: second }),
          top('c', second, { owner_xchan: 'h2', commented: second }),
        ],
      );
      const items = await new ChannelStreamRequest(hub, '2024-01-01 10:00:04').toArray();
      assert.deepEqual(ids(items), ['a', 'b'], JSON.stringify(own));
    }
  });
});

describe('NetworkStreamRequest: pages', () => {
  const threads = (activities: string[]) =>
    activities.map((activity, index) => top(`t${index}`, '2024-01-01 09:00:00', { commented: activity }));

  it('starts the next page where the last second of a full page began', async () => {
    const hub = new ScriptedHub([], threads(['03', '03', '02', '02', '01']));
    const items = await new NetworkStreamRequest(hub, {}, 2).toArray();
    assert.deepEqual(ids(items), ['t0', 't1', 't2', 't3', 't4']);
    assert.deepEqual(
      hub.networkAsks.map(({ start, records }) => [start, records]),
      [
        [0, 2],
        [0, 4],
        [2, 4],
      ],
    );
  });

  it('doubles the page while one second fills it, and reads on past the largest page', async () => {
    const same = new ScriptedHub([], threads(Array.from({ length: 5 }, () => '01')));
    assert.equal((await new NetworkStreamRequest(same, {}, 2).toArray()).length, 5);
    assert.deepEqual(
      same.networkAsks.map(({ start, records }) => [start, records]),
      [
        [0, 2],
        [0, 4],
        [0, 8],
      ],
    );
    const huge = new ScriptedHub([], threads(Array.from({ length: 6_000 }, () => '01')));
    assert.equal((await new NetworkStreamRequest(huge, {}, 5_000).toArray()).length, 6_000);
    assert.deepEqual(
      huge.networkAsks.map(({ start, records }) => [start, records]),
      [
        [0, 5_000],
        [5_000, 5_000],
      ],
    );
  });

  it('asks for one thread at least, and groups a thread with its replies', async () => {
    const withReplies = [
      top('a', '2024-01-01 09:00:00', { commented: '02' }),
      { message_id: 'a1', message_top: 'a', created: '2024-01-01 09:00:01' },
      top('b', '2024-01-01 09:00:00', { commented: '01' }),
    ];
    const hub = new ScriptedHub([], withReplies);
    const request = new NetworkStreamRequest(hub, {}, 0);
    assert.deepEqual(ids(await request.toArray()), ['a', 'a1', 'b']);
    assert.deepEqual(
      hub.networkAsks.map(({ start, records }) => [start, records]),
      [
        [0, 1],
        [0, 2],
        [1, 2],
      ],
    );
  });
});
