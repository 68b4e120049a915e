/**
 * After an action the server is still settling (a retried job goes pending, then running): refresh
 * now and a few more times, then stop. A new burst for the same key replaces the old one.
 */
export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const DEFAULT_BURST_DELAYS_MS: readonly number[] = [1_500, 4_000, 10_000];

export class RefreshBurst {
  private readonly pending = new Map<string, unknown[]>();

  constructor(
    private readonly delaysMs: readonly number[] = DEFAULT_BURST_DELAYS_MS,
    private readonly timers: Timers = realTimers,
  ) {}

  trigger(key: string, refresh: () => void): void {
    this.cancel(key);
    refresh();
    const handles = this.delaysMs.map((delay, index) =>
      this.timers.set(() => {
        refresh();
        if (index === this.delaysMs.length - 1) this.pending.delete(key);
      }, delay),
    );
    this.pending.set(key, handles);
  }

  cancel(key: string): void {
    for (const handle of this.pending.get(key) ?? []) this.timers.clear(handle);
    this.pending.delete(key);
  }

  get active(): number {
    return this.pending.size;
  }

  dispose(): void {
    for (const key of [...this.pending.keys()]) this.cancel(key);
  }
}
