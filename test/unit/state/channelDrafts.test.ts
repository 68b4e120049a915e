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

describe('ChannelDrafts, reading what was stored (a table)', () => {
  const savedAt = '2024-05-01T10:00:00.000Z';
  const cases: [string, unknown, unknown][] = [
    ['not an object', 'text', undefined],
    ['null', null, undefined],
    ['no body', { savedAt }, undefined],
    ['no savedAt', { body: 'b' }, undefined],
    ['savedAt not a string', { body: 'b', savedAt: 1 }, undefined],
    ['the least', { body: 'b', savedAt }, { body: 'b', savedAt }],
    ['title kept', { body: 'b', savedAt, title: 'T' }, { body: 'b', savedAt, title: 'T' }],
    ['title not a string', { body: 'b', savedAt, title: 3 }, { body: 'b', savedAt }],
    ['categories kept', { body: 'b', savedAt, categories: ['x'] }, { body: 'b', savedAt, categories: ['x'] }],
    ['categories with a number', { body: 'b', savedAt, categories: ['x', 1] }, { body: 'b', savedAt }],
    ['categories not a list', { body: 'b', savedAt, categories: 'x' }, { body: 'b', savedAt }],
    ['nocomment kept', { body: 'b', savedAt, nocomment: false }, { body: 'b', savedAt, nocomment: false }],
    ['nocomment not a boolean', { body: 'b', savedAt, nocomment: 'yes' }, { body: 'b', savedAt }],
    ['source kept', { body: 'b', savedAt, source: 'notes.md' }, { body: 'b', savedAt, source: 'notes.md' }],
    ['source not a string', { body: 'b', savedAt, source: {} }, { body: 'b', savedAt }],
    [
      'audience: public',
      { body: 'b', savedAt, audience: { kind: 'public', allowGroups: ['g'] } },
      { body: 'b', savedAt, audience: { kind: 'public' } },
    ],
    [
      'audience: default',
      { body: 'b', savedAt, audience: { kind: 'default' } },
      { body: 'b', savedAt, audience: { kind: 'default' } },
    ],
    ['audience not an object', { body: 'b', savedAt, audience: 'public' }, { body: 'b', savedAt }],
    ['audience null', { body: 'b', savedAt, audience: null }, { body: 'b', savedAt }],
    [
      'audience: custom, lists that are not lists of strings read as empty',
      {
        body: 'b',
        savedAt,
        audience: {
          kind: 'custom',
          allowGroups: ['g'],
          allowConnections: 'c',
          denyGroups: [2],
          denyConnections: ['d'],
        },
      },
      {
        body: 'b',
        savedAt,
        audience: {
          kind: 'custom',
          allowGroups: ['g'],
          allowConnections: [],
          denyGroups: [],
          denyConnections: ['d'],
        },
      },
    ],
  ];
  for (const [name, stored, expected] of cases) {
    it(name, () => {
      const memento = memoryMemento();
      memento.data.set('forge.channelDrafts', { key: stored });
      assert.deepEqual(new ChannelDrafts(memento).get('key'), expected);
    });
  }

  it('reads nothing from a store that is not a record of drafts', () => {
    for (const stored of [undefined, 'x', ['a'], 5]) {
      const memento = memoryMemento();
      if (stored !== undefined) memento.data.set('forge.channelDrafts', stored);
      assert.equal(new ChannelDrafts(memento).get('0'), undefined, JSON.stringify(stored));
    }
  });

  it('keeps a post with a title and no text yet, and drops one with only spaces in both', async () => {
    const memento = memoryMemento();
    const drafts = new ChannelDrafts(memento);
    await drafts.save('a', { body: ' ', title: 'Title first' });
    assert.equal(drafts.get('a')?.title, 'Title first');
    await drafts.save('b', { body: ' ', title: '  ' });
    assert.equal(drafts.get('b'), undefined);
    assert.deepEqual(ChannelDrafts.postKey('acc'), 'acc|post');
    assert.deepEqual(ChannelDrafts.commentKey('acc', 'm@hub'), 'acc|comment|m@hub');
  });
});

describe('ChannelItemIds, what was stored', () => {
  it('skips entries that are not [message id, number] pairs, and stores that are not records', () => {
    const memento = memoryMemento();
    memento.data.set('forge.channelItemIds', {
      acc: [['m1', 1], ['m2', '2'], [3, 3], 'm4', ['m5', 5]],
      other: 'not a list',
    });
    const ids = new ChannelItemIds(memento);
    assert.equal(ids.get('acc', 'm1'), 1);
    assert.equal(ids.get('acc', 'm2'), undefined);
    assert.equal(ids.get('acc', 'm5'), 5);
    assert.equal(ids.get('other', 'm1'), undefined);
    for (const stored of [['acc'], 'x', null]) {
      memento.data.set('forge.channelItemIds', stored);
      assert.equal(new ChannelItemIds(memento).get('acc', 'm1'), undefined, JSON.stringify(stored));
    }
  });

  it('replaces the number of a message id remembered again, and forgets the last account entirely', async () => {
    const memento = memoryMemento();
    const ids = new ChannelItemIds(memento);
    await ids.remember('acc', 'm1', 1);
    await ids.remember('acc', 'm1', 2);
    assert.equal(ids.get('acc', 'm1'), 2);
    assert.deepEqual(memento.data.get('forge.channelItemIds'), { acc: [['m1', 2]] });
    await ids.forget('nobody');
    assert.deepEqual(memento.data.get('forge.channelItemIds'), { acc: [['m1', 2]] });
    await ids.forget('acc');
    assert.equal(memento.data.has('forge.channelItemIds'), false, 'nothing left behind');
  });
});
