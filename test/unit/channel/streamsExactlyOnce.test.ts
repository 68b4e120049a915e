// Channel streams show every item exactly once, against a fake hub as nasty as a real one
// (design.md section 3, 2026-11): `channel/stream` answers at most a cap of threads, strictly after
// `mindate` to the second; `network/stream` orders by a one-second column and pages with
// LIMIT/OFFSET, so threads of the same second move between pages from one request to the next.
import assert from 'node:assert/strict';
import { ChannelClient, type StreamItem, streamItemKeys } from '../../../src/api/channel';
import { type FakeForge, startFakeForge } from '../../server';
import { seedPostBurst } from '../../server/channel/seed';
import { channelRequests } from './harness';

function threadTops(items: readonly StreamItem[]): string[] {
  return items.flatMap((item) => {
    const keys = streamItemKeys(item);
    return keys.id !== undefined && keys.id === keys.top ? [keys.id] : [];
  });
}

function assertExactlyOnce(seen: readonly string[], expected: readonly string[]): void {
  const duplicates = seen.filter((id, index) => seen.indexOf(id) !== index);
  assert.deepEqual(duplicates, [], 'no thread twice');
  const missing = expected.filter((id) => !seen.includes(id));
  assert.equal(missing.length, 0, `${missing.length} of ${expected.length} threads never shown`);
}

describe('channel streams: every item exactly once', function () {
  this.timeout(60_000);
  let forge: FakeForge;
  let client: ChannelClient;

  beforeEach(async () => {
    forge = await startFakeForge();
    client = ChannelClient.create({
      baseUrl: forge.url,
      login: forge.channel.nickname,
      password: forge.channel.password,
    });
  });

  afterEach(async () => {
    await client.close();
    await forge.close();
  });

  function ownTops(): string[] {
    const { state } = forge.channel;
    return state
      .threadTops()
      .filter((top) => top.itemWall === 1 && top.ownerXchan === state.channel.hash)
      .map((top) => top.mid);
  }

  it('channel/stream: bursts of posts sharing a second across the reply cap', async () => {
    const { state } = forge.channel;
    state.channelStreamLimit = 40;
    seedPostBurst(state, { count: 90, created: '2024-07-02 09:00:00', own: true });
    seedPostBurst(state, { count: 70, created: '2024-07-02 09:00:01', own: true });
    const items = await client.channelStream({ mindate: new Date('2000-01-01T00:00:00Z') }).toArray();
    assertExactlyOnce(threadTops(items), ownTops());
    const ids = items.map((item) => streamItemKeys(item).id);
    assert.equal(new Set(ids).size, ids.length, 'no item twice');
  });

  it('channel/stream: a channel of one post (the last reply repeats the one before)', async () => {
    const { state } = forge.channel;
    const [only] = ownTops();
    assert.ok(only);
    state.items.splice(0, state.items.length, ...state.items.filter((item) => item.parentMid === only));
    const items = await client.channelStream({ mindate: new Date('2000-01-01T00:00:00Z') }).toArray();
    assertExactlyOnce(threadTops(items), [only]);
    assert.equal(channelRequests(forge, '/channel/stream').length, 2, 'the repeat ends the walk');
  });

  it('channel/stream: more threads in one second than one reply holds', async () => {
    const { state } = forge.channel;
    state.channelStreamLimit = 50;
    seedPostBurst(state, { count: 180, created: '2024-07-02 09:00:00', own: true });
    const items = await client.channelStream({ mindate: new Date('2000-01-01T00:00:00Z') }).toArray();
    assertExactlyOnce(threadTops(items), ownTops());
  });

  it('network/stream: hundreds of threads in one second, whatever order each request gives them', async () => {
    const { state } = forge.channel;
    seedPostBurst(state, { count: 250, created: '2024-07-02 09:00:00', own: false });
    seedPostBurst(state, { count: 60, created: '2024-07-02 09:00:00', own: true });
    const items = await client.networkStream().toArray();
    assertExactlyOnce(
      threadTops(items),
      state.threadTops().map((top) => top.mid),
    );
    assert.ok(channelRequests(forge, '/network/stream').length < 20, 'large pages, few requests');
  });
});
