import assert from 'node:assert/strict';
import { inThreadOrder, threadPlaces } from '../../../src/domain/noteThreads';

describe('note threads in the Discussion tab', () => {
  const discussions = [
    { id: 'lone', individual_note: true, notes: [{ id: 1 }] },
    {
      id: 't1',
      individual_note: false,
      notes: [
        { id: 2, resolvable: true, resolved: false },
        { id: 5, resolvable: true, resolved: false },
      ],
    },
    { id: 't2', notes: [{ id: 3, resolvable: true, resolved: true }] },
  ];

  it('knows which thread each comment is in, and whether a thread is resolved', () => {
    const places = threadPlaces(discussions);
    // A lone comment is its own discussion: answering it makes a thread, nothing to resolve.
    assert.deepEqual(places.get(1), { discussionId: 'lone', reply: false });
    assert.deepEqual(places.get(2), { discussionId: 't1', reply: false, resolved: false });
    assert.deepEqual(places.get(5), { discussionId: 't1', reply: true });
    assert.deepEqual(places.get(3), { discussionId: 't2', reply: false, resolved: true });
  });

  it('puts the replies of a thread right after its first comment', () => {
    const notes = [1, 2, 3, 4, 5].map((id) => ({ id }));
    assert.deepEqual(
      inThreadOrder(notes, threadPlaces(discussions)).map((note) => note.id),
      [1, 2, 5, 3, 4],
    );
    assert.deepEqual(
      inThreadOrder(notes, new Map()).map((note) => note.id),
      [1, 2, 3, 4, 5],
      'without threads, as they came',
    );
  });
});
