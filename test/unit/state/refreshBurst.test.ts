import assert from 'node:assert/strict';
import { RefreshBurst, type Timers } from '../../../src/state/refreshBurst';

function fakeTimers() {
  const scheduled = new Map<number, { callback: () => void; ms: number }>();
  let next = 0;
  const timers: Timers = {
    set: (callback, ms) => {
      scheduled.set(++next, { callback, ms });
      return next;
    },
    clear: (handle) => scheduled.delete(handle as number),
  };
  const fireAll = (): void => {
    for (const [handle, entry] of [...scheduled.entries()].sort((a, b) => a[1].ms - b[1].ms)) {
      scheduled.delete(handle);
      entry.callback();
    }
  };
  return { timers, scheduled, fireAll };
}

describe('RefreshBurst', () => {
  it('refreshes now and after each delay, then stops', () => {
    const { timers, scheduled, fireAll } = fakeTimers();
    const burst = new RefreshBurst([100, 500], timers);
    let refreshes = 0;
    burst.trigger('job 1', () => refreshes++);
    assert.equal(refreshes, 1);
    assert.deepEqual(
      [...scheduled.values()].map((entry) => entry.ms),
      [100, 500],
    );
    fireAll();
    assert.equal(refreshes, 3);
    assert.equal(burst.active, 0);
  });

  it('replaces a running burst for the same key, keeps others', () => {
    const { timers, scheduled } = fakeTimers();
    const burst = new RefreshBurst([100, 500], timers);
    burst.trigger('job 1', () => undefined);
    burst.trigger('job 2', () => undefined);
    burst.trigger('job 1', () => undefined);
    assert.equal(scheduled.size, 4);
    assert.equal(burst.active, 2);
    burst.dispose();
    assert.equal(scheduled.size, 0);
  });
});
