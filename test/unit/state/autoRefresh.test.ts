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
