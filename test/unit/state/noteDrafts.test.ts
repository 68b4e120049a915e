import assert from 'node:assert/strict';
import { type DraftMemento, MAX_DRAFTS, NoteDrafts } from '../../../src/state/noteDrafts';

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

const parent = { kind: 'mergeRequest', project: 7, id: 1 };

describe('NoteDrafts', () => {
  it('keys drafts by account and parent', () => {
    assert.equal(NoteDrafts.keyFor('acc', parent), 'acc|7|mergeRequest|1');
    assert.notEqual(NoteDrafts.keyFor('acc', parent), NoteDrafts.keyFor('other', parent));
    assert.notEqual(NoteDrafts.keyFor('acc', parent), NoteDrafts.keyFor('acc', { ...parent, kind: 'issue' }));
  });

  it('keeps a note whose send failed, and restores it for the same parent', async () => {
    const memento = memoryMemento();
    const drafts = new NoteDrafts(memento, () => new Date('2024-05-01T10:00:00Z'));
    const key = NoteDrafts.keyFor('acc', parent);
    await assert.rejects(
      drafts.sendWithDraft(key, 'My long review comment', () => Promise.reject(new Error('500'))),
      /500/,
    );
    assert.deepEqual(drafts.get(key), {
      body: 'My long review comment',
      savedAt: '2024-05-01T10:00:00.000Z',
    });
    // A new store over the same memento (a reload of the window) still has it.
    assert.equal(new NoteDrafts(memento).get(key)?.body, 'My long review comment');
    assert.equal(drafts.get(NoteDrafts.keyFor('acc', { ...parent, id: 2 })), undefined);
  });

  it('saves before sending and removes the draft only after the server accepted it', async () => {
    const memento = memoryMemento();
    const drafts = new NoteDrafts(memento);
    const key = NoteDrafts.keyFor('acc', parent);
    const result = await drafts.sendWithDraft(key, 'hello', () => {
      assert.equal(drafts.get(key)?.body, 'hello', 'saved while the request is in flight');
      return Promise.resolve(42);
    });
    assert.equal(result, 42);
    assert.equal(drafts.get(key), undefined);
    assert.equal(memento.data.size, 0, 'no empty record left behind');
  });

  it('treats an empty body as no draft and ignores a damaged store', async () => {
    const memento = memoryMemento();
    const drafts = new NoteDrafts(memento);
    const key = NoteDrafts.keyFor('acc', parent);
    await drafts.save(key, 'x');
    await drafts.save(key, '   ');
    assert.equal(drafts.get(key), undefined);
    memento.data.set('forge.noteDrafts', { [key]: { body: 3 }, other: 'nope' });
    assert.equal(drafts.get(key), undefined);
    memento.data.set('forge.noteDrafts', ['not', 'a', 'record']);
    assert.equal(drafts.get(key), undefined);
  });

  it('drops the oldest drafts beyond the limit and lists an account’s drafts', async () => {
    let tick = 0;
    const drafts = new NoteDrafts(memoryMemento(), () => new Date(Date.UTC(2024, 0, 1, 0, 0, tick++)));
    for (let id = 1; id <= MAX_DRAFTS + 3; id += 1) {
      await drafts.save(NoteDrafts.keyFor('acc', { ...parent, id }), `draft ${id}`);
    }
    assert.equal(drafts.get(NoteDrafts.keyFor('acc', { ...parent, id: 1 })), undefined);
    assert.equal(drafts.get(NoteDrafts.keyFor('acc', { ...parent, id: 4 }))?.body, 'draft 4');
    assert.equal(drafts.keysOf('acc').length, MAX_DRAFTS);
    assert.deepEqual(drafts.keysOf('other'), []);
  });
});
