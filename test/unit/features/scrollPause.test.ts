// The trace page holds new text while the reader scrolls, and lets it go in order afterwards.
import assert from 'node:assert/strict';
import { ScrollPause, type ScrollPauseClock } from '../../../src/features/jobs/panel/app/scrollPause';

/** A clock the test moves by hand: timers run when `advance` passes their time, in time order. */
class ManualClock implements ScrollPauseClock {
  time = 1000;
  private timers = new Map<number, { at: number; run: () => void }>();
  private nextId = 1;
  now(): number {
    return this.time;
  }
  setTimeout(run: () => void, ms: number): number {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  }
  clearTimeout(timer: unknown): void {
    this.timers.delete(timer as number);
  }
  get pending(): number {
    return this.timers.size;
  }
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, timer]) => timer.at <= end)
        .sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = Math.max(this.time, due[1].at);
      due[1].run();
    }
    this.time = end;
  }
}

function setUp(options: { quietMs: number; mostMs: number }) {
  const clock = new ManualClock();
  const sent: { item: string; at: number }[] = [];
  const pause = new ScrollPause<string>((item) => sent.push({ item, at: clock.now() }), options, clock);
  return { clock, pause, sent, names: () => sent.map((entry) => entry.item) };
}

describe('ScrollPause (new trace text while the reader scrolls)', () => {
  it('sends at once when nobody scrolls', () => {
    const { pause, names, clock } = setUp({ quietMs: 150, mostMs: 3000 });
    pause.offer('a');
    pause.offer('b');
    assert.deepEqual(names(), ['a', 'b']);
    assert.equal(pause.holding, 0);
    assert.equal(clock.pending, 0, 'no timer');
  });

  it('holds while the reader scrolls and sends in order once they have stopped for quietMs', () => {
    const { pause, clock, sent, names } = setUp({ quietMs: 150, mostMs: 3000 });
    pause.scrolled();
    pause.offer('a');
    clock.advance(100);
    pause.scrolled();
    pause.offer('b');
    clock.advance(149);
    assert.deepEqual(names(), [], 'nothing while scrolling');
    assert.equal(pause.holding, 2);
    clock.advance(1);
    assert.deepEqual(names(), ['a', 'b']);
    assert.equal(sent[0]?.at, 1250, '150 ms after the last scroll');
    assert.equal(pause.holding, 0);
  });

  it('puts text behind what is held even once the scrolling has stopped', () => {
    const { pause, clock, names } = setUp({ quietMs: 150, mostMs: 3000 });
    pause.scrolled();
    pause.offer('a');
    clock.time += 200; // stopped, but the timer has not run yet
    pause.offer('b');
    assert.deepEqual(names(), []);
    clock.advance(0);
    assert.deepEqual(names(), ['a', 'b']);
  });

  it('sends what starts over at once, after what was held', () => {
    const { pause, clock, names } = setUp({ quietMs: 150, mostMs: 3000 });
    pause.scrolled();
    pause.offer('a');
    pause.offer('b');
    pause.offer('replace', true);
    assert.deepEqual(names(), ['a', 'b', 'replace']);
    assert.equal(pause.holding, 0);
    assert.equal(clock.pending, 0, 'the timer is gone with what it held');
  });

  it('lets text go after mostMs though the reader never stops, then holds the next again', () => {
    const { pause, clock, sent, names } = setUp({ quietMs: 150, mostMs: 3000 });
    pause.scrolled();
    pause.offer('a');
    for (let step = 0; step < 299; step++) {
      clock.advance(10);
      pause.scrolled();
    }
    assert.deepEqual(names(), [], 'held for 2,990 ms of scrolling');
    clock.advance(10);
    assert.deepEqual(names(), ['a']);
    assert.equal(sent[0]?.at, 4000, 'after mostMs');
    pause.scrolled();
    pause.offer('b');
    assert.equal(pause.holding, 1, 'still scrolling: held again');
    clock.advance(150);
    assert.deepEqual(names(), ['a', 'b']);
  });

  it('flush sends everything held, once', () => {
    const { pause, clock, names } = setUp({ quietMs: 150, mostMs: 3000 });
    pause.scrolled();
    pause.offer('a');
    pause.flush();
    assert.deepEqual(names(), ['a']);
    clock.advance(5000);
    assert.deepEqual(names(), ['a']);
    assert.equal(clock.pending, 0);
  });

  it('scrolling long ago holds nothing', () => {
    const { pause, clock, names } = setUp({ quietMs: 150, mostMs: 3000 });
    pause.scrolled();
    clock.advance(150);
    pause.offer('a');
    assert.deepEqual(names(), ['a']);
  });
});
