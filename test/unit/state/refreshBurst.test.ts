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

describe('RefreshBurst, edges', () => {
  it('stays active until its last delayed refresh, not its first', () => {
    const { timers, scheduled } = fakeTimers();
    const burst = new RefreshBurst([100, 500, 900], timers);
    let refreshes = 0;
    burst.trigger('job 1', () => refreshes++);
    const [first, second, last] = [...scheduled.values()];
    first?.callback();
    assert.equal(burst.active, 1, 'after the first of three');
    second?.callback();
    assert.equal(burst.active, 1, 'after the second of three');
    last?.callback();
    assert.equal(burst.active, 0);
    assert.equal(refreshes, 4);
  });

  it('cancels one key: its timers cleared, nothing refreshed later, other keys kept', () => {
    const { timers, scheduled, fireAll } = fakeTimers();
    const burst = new RefreshBurst([100], timers);
    const refreshed: string[] = [];
    burst.trigger('a', () => refreshed.push('a'));
    burst.trigger('b', () => refreshed.push('b'));
    burst.cancel('a');
    assert.equal(scheduled.size, 1);
    assert.equal(burst.active, 1);
    fireAll();
    assert.deepEqual(refreshed, ['a', 'b', 'b']);
    burst.cancel('never triggered');
    assert.equal(burst.active, 0);
  });

  it('runs on real timers: the delayed refreshes come, and a cancelled burst stays quiet', async () => {
    const burst = new RefreshBurst([1, 2]);
    let refreshes = 0;
    await new Promise<void>((done) =>
      burst.trigger('job', () => {
        refreshes++;
        if (refreshes === 3) done();
      }),
    );
    assert.equal(burst.active, 0);
    let cancelledRefreshes = 0;
    burst.trigger('cancelled', () => cancelledRefreshes++);
    burst.cancel('cancelled');
    // Timers of the same delay fire in the order they were set: once a burst triggered after it has
    // made its last refresh, the cancelled burst's would have come.
    await new Promise<void>((done) => {
      let probeRefreshes = 0;
      burst.trigger('probe', () => {
        probeRefreshes++;
        if (probeRefreshes === 3) done();
      });
    });
    assert.equal(cancelledRefreshes, 1, 'only the refresh made at once');
  });
});
