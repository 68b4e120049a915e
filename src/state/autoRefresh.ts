import type { Timers } from './refreshBurst';

const realTimers: Timers = {
  set: (callback, ms) => setInterval(callback, ms),
  clear: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

/**
 * Refreshes at an interval while the window has focus, never while it does not. Coming back
 * after at least one interval refreshes at once.
 */
export class AutoRefresh {
  private handle: unknown;
  private focused: boolean;
  private lastTick: number;

  constructor(
    private intervalMs: number,
    private readonly tick: () => void,
    focused: boolean,
    private readonly timers: Timers = realTimers,
    private readonly now: () => number = Date.now,
  ) {
    this.focused = focused;
    this.lastTick = now();
    this.schedule();
  }

  get running(): boolean {
    return this.handle !== undefined;
  }

  setFocused(focused: boolean): void {
    if (focused === this.focused) return;
    this.focused = focused;
    if (focused && this.intervalMs > 0 && this.now() - this.lastTick >= this.intervalMs) this.run();
    this.schedule();
  }

  /** 0 turns automatic refresh off. */
  setInterval(intervalMs: number): void {
    this.intervalMs = intervalMs;
    this.schedule();
  }

  dispose(): void {
    this.stop();
  }

  private run(): void {
    this.lastTick = this.now();
    this.tick();
  }

  private schedule(): void {
    this.stop();
    if (this.focused && this.intervalMs > 0) this.handle = this.timers.set(() => this.run(), this.intervalMs);
  }

  private stop(): void {
    if (this.handle !== undefined) this.timers.clear(this.handle);
    this.handle = undefined;
  }
}
