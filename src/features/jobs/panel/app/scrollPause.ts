/**
 * Holds back work that can wait while the reader scrolls. A long trace arrives in pieces; each one
 * parsed grows the scroll height (a layout of the whole list) and lets the host send the next (a
 * message through the workbench, on the thread the page's frames share). While the reader scrolls,
 * pieces wait here and go on, in order, once the scrolling has stopped for `quietMs`, or after
 * `mostMs` at the latest so that a long scroll still sees the trace grow.
 */
export interface ScrollPauseClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const realClock: ScrollPauseClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export class ScrollPause<T> {
  private held: T[] = [];
  private heldSince = 0;
  private lastScrollAt = Number.NEGATIVE_INFINITY;
  private timer: unknown;

  constructor(
    private readonly send: (item: T) => void,
    private readonly options: { quietMs: number; mostMs: number },
    private readonly clock: ScrollPauseClock = realClock,
  ) {}

  private now(): number {
    return this.clock.now();
  }

  /** The reader moved the view. */
  scrolled(): void {
    this.lastScrollAt = this.now();
  }

  get holding(): number {
    return this.held.length;
  }

  /** Sends `item` now, or after the scrolling (behind what waits already). `urgent` sends all now. */
  offer(item: T, urgent = false): void {
    if (urgent) {
      this.flush();
      this.send(item);
      return;
    }
    if (this.held.length === 0) {
      if (!this.scrolling()) {
        this.send(item);
        return;
      }
      this.heldSince = this.now();
    }
    this.held.push(item);
    this.schedule();
  }

  private scrolling(): boolean {
    return this.now() - this.lastScrollAt < this.options.quietMs;
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    const now = this.now();
    const quietAt = this.lastScrollAt + this.options.quietMs;
    const latest = this.heldSince + this.options.mostMs;
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        if (this.held.length === 0) return;
        if (this.scrolling() && this.now() < this.heldSince + this.options.mostMs) this.schedule();
        else this.flush();
      },
      Math.max(0, Math.min(quietAt, latest) - now),
    );
  }

  /** Sends everything held, in order. */
  flush(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    const items = this.held;
    this.held = [];
    for (const item of items) this.send(item);
  }
}
