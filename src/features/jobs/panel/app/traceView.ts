/*
 * The trace itself: a virtual list that draws only the rows on screen (plus a margin), so a 20 MB
 * trace scrolls like a short one. The trace lives in a worker (traceWorker.ts) that parses what the
 * host sends, folds sections and searches: parsing 20 MB on this thread, and collecting the garbage
 * it leaves in the heap this page shares with the workbench, cost frames while the user scrolled.
 * The page keeps only the rows around the viewport, asked of the worker as the user scrolls. Server
 * text reaches the DOM only as textContent.
 */
import workerSource from 'worker:./traceWorker';
import { ScrollPause } from './scrollPause';
import type { TraceRowView } from '../../../../domain/trace/traceRows';
import { type RowElements, type TraceDrawOptions, fillRow, newRow } from './traceRow';

import type { TraceWorkerReply, TraceWorkerRequest } from './traceWorkerProtocol';
import * as l10n from '@vscode/l10n';

/**
 * Rows drawn above and below the visible ones: a short scroll moves rows already drawn, while every
 * extra row is painted again whenever the window moves (in software raster, the bulk of a frame).
 */
const OVERSCAN_ROWS = 8;
/** How long after the reader's wheel, key or touch a scroll is still theirs (smooth scrolling). */
const READER_SCROLL_MS = 1000;
const SCROLL_KEYS: ReadonlySet<string> = new Set([
  'ArrowUp',
  'ArrowDown',
  'PageUp',
  'PageDown',
  'Home',
  'End',
  ' ',
]);
/** Rows asked of the worker beyond those drawn, each way: a few screens of scrolling need no ask. */
const PREFETCH_ROWS = 400;
/** Most rows kept from the worker; the ones that came longest ago go first. */
const CACHE_MAX_ROWS = 4000;
/** Most rows asked for around where a fast drag is heading (besides `PREFETCH_ROWS` each way). */
const LOOK_AHEAD_ROWS = 1000;
/** New text waits while the reader scrolls: until they have stopped this long, or this long at most. */
const SCROLL_QUIET_MS = 150;
const SCROLL_HOLD_MOST_MS = 3000;

export interface TraceViewState {
  scrollTop: number;
  /** Sections the user folded or unfolded, by header line. */
  toggles: [number, boolean][];
  atBottom: boolean;
}

export interface TraceViewEvents {
  /** The first rows are on screen (once per load). */
  onFirstPaint(): void;
  /** All text sent so far has been parsed. */
  onIdle(): void;
  onStateChange(): void;
  /** The worker failed: the page reports it. */
  onError(message: string): void;
  /** A drawn line had a runner timestamp: the trace has them (once per load). */
  onTimestamps?(): void;
}

export class TraceView {
  private readonly worker: Worker;
  private sawTimestamps = false;
  /** How styles are drawn; the host sends the settings with the snapshot. */
  drawOptions: TraceDrawOptions = { boldBright: true };
  private rowCount = 0;
  private lines = 0;
  private parsedByteCount = 0;
  /** Feeds sent to the worker and not parsed yet, with what to call when they are. */
  private readonly feeds = new Map<number, (() => void) | undefined>();
  private nextFeedId = 0;
  private workerBusy = false;
  /** New text goes to the worker when the reader is not scrolling (scrollPause.ts says why). */
  private readonly feedPause = new ScrollPause<{ request: TraceWorkerRequest; transfer: Transferable[] }>(
    ({ request, transfer }) => this.worker.postMessage(request, transfer),
    { quietMs: SCROLL_QUIET_MS, mostMs: SCROLL_HOLD_MOST_MS },
  );
  /** Rows from the worker, by row: around the viewport, and where a fast scroll is heading. */
  private cache = new Map<number, TraceRowView>();
  /** Rows asked for and not received yet. */
  private asked: { first: number; last: number }[] = [];
  private toggles: [number, boolean][];
  private rowHeight = 18;
  private painted = false;
  private frameRequested = false;
  /** Rows in the DOM, [first, last), and whether they need drawing again even so. */
  private drawnFirst = 0;
  private drawnLast = 0;
  private drawnStale = true;
  private stickToBottom = true;
  /** Where our last move to the end left the view. */
  private autoScrollTop = 0;
  /** When the reader last scrolled by hand (wheel, keys, touch), and whether a pointer is down. */
  private readerScrolledAt = Number.NEGATIVE_INFINITY;
  private pointerDown = false;
  private matches = 0;
  private currentMatch = -1;
  private highlightLine = -1;
  private searchSeq = 0;
  private revealSeq = 0;
  private readonly answers = new Map<string, (reply: TraceWorkerReply) => void>();
  private pendingScrollTop: number | undefined;
  /** The first row on screen at the last paint: how far a frame moves tells where the next will be. */
  private lastTop = 0;

  /** Row elements, drawn into again on every paint; the first ones are in the DOM. */
  private readonly rowPool: RowElements[] = [];
  private readonly spacer: HTMLDivElement;
  private readonly rowsElement: HTMLDivElement;

  constructor(
    private readonly viewport: HTMLElement,
    private readonly events: TraceViewEvents,
    saved?: Partial<TraceViewState>,
  ) {
    this.spacer = document.createElement('div');
    this.spacer.className = 'spacer';
    this.rowsElement = document.createElement('div');
    this.rowsElement.className = 'rows';
    this.rowsElement.setAttribute('role', 'log');
    this.rowsElement.setAttribute('aria-live', 'off');
    viewport.append(this.spacer, this.rowsElement);
    this.toggles = saved?.toggles ?? [];
    if (saved?.atBottom === false) this.stickToBottom = false;
    this.pendingScrollTop = saved?.scrollTop;

    const url = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
    this.worker = new Worker(url);
    this.worker.addEventListener('message', () => URL.revokeObjectURL(url), { once: true });
    this.worker.addEventListener('message', (event: MessageEvent<TraceWorkerReply>) =>
      this.receive(event.data),
    );
    this.worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.events.onError(l10n.t('The trace worker failed: {0}', event.message));
    });
    this.send({ type: 'toggles', toggles: this.toggles });

    this.watchReader(viewport);
    viewport.addEventListener('scroll', () => {
      // Only the reader lets go of the end, by moving up. The view also moves up by itself: a
      // taller viewport (the panel resized, the page still being laid out) lowers the end, and the
      // scroll event of that comes a frame later, when more rows may have made the end further down
      // again; that is no reason to stop following.
      const movedUp = this.viewport.scrollTop < this.autoScrollTop - 1;
      // Not our own move to the end as the trace grows: the reader's (or a jump they asked for).
      if (Math.abs(this.viewport.scrollTop - this.autoScrollTop) > 1) this.feedPause.scrolled();
      if (!this.stickToBottom || (movedUp && this.readerIsScrolling()))
        this.stickToBottom = this.isAtBottom();
      this.requestFrame(false);
      this.events.onStateChange();
    });
    viewport.addEventListener('click', (event) => {
      const header = (event.target as HTMLElement).closest<HTMLElement>('[data-section]');
      if (header) this.toggleSection(Number(header.dataset['section']));
    });
    viewport.addEventListener('keydown', (event) => {
      const header = (event.target as HTMLElement).closest<HTMLElement>('[data-section]');
      if (header && (event.key === 'Enter' || event.key === ' ')) {
        event.preventDefault();
        this.toggleSection(Number(header.dataset['section']));
      }
    });
    new ResizeObserver(() => this.requestFrame()).observe(viewport);
    this.measureRowHeight();
  }

  get lineCount(): number {
    return this.lines;
  }

  get parsedBytes(): number {
    return this.parsedByteCount;
  }

  get state(): TraceViewState {
    return {
      scrollTop: this.viewport.scrollTop,
      toggles: this.toggles,
      atBottom: this.stickToBottom,
    };
  }

  /** Whether the view keeps to the end of the trace (nobody moved it away). */
  get isAtEnd(): boolean {
    return this.stickToBottom && this.pendingScrollTop === undefined;
  }

  get isBusy(): boolean {
    return this.workerBusy || this.feeds.size > 0;
  }

  /**
   * Appends trace text as UTF-8 (only what is new); with `replace`, starts over with this text.
   * `done` is called once these bytes are parsed, or dropped because newer text replaced them;
   * `gzip` when they are gzipped. The bytes' buffer goes to the worker: the caller must not use it
   * afterwards.
   */
  feed(bytes: Uint8Array, replace = false, done?: () => void, gzip = false): void {
    const id = this.nextFeedId++;
    this.feeds.set(id, done);
    if (replace) {
      this.rowCount = 0;
      this.cache.clear();
      this.asked = [];
      this.matches = 0;
      this.currentMatch = -1;
      this.highlightLine = -1;
      this.stickToBottom = true;
      this.requestFrame();
    }
    // The buffer is the message's own copy: moved to the worker, not copied again.
    const transfer = bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [];
    // Text that starts over is never held: it replaces what is held, which goes first.
    this.feedPause.offer({ request: { type: 'feed', bytes, replace, gzip, id }, transfer }, replace);
  }

  scrollToTop(): void {
    this.stickToBottom = false;
    this.viewport.scrollTop = 0;
  }

  scrollToBottom(): void {
    this.stickToBottom = true;
    this.viewport.scrollTop = this.viewport.scrollHeight;
    this.autoScrollTop = this.viewport.scrollTop;
  }

  /** Shows the first line that looks like an error; false when there is none. */
  async revealFirstError(): Promise<boolean> {
    return (await this.reveal('firstError', 0)) >= 0;
  }

  /** Finds `query` (case-insensitive) and shows the first match; returns how many lines match. */
  async search(query: string): Promise<number> {
    const seq = ++this.searchSeq;
    this.matches = 0;
    this.currentMatch = -1;
    this.highlightLine = -1;
    const reply = await this.ask({ type: 'search', query, seq }, `searched ${seq}`);
    if (reply.type !== 'searched' || seq !== this.searchSeq) return 0;
    this.matches = reply.count;
    if (this.matches > 0) this.goToMatch(0);
    else this.requestFrame();
    return this.matches;
  }

  /** Moves to the next (or previous) match; returns its 1-based position. */
  nextMatch(step: 1 | -1): number {
    if (this.matches === 0) return 0;
    const next = (this.currentMatch + step + this.matches) % this.matches;
    this.goToMatch(next);
    return next + 1;
  }

  get matchCount(): number {
    return this.matches;
  }

  private goToMatch(index: number): void {
    this.currentMatch = index;
    void this.reveal('match', index);
  }

  /** Asks the worker to unfold what hides the target, then scrolls to it; returns its line or -1. */
  private async reveal(target: 'match' | 'firstError', value: number): Promise<number> {
    const seq = ++this.revealSeq;
    const reply = await this.ask({ type: 'reveal', target, value, seq }, `revealed ${seq}`);
    if (reply.type !== 'revealed' || reply.line < 0) return -1;
    // A later reveal (the next match, pressed quickly) decides where the view ends up.
    if (seq !== this.revealSeq) return reply.line;
    this.highlightLine = reply.line;
    this.stickToBottom = false;
    this.pendingScrollTop = undefined;
    this.viewport.scrollTop = Math.max(0, reply.row * this.rowHeight - this.viewport.clientHeight / 3);
    this.requestFrame();
    this.events.onStateChange();
    return reply.line;
  }

  private ask(request: TraceWorkerRequest, key: string): Promise<TraceWorkerReply> {
    return new Promise((resolve) => {
      this.answers.set(key, resolve);
      this.send(request);
    });
  }

  private send(request: TraceWorkerRequest): void {
    this.worker.postMessage(request);
  }

  private receive(reply: TraceWorkerReply): void {
    switch (reply.type) {
      case 'progress':
        this.onProgress(reply);
        break;
      case 'rows':
        this.onRows(reply.first, reply.rows);
        break;
      case 'failed':
        this.events.onError(reply.message);
        break;
      case 'searched':
      case 'revealed': {
        const key = `${reply.type} ${reply.seq}`;
        this.answers.get(key)?.(reply);
        this.answers.delete(key);
        break;
      }
    }
  }

  private onProgress(reply: Extract<TraceWorkerReply, { type: 'progress' }>): void {
    this.rowCount = reply.rowCount;
    this.lines = reply.lineCount;
    this.parsedByteCount = reply.parsedBytes;
    this.workerBusy = reply.busy;
    if (reply.toggles) {
      this.toggles = reply.toggles;
      this.events.onStateChange();
    }
    // Rows from `changedFrom` on are stale: drop them, and draw again if some are on screen.
    for (const row of this.cache.keys()) if (row >= reply.changedFrom) this.cache.delete(row);
    this.spacer.style.height = `${this.rowCount * this.rowHeight}px`;
    for (const id of reply.done) {
      const done = this.feeds.get(id);
      this.feeds.delete(id);
      done?.();
    }
    this.requestFrame(reply.changedFrom < this.drawnLast || this.drawnLast <= this.drawnFirst);
    if (!this.painted) this.paint();
    // Only when text was parsed: a progress after a search or a fold says nothing new here.
    if (reply.done.length > 0 && !this.isBusy) this.events.onIdle();
  }

  private onRows(first: number, rows: TraceRowView[]): void {
    this.asked = this.asked.filter((range) => range.first !== first);
    for (const [offset, row] of rows.entries()) {
      // Taken out and put back: the map's order is the order rows came in, the oldest first.
      this.cache.delete(first + offset);
      this.cache.set(first + offset, row);
    }
    // The rows that came longest ago go first, except those drawn now.
    for (const row of this.cache.keys()) {
      if (this.cache.size <= CACHE_MAX_ROWS) break;
      if (row < this.drawnFirst || row >= this.drawnLast) this.cache.delete(row);
    }
    this.drawnStale = true;
    if (this.painted) this.requestFrame();
    else this.paint();
  }

  /** Whether every row in [first, last) is here. */
  private haveRows(first: number, last: number): boolean {
    for (let row = first; row < last; row++) if (!this.cache.has(row)) return false;
    return true;
  }

  /** Asks the worker for the rows missing in [first, last) and some around them, unless asked already. */
  private fetchRows(first: number, last: number): void {
    if (this.asked.some((range) => range.first <= first && range.last >= last)) return;
    let from = Math.max(0, first - PREFETCH_ROWS);
    let to = Math.min(this.rowCount, last + PREFETCH_ROWS);
    // Only the ones missing: rows kept at either end are not asked for again.
    while (from < to && this.cache.has(from)) from++;
    while (to > from && this.cache.has(to - 1)) to--;
    if (from >= to) return;
    this.asked.push({ first: from, last: to });
    this.send({ type: 'rows', first: from, last: to });
  }

  private toggleSection(startLine: number): void {
    this.send({ type: 'toggle', line: startLine });
  }

  /** Notes the reader's own scrolling: the wheel, touch, keys, a pointer on the scroll bar. */
  private watchReader(viewport: HTMLElement): void {
    const scrolled = (): void => {
      this.readerScrolledAt = performance.now();
    };
    viewport.addEventListener('wheel', scrolled, { passive: true });
    viewport.addEventListener('touchmove', scrolled, { passive: true });
    document.addEventListener('keydown', (event) => {
      if (SCROLL_KEYS.has(event.key)) scrolled();
    });
    viewport.addEventListener('pointerdown', () => {
      this.pointerDown = true;
      scrolled();
    });
    window.addEventListener('pointerup', () => (this.pointerDown = false));
    window.addEventListener('pointercancel', () => (this.pointerDown = false));
  }

  /** A wheel or key moves the view over a few frames (smooth scrolling): that long after, it is theirs. */
  private readerIsScrolling(): boolean {
    return this.pointerDown || performance.now() - this.readerScrolledAt < READER_SCROLL_MS;
  }

  private isAtBottom(): boolean {
    const { scrollTop, clientHeight, scrollHeight } = this.viewport;
    return scrollTop + clientHeight >= scrollHeight - this.rowHeight;
  }

  /** Draws in the next frame; `redraw` false when only the scroll position changed. */
  private requestFrame(redraw = true): void {
    if (redraw) this.drawnStale = true;
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.paint();
    });
  }

  private paint(): void {
    if (this.pendingScrollTop !== undefined && this.rowCount * this.rowHeight >= this.pendingScrollTop) {
      this.viewport.scrollTop = this.pendingScrollTop;
      this.pendingScrollTop = undefined;
    } else if (this.stickToBottom && this.pendingScrollTop === undefined && !this.isAtBottom()) {
      this.viewport.scrollTop = this.viewport.scrollHeight;
      this.autoScrollTop = this.viewport.scrollTop;
    }
    const top = Math.floor(this.viewport.scrollTop / this.rowHeight);
    const bottom = Math.min(this.rowCount, top + Math.ceil(this.viewport.clientHeight / this.rowHeight) + 1);
    const velocity = top - this.lastTop;
    this.lastTop = top;
    // Rows on screen all drawn already (a short scroll): the compositor moves them, nothing to do.
    if (!this.drawnStale && top >= this.drawnFirst && bottom <= this.drawnLast) return;
    const wantFirst = Math.max(0, top - OVERSCAN_ROWS);
    const wantLast = Math.min(this.rowCount, bottom + OVERSCAN_ROWS);
    if (!this.haveRows(wantFirst, wantLast)) {
      this.fetchRows(wantFirst, wantLast);
      // Rows that changed (a line that grew, a fold) stay as drawn until the new ones come, rather
      // than blinking out for a frame.
      if (this.painted && top >= this.drawnFirst && bottom <= this.drawnLast) return;
    }
    // Moving further each frame than the rows kept ahead (a dragged scrollbar): ask now for where
    // the next frame will be, so that its rows are here in time for it; half to one and a half
    // frames' moves ahead (the moves are not all the same length), at most LOOK_AHEAD_ROWS.
    if (Math.abs(velocity) > PREFETCH_ROWS / 2) {
      const spread = Math.min(Math.abs(velocity) / 2, LOOK_AHEAD_ROWS / 2);
      const clamp = (row: number): number => Math.min(Math.max(0, Math.round(row)), this.rowCount);
      this.fetchRows(clamp(top + velocity - spread), clamp(bottom + velocity + spread));
    }
    // Draw what is here (the rows kept on one side); rows still on their way are drawn when they come.
    let first = wantFirst;
    while (first < wantLast && !this.cache.has(first)) first++;
    let last = first;
    while (last < wantLast && this.cache.has(last)) last++;
    this.drawnFirst = first;
    this.drawnLast = Math.max(first, last);
    this.drawnStale = first > wantFirst || last < wantLast;
    let shown = 0;
    for (let row = first; row < last; row++) {
      const line = this.cache.get(row);
      if (!line) continue;
      const element = this.rowPool[shown] ?? newRow();
      this.rowPool[shown] = element;
      if (fillRow(element, line, this.highlightLine, this.drawOptions) && !this.sawTimestamps) {
        this.sawTimestamps = true;
        this.events.onTimestamps?.();
      }
      shown++;
    }
    this.rowsElement.style.transform = `translateY(${first * this.rowHeight}px)`;
    this.showRows(shown);
    if (!this.painted && shown > 0) {
      this.painted = true;
      this.events.onFirstPaint();
    }
  }

  /** Keeps the first `count` pooled rows in the DOM, in order, and takes the others out. */
  private showRows(count: number): void {
    const children = this.rowsElement.children;
    for (let index = 0; index < count; index++) {
      const element = this.rowPool[index]?.element;
      if (element && children[index] !== element) this.rowsElement.append(element);
    }
    while (children.length > count) children[children.length - 1]?.remove();
  }

  private measureRowHeight(): void {
    const probe = document.createElement('div');
    probe.className = 'row';
    probe.textContent = 'M';
    this.rowsElement.append(probe);
    const height = probe.getBoundingClientRect().height;
    probe.remove();
    if (height > 0) this.rowHeight = Math.round(height);
  }
}
