import assert from 'node:assert/strict';
import {
  ChannelDrafts,
  ChannelItemIds,
  MAX_CHANNEL_DRAFTS,
  MAX_KNOWN_ITEM_IDS,
} from '../../../src/state/channelDrafts';
import type { DraftMemento } from '../../../src/state/noteDrafts';

function memoryMemento(): DraftMemento & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: <T>(key: string) => data.get(key) as T | undefined,
    update: (key, value) => {
      if (value === undefined) data.delete(key);
      else data.set(key, JSON.parse(JSON.stringify(value)));
      return Promise.resolve();
    },
  };
}

describe('ChannelDrafts', () => {
  it('keeps a post whose send failed with its title, categories and audience', async () => {
    const memento = memoryMemento();
    const drafts = new ChannelDrafts(memento, () => new Date('2024-05-01T10:00:00Z'));
    const key = ChannelDrafts.postKey('acc');
    const draft = {
      body: 'Hello',
      title: 'Greeting',
      categories: ['forge'],
      audience: {
        kind: 'custom' as const,
        allowGroups: ['g'],
        allowConnections: [],
        denyGroups: [],
        denyConnections: ['c'],
      },
      nocomment: true,
      source: 'text given',
    };
    await assert.rejects(
      drafts.sendWithDraft(key, draft, () => Promise.reject(new Error('502'))),
      /502/,
    );
    assert.deepEqual(new ChannelDrafts(memento).get(key), { ...draft, savedAt: '2024-05-01T10:00:00.000Z' });
    assert.equal(await drafts.sendWithDraft(key, draft, () => Promise.resolve(7)), 7);
    assert.equal(drafts.get(key), undefined);
    assert.equal(memento.data.size, 0, 'nothing left behind');
  });

  it('keys comments by message id, lists and bounds drafts, ignores broken entries', async () => {
    const memento = memoryMemento();
    let tick = 0;
    const drafts = new ChannelDrafts(memento, () => new Date(Date.UTC(2024, 0, 1, 0, 0, tick++)));
    assert.notEqual(ChannelDrafts.commentKey('acc', 'm1'), ChannelDrafts.commentKey('acc', 'm2'));
    for (let i = 0; i < MAX_CHANNEL_DRAFTS + 3; i++)
      await drafts.save(ChannelDrafts.commentKey('acc', `m${i}`), { body: `c${i}` });
    assert.equal(drafts.keysOf('acc').length, MAX_CHANNEL_DRAFTS);
    assert.equal(drafts.get(ChannelDrafts.commentKey('acc', 'm0')), undefined, 'the oldest went first');
    await drafts.save(ChannelDrafts.postKey('acc'), { body: '   ' });
    assert.equal(drafts.get(ChannelDrafts.postKey('acc')), undefined, 'an empty post is not a draft');
    memento.data.set('forge.channelDrafts', {
      a: { body: 1 },
      b: { body: 'ok', savedAt: 'x', audience: { kind: 'odd' } },
    });
    assert.equal(drafts.get('a'), undefined);
    assert.deepEqual(drafts.get('b'), { body: 'ok', savedAt: 'x' });
  });
});

describe('ChannelItemIds', () => {
  it('remembers item numbers per account, newest kept', async () => {
    const memento = memoryMemento();
    const ids = new ChannelItemIds(memento);
    await ids.remember('acc', 'mid-1', 11);
    await ids.remember('other', 'mid-1', 99);
    assert.equal(ids.get('acc', 'mid-1'), 11);
    assert.equal(ids.get('other', 'mid-1'), 99);
    for (let i = 0; i < MAX_KNOWN_ITEM_IDS; i++) await ids.remember('acc', `m${i}`, i);
    assert.equal(ids.get('acc', 'mid-1'), undefined);
    assert.equal(ids.get('acc', `m${MAX_KNOWN_ITEM_IDS - 1}`), MAX_KNOWN_ITEM_IDS - 1);
    await ids.forget('acc');
    assert.equal(ids.get('acc', 'm1'), undefined);
    assert.equal(ids.get('other', 'mid-1'), 99);
  });
});
