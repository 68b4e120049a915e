import assert from 'node:assert/strict';
import { SeenBroadcastStore } from '../../../src/state/seenBroadcasts';
import {
  type KeyValueStorage,
  TodoFilterStore,
  describeTodoFilter,
  isDefaultTodoFilter,
  sanitizeTodoFilter,
  todoQuery,
} from '../../../src/state/todoFilters';

function memoryStorage(): KeyValueStorage & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: (key) => data.get(key),
    update: (key, value) => {
      if (value === undefined) data.delete(key);
      else data.set(key, value);
      return Promise.resolve();
    },
  };
}

describe('todo filters', () => {
  it('default to pending with no filter', () => {
    assert.deepEqual(todoQuery({}), {
      state: 'pending',
      action: undefined,
      type: undefined,
      projectId: undefined,
    });
    assert.equal(describeTodoFilter({}), undefined);
    assert.equal(isDefaultTodoFilter({}), true);
    assert.equal(isDefaultTodoFilter({ state: 'pending' }), true);
  });

  it('turn into the query of GET /todos', () => {
    assert.deepEqual(
      todoQuery({
        action: 'assigned',
        type: 'MergeRequest',
        projectId: 4,
        projectName: 'acme/web',
        state: 'done',
      }),
      { state: 'done', action: 'assigned', type: 'MergeRequest', projectId: 4 },
    );
  });

  it('describe themselves for the view', () => {
    assert.equal(
      describeTodoFilter({ action: 'build_failed', type: 'Issue', projectId: 4, projectName: 'acme/web' }),
      'build failed · issues · acme/web',
    );
    assert.equal(describeTodoFilter({ state: 'done', projectId: 9 }), 'done · project 9');
  });

  it('read stored data defensively', () => {
    assert.deepEqual(sanitizeTodoFilter(undefined), {});
    assert.deepEqual(sanitizeTodoFilter('assigned'), {});
    assert.deepEqual(
      sanitizeTodoFilter({
        action: 'bogus',
        type: 'Epic',
        state: 'pending',
        projectId: -1,
        projectName: 'x',
      }),
      {},
    );
    assert.deepEqual(
      sanitizeTodoFilter({ action: 'marked', state: 'done', projectId: 3, projectName: 'a/b' }),
      {
        action: 'marked',
        state: 'done',
        projectId: 3,
        projectName: 'a/b',
      },
    );
  });

  it('are stored per account, and clearing removes the entry', async () => {
    const storage = memoryStorage();
    const store = new TodoFilterStore(storage);
    await store.set('a', { action: 'mentioned' });
    assert.deepEqual(store.get('a'), { action: 'mentioned' });
    assert.deepEqual(store.get('b'), {});
    await store.set('a', {});
    assert.equal(storage.data.size, 0);
  });
});

describe('SeenBroadcastStore', () => {
  it('remembers shown ids per account, bounded', async () => {
    const storage = memoryStorage();
    const store = new SeenBroadcastStore(storage, 3);
    assert.deepEqual(store.get('a'), []);
    await store.add('a', [1, 2]);
    await store.add('a', [2, 3, 4]);
    assert.deepEqual(store.get('a'), [2, 3, 4]);
    assert.deepEqual(store.get('b'), []);
    await store.forget('a');
    assert.deepEqual(store.get('a'), []);
  });

  it('ignores garbage in storage', () => {
    const storage = memoryStorage();
    storage.data.set('forge.broadcasts.seen.a', ['x', 1.5, 7]);
    assert.deepEqual(new SeenBroadcastStore(storage).get('a'), [7]);
  });
});
