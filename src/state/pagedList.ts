/**
 * One list shown a page at a time ("Load more"): the items so far, where the next page is, and
 * the last error. Knows nothing of VS Code or HTTP; a loader function fetches pages.
 */
export interface LoadedPage<T> {
  items: T[];
  nextUrl: string | undefined;
  total: number | undefined;
}

export type PageLoader<T> = (nextUrl: string | undefined, signal: AbortSignal) => Promise<LoadedPage<T>>;

export type PagedListStatus = 'idle' | 'loading' | 'loaded' | 'error';

export class PagedList<T> {
  private loaded: T[] = [];
  private next: string | undefined;
  private started = false;
  private lastError: unknown;
  private inFlight: Promise<void> | undefined;
  private controller: AbortController | undefined;
  total: number | undefined;

  constructor(private readonly loader: PageLoader<T>) {}

  get items(): readonly T[] {
    return this.loaded;
  }

  get hasMore(): boolean {
    return this.started && this.next !== undefined;
  }

  get error(): unknown {
    return this.lastError;
  }

  get status(): PagedListStatus {
    if (this.inFlight) return 'loading';
    if (this.lastError !== undefined) return 'error';
    return this.started ? 'loaded' : 'idle';
  }

  /** Loads the first page if nothing was loaded yet. */
  ensureLoaded(): Promise<void> {
    if (this.started && this.lastError === undefined) return this.inFlight ?? Promise.resolve();
    return this.loadNext();
  }

  /** Loads the next page; concurrent calls share one request. */
  loadNext(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.started && this.next === undefined && this.lastError === undefined) return Promise.resolve();
    const controller = new AbortController();
    const cursor = this.started ? this.next : undefined;
    return this.track(
      controller,
      this.loader(cursor, controller.signal)
        .then((page) => {
          if (controller.signal.aborted) return;
          this.loaded = [...this.loaded, ...page.items];
          this.next = page.nextUrl;
          this.total = page.total ?? this.total;
          this.started = true;
          this.lastError = undefined;
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          this.lastError = error;
        }),
    );
  }

  /** `work` is the read in flight under `controller` until it settles (unless a newer one took over). */
  private track(controller: AbortController, work: Promise<void>): Promise<void> {
    this.controller = controller;
    this.inFlight = work.finally(() => {
      if (this.controller === controller) {
        this.inFlight = undefined;
        this.controller = undefined;
      }
    });
    return this.inFlight;
  }

  /**
   * Loads page after page until the list is complete, `signal` aborts, or a page fails (its error
   * stays, as after `loadNext`); `onPage` hears how many items are loaded after each page.
   */
  async loadAll(
    signal: AbortSignal,
    onPage?: (loaded: number, total: number | undefined) => void,
  ): Promise<void> {
    while ((!this.started || this.hasMore) && !signal.aborted) {
      await this.loadNext();
      if (this.lastError !== undefined) return;
      onPage?.(this.loaded.length, this.total);
    }
  }

  /**
   * Reads the list again as far as it had been read (the pages "Load more" added too, `mostPages`
   * at most) and shows the new items at once: an automatic refresh keeps the reader's place and
   * never shows an empty list. A list not read yet, or whose last read failed, starts over. When a
   * page fails, what was shown stays and the error is thrown; a reset meanwhile wins.
   */
  reload(mostPages = 20): Promise<void> {
    if (!this.started || this.lastError !== undefined) {
      this.reset();
      return this.loadNext();
    }
    // A "Load more" in flight would add a page of the old reading to the new one.
    this.controller?.abort();
    const controller = new AbortController();
    const wanted = this.loaded.length;
    const read = (async () => {
      const items: T[] = [];
      let cursor: string | undefined;
      let total: number | undefined;
      let pages = 0;
      do {
        const page = await this.loader(cursor, controller.signal);
        items.push(...page.items);
        cursor = page.nextUrl;
        total = page.total ?? total;
        pages++;
      } while (cursor !== undefined && items.length < wanted && pages < mostPages);
      if (controller.signal.aborted) return;
      this.loaded = items;
      this.next = cursor;
      this.total = total;
    })();
    void this.track(
      controller,
      read.then(
        () => undefined,
        () => undefined,
      ),
    );
    return read.catch((error: unknown) => {
      if (!controller.signal.aborted) throw error;
    });
  }

  /** Forgets everything (refresh); a request in flight is cancelled. */
  reset(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.inFlight = undefined;
    this.loaded = [];
    this.next = undefined;
    this.started = false;
    this.lastError = undefined;
    this.total = undefined;
  }

  /** Drops items matching `predicate` (e.g. a todo marked done) without reloading. */
  remove(predicate: (item: T) => boolean): void {
    const before = this.loaded.length;
    this.loaded = this.loaded.filter((item) => !predicate(item));
    if (this.total !== undefined) this.total = Math.max(0, this.total - (before - this.loaded.length));
  }
}
