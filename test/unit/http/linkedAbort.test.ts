import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { linkedAbort } from '../../../src/api/http';

describe('linkedAbort', () => {
  it('aborts with the parent, with its reason, until released', () => {
    const parent = new AbortController();
    const link = linkedAbort(parent.signal);
    assert.equal(getEventListeners(parent.signal, 'abort').length, 1);
    parent.abort(new Error('stopped by the user'));
    assert.equal(link.signal.aborted, true);
    assert.equal((link.signal.reason as Error).message, 'stopped by the user');

    const other = new AbortController();
    const released = linkedAbort(other.signal);
    released.release();
    released.release();
    assert.equal(getEventListeners(other.signal, 'abort').length, 0);
    other.abort();
    assert.equal(released.signal.aborted, false);
  });

  it('starts aborted under an aborted parent, and stands alone without one', () => {
    const parent = new AbortController();
    parent.abort('gone');
    const link = linkedAbort(parent.signal);
    assert.equal(link.signal.aborted, true);
    assert.equal(link.signal.reason, 'gone');
    assert.equal(getEventListeners(parent.signal, 'abort').length, 0);

    const alone = linkedAbort(undefined);
    alone.controller.abort();
    assert.equal(alone.signal.aborted, true);
  });

  it('leaves nothing on a long-lived parent after many links', () => {
    const parent = new AbortController();
    for (let i = 0; i < 1000; i++) linkedAbort(parent.signal).release();
    assert.equal(getEventListeners(parent.signal, 'abort').length, 0);
  });
});
