import assert from 'node:assert/strict';
import { AutoRefresh } from '../../../src/state/autoRefresh';
import type { Timers } from '../../../src/state/refreshBurst';

function intervalTimers() {
  const active = new Map<number, { callback: () => void; ms: number }>();
  let next = 0;
  const timers: Timers = {
    set: (callback, ms) => {
      active.set(++next, { callback, ms });
      return next;
    },
    clear: (handle) => active.delete(handle as number),
  };
  const elapse = (): void => {
    for (const entry of [...active.values()]) entry.callback();
  };
  return { timers, active, elapse };
}

describe('AutoRefresh', () => {
  it('ticks at the interval while focused and not at all while unfocused', () => {
    const { timers, active, elapse } = intervalTimers();
    let now = 0;
    let ticks = 0;
    const auto = new AutoRefresh(
      60_000,
      () => ticks++,
      true,
      timers,
      () => now,
    );
    assert.equal(active.size, 1);
    now = 60_000;
    elapse();
    assert.equal(ticks, 1);
    auto.setFocused(false);
    assert.equal(active.size, 0, 'no timer while the window is unfocused');
    elapse();
    assert.equal(ticks, 1);
    now = 200_000;
    auto.setFocused(true);
    assert.equal(ticks, 2, 'refreshes at once when focus returns after an interval');
    assert.equal(active.size, 1);
  });

  it('does not tick on a quick focus change, and 0 turns it off', () => {
    const { timers, active } = intervalTimers();
    let now = 0;
    let ticks = 0;
    const auto = new AutoRefresh(
      60_000,
      () => ticks++,
      true,
      timers,
      () => now,
    );
    auto.setFocused(false);
    now = 5_000;
    auto.setFocused(true);
    assert.equal(ticks, 0);
    auto.setInterval(0);
    assert.equal(active.size, 0);
    assert.equal(auto.running, false);
    auto.dispose();
  });
});

describe('AutoRefresh, edges', () => {
  function make(intervalMs: number, focused: boolean) {
    const { timers, active, elapse } = intervalTimers();
    const clock = { now: 0 };
    const ticks: number[] = [];
    const auto = new AutoRefresh(
      intervalMs,
      () => ticks.push(clock.now),
      focused,
      timers,
      () => clock.now,
    );
    return { auto, active, elapse, clock, ticks };
  }

  it('starts without a timer when the window is not focused, and with its interval when it is', () => {
    const unfocused = make(60_000, false);
    assert.equal(unfocused.active.size, 0);
    assert.equal(unfocused.auto.running, false);
    const focused = make(60_000, true);
    assert.deepEqual(
      [...focused.active.values()].map((entry) => entry.ms),
      [60_000],
    );
    assert.equal(focused.auto.running, true);
  });

  it('refreshes on return after exactly one interval, and counts from the last refresh', () => {
    const { auto, elapse, clock, ticks } = make(60_000, true);
    auto.setFocused(false);
    clock.now = 60_000;
    auto.setFocused(true);
    assert.deepEqual(ticks, [60_000], 'an interval to the millisecond is enough');
    clock.now = 100_000;
    elapse();
    assert.deepEqual(ticks, [60_000, 100_000]);
    auto.setFocused(false);
    clock.now = 159_999;
    auto.setFocused(true);
    assert.equal(ticks.length, 2, 'less than an interval since the last refresh');
    auto.setFocused(true);
    assert.equal(ticks.length, 2, 'focus that did not change does nothing');
  });

  it('does not refresh on return when turned off, and starts again with a new interval', () => {
    const { auto, active, clock, ticks } = make(60_000, true);
    auto.setInterval(0);
    auto.setFocused(false);
    clock.now = 500_000;
    auto.setFocused(true);
    assert.deepEqual(ticks, []);
    assert.equal(active.size, 0);
    auto.setInterval(30_000);
    assert.deepEqual(
      [...active.values()].map((entry) => entry.ms),
      [30_000],
    );
    auto.dispose();
    assert.equal(active.size, 0);
    assert.equal(auto.running, false);
  });

  it('runs on real timers: ticks come at the interval, and none after dispose', async () => {
    let ticks = 0;
    let auto: AutoRefresh | undefined;
    await new Promise<void>((done) => {
      auto = new AutoRefresh(
        1,
        () => {
          ticks++;
          if (ticks === 2) done();
        },
        true,
      );
    });
    auto?.dispose();
    // Intervals of the same period fire in the order they were set: after this one has fired
    // twice, a leftover interval would have fired too.
    await new Promise<void>((done) => {
      let fired = 0;
      const probe = setInterval(() => {
        fired++;
        if (fired === 2) {
          clearInterval(probe);
          done();
        }
      }, 1);
    });
    assert.equal(ticks, 2);
  });
});
