/*
 * The trace itself: an incremental parser fed with whatever the host sends, and a virtual list that
 * draws only the rows on screen (plus a margin), so a 20 MB trace scrolls like a short one. Sections
 * fold; folded lines are left out of the row index. Server text reaches the DOM only as textContent.
 */
import { TraceLineStore, type TraceLine, type TraceSection, type TraceStyle } from '../../../domain/trace';
import { colorClass, colorValue } from './ansiColors';

/** Bytes parsed at a time (a millisecond or two), so a frame never waits long for the parser. */
const PARSE_SLICE_BYTES = 32 * 1024;
/** Parsing time for the first piece, before the page draws its first rows. */
const PARSE_BUDGET_MS = 8;
/**
 * Idle time left to the renderer's own idle work: V8 finishes a garbage collection there, which
 * otherwise lands in a frame. Each idle period still parses at least one slice, so a page whose idle
 * periods are all short (drawing all the time, or in the background) is never starved.
 */
const IDLE_RESERVE_MS = 4;
/**
 * Longest the parser waits for idle time, at first and after the page was idle. Each wait that ends
 * without idle time halves the next, down to `PARSE_WAIT_MIN_MS`: a renderer that is never idle (an
 * animation elsewhere in the window) still gets its trace parsed within seconds, a third of the time.
 */
const PARSE_WAIT_MS = 250;
const PARSE_WAIT_MIN_MS = 16;
/**
 * Rows drawn above and below the visible ones: a short scroll moves rows already drawn, while every
 * extra row is painted again whenever the window moves (in software raster, the bulk of a frame).
 */
const OVERSCAN_ROWS = 8;

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
}

export class TraceView {
  /** Every line, compactly (one string each): the page keeps hundreds of thousands of them. */
  private store = new TraceLineStore();
  /** Views into the buffers the host sent, not parsed yet; `done` with the last view of a buffer. */
  private readonly queue: { bytes: Uint8Array; done?: () => void }[] = [];
  /** Bytes parsed since the text last started over. */
  private parsedByteCount = 0;
  private pumping = false;
  /** Visible line indices, in order. */
  private rows = new Int32Array(0);
  private rowCount = 0;
  /** Where `rows` stands for the lines before `rowsUpTo`, so new lines extend it without a rescan. */
  private rowsUpTo = 0;
  private rowsOpenSections: TraceSection[] = [];
  private rowsFoldedDepth = 0;
  private rowsCommitted = 0;
  private readonly toggles = new Map<number, boolean>();
  private rowHeight = 18;
  private painted = false;
  private frameRequested = false;
  /** Rows in the DOM, [first, last), and whether they need drawing again even so. */
  private drawnFirst = 0;
  private drawnLast = 0;
  private drawnStale = true;
  private stickToBottom = true;
  private matches: number[] = [];
  private matchSet = new Set<number>();
  private currentMatch = -1;
  private highlightLine = -1;

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
    for (const [line, collapsed] of saved?.toggles ?? []) this.toggles.set(line, collapsed);
    if (saved?.atBottom === false) this.stickToBottom = false;
    this.pendingScrollTop = saved?.scrollTop;
    viewport.addEventListener('scroll', () => {
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

  private pendingScrollTop: number | undefined;

  get lineCount(): number {
    return this.store.length;
  }

  get parsedBytes(): number {
    return this.parsedByteCount;
  }

  get visibleRowCount(): number {
    return this.rowCount;
  }

  get state(): TraceViewState {
    return {
      scrollTop: this.viewport.scrollTop,
      toggles: [...this.toggles.entries()],
      atBottom: this.stickToBottom,
    };
  }

  get isBusy(): boolean {
    return this.pumping || this.queue.length > 0;
  }

  /**
   * Appends trace text as UTF-8 (only what is new); with `replace`, starts over with this text.
   * `done` is called once these bytes are parsed, or dropped because newer text replaced them.
   */
  feed(bytes: Uint8Array, replace = false, done?: () => void): void {
    if (replace) {
      for (const dropped of this.queue.splice(0)) dropped.done?.();
      this.store = new TraceLineStore();
      this.parsedByteCount = 0;
      this.toggles.clear();
      this.rows = new Int32Array(0);
      this.rowCount = 0;
      this.resetRows();
      this.clearSearch();
      this.stickToBottom = true;
    }
    for (let start = 0; start < bytes.length; start += PARSE_SLICE_BYTES) {
      const end = start + PARSE_SLICE_BYTES;
      this.queue.push({ bytes: bytes.subarray(start, end), done: end >= bytes.length ? done : undefined });
    }
    if (bytes.length === 0) done?.();
    if (replace) this.requestFrame();
    this.pump();
  }

  scrollToTop(): void {
    this.stickToBottom = false;
    this.viewport.scrollTop = 0;
  }

  scrollToBottom(): void {
    this.stickToBottom = true;
    this.viewport.scrollTop = this.viewport.scrollHeight;
  }

  /** Shows the first line that looks like an error; false when there is none. */
  revealFirstError(): boolean {
    const line = this.store.findFirstError();
    if (line < 0) return false;
    this.revealLine(line);
    return true;
  }

  /** Finds `query` (case-insensitive) and shows the first match; returns how many lines match. */
  search(query: string): number {
    this.clearSearch();
    const needle = query.toLowerCase();
    if (needle.length === 0) {
      this.requestFrame();
      return 0;
    }
    this.matches = this.store.findAll(needle);
    this.matchSet = new Set(this.matches);
    if (this.matches.length > 0) this.goToMatch(0);
    else this.requestFrame();
    return this.matches.length;
  }

  /** Moves to the next (or previous) match; returns its 1-based position. */
  nextMatch(step: 1 | -1): number {
    if (this.matches.length === 0) return 0;
    const next = (this.currentMatch + step + this.matches.length) % this.matches.length;
    this.goToMatch(next);
    return next + 1;
  }

  get matchCount(): number {
    return this.matches.length;
  }

  private clearSearch(): void {
    this.matches = [];
    this.matchSet = new Set();
    this.currentMatch = -1;
    this.highlightLine = -1;
  }

  private goToMatch(index: number): void {
    this.currentMatch = index;
    const line = this.matches[index];
    if (line !== undefined) this.revealLine(line);
  }

  /** Unfolds the sections around `line` and scrolls it into the middle of the view. */
  revealLine(line: number): void {
    let unfolded = false;
    for (const section of this.store.sections) {
      const inside = line > section.startLine && (section.endLine === undefined || line <= section.endLine);
      if (inside && this.isCollapsed(section)) {
        this.toggles.set(section.startLine, false);
        unfolded = true;
      }
    }
    if (unfolded) this.rebuildRows();
    this.highlightLine = line;
    const row = this.rowOfLine(line);
    this.stickToBottom = false;
    this.viewport.scrollTop = Math.max(0, row * this.rowHeight - this.viewport.clientHeight / 3);
    this.requestFrame();
    this.events.onStateChange();
  }

  private toggleSection(startLine: number): void {
    const section = this.store.sectionAt(startLine);
    if (!section) return;
    this.toggles.set(startLine, !this.isCollapsed(section));
    this.rebuildRows();
    this.requestFrame();
    this.events.onStateChange();
  }

  private isCollapsed(section: TraceSection): boolean {
    return this.toggles.get(section.startLine) ?? section.collapsed;
  }

  private isAtBottom(): boolean {
    const { scrollTop, clientHeight, scrollHeight } = this.viewport;
    return scrollTop + clientHeight >= scrollHeight - this.rowHeight;
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    // Until the first rows are drawn, text is parsed at once (they wait for it); after that in the
    // page's idle time, so parsing never delays a frame while the person scrolls.
    let wait = PARSE_WAIT_MS;
    const step = (idle?: IdleDeadline): void => {
      // Waited the longest for idle time: parse for a frame's share anyway.
      const budget = !idle || idle.didTimeout ? PARSE_BUDGET_MS : idle.timeRemaining() - IDLE_RESERVE_MS;
      if (idle) wait = idle.didTimeout ? Math.max(PARSE_WAIT_MIN_MS, wait / 2) : PARSE_WAIT_MS;
      const deadline = performance.now() + budget;
      let parsed = false;
      let firstChangedLine = Number.MAX_SAFE_INTEGER;
      do {
        const chunk = this.queue.shift();
        if (chunk !== undefined) {
          firstChangedLine = Math.min(firstChangedLine, this.store.pushBytes(chunk.bytes));
          this.parsedByteCount += chunk.bytes.length;
          chunk.done?.();
          parsed = true;
        }
      } while (this.queue.length > 0 && performance.now() < deadline);
      if (parsed) {
        this.extendRows();
        // Lines added below the rows in the DOM (the user reads further up) only make the list longer.
        this.requestFrame(this.isDrawn(firstChangedLine));
        if (!this.painted) this.paint();
      }
      if (this.queue.length === 0) {
        this.pumping = false;
        this.events.onIdle();
        return;
      }
      requestIdleCallback(step, { timeout: wait });
    };
    if (this.painted) requestIdleCallback(step, { timeout: PARSE_WAIT_MS });
    else step();
  }

  /** Folds changed or the text started over: the row index is built again from the first line. */
  private rebuildRows(): void {
    this.resetRows();
    this.extendRows();
  }

  private resetRows(): void {
    this.rowsUpTo = 0;
    this.rowsOpenSections = [];
    this.rowsFoldedDepth = 0;
    this.rowsCommitted = 0;
  }

  /**
   * Row index of every line that is not inside a folded section, extended over the lines parsed
   * since the last call. The last line may still grow (a section marker may complete on it), so
   * it is indexed again next time.
   */
  private extendRows(): void {
    const lineCount = this.store.length;
    if (this.rows.length < lineCount) {
      const grown = new Int32Array(Math.max(lineCount, this.rows.length * 2));
      grown.set(this.rows);
      this.rows = grown;
    }
    const open = this.rowsOpenSections;
    let foldedDepth = this.rowsFoldedDepth;
    let count = this.rowsCommitted;
    const settled = Math.max(this.rowsUpTo, lineCount - 1);
    for (let index = this.rowsUpTo; index < lineCount; index++) {
      if (index === settled) {
        // Everything before the last line is final: remember where the index stands.
        this.rowsUpTo = index;
        this.rowsFoldedDepth = foldedDepth;
        this.rowsCommitted = count;
        this.rowsOpenSections = [...open];
      }
      let top = open[open.length - 1];
      while (top && top.endLine !== undefined && top.endLine < index) {
        open.pop();
        if (this.isCollapsed(top)) foldedDepth--;
        top = open[open.length - 1];
      }
      if (foldedDepth === 0) this.rows[count++] = index;
      const section = this.store.sectionAt(index);
      if (section) {
        open.push(section);
        if (this.isCollapsed(section)) foldedDepth++;
      }
    }
    this.rowCount = count;
    this.spacer.style.height = `${count * this.rowHeight}px`;
  }

  private rowOfLine(line: number): number {
    let low = 0;
    let high = this.rowCount - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const value = this.rows[middle] ?? 0;
      if (value === line) return middle;
      if (value < line) low = middle + 1;
      else high = middle - 1;
    }
    return Math.max(0, low - 1);
  }

  /** Whether a change from `line` on reaches the rows in the DOM (rows are in line order). */
  private isDrawn(line: number): boolean {
    if (this.drawnLast <= this.drawnFirst) return true;
    return line <= (this.rows[this.drawnLast - 1] ?? -1);
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
    }
    const top = Math.floor(this.viewport.scrollTop / this.rowHeight);
    const bottom = Math.min(this.rowCount, top + Math.ceil(this.viewport.clientHeight / this.rowHeight) + 1);
    // Rows on screen all drawn already (a short scroll): the compositor moves them, nothing to do.
    if (!this.drawnStale && top >= this.drawnFirst && bottom <= this.drawnLast) return;
    const first = Math.max(0, top - OVERSCAN_ROWS);
    const last = Math.min(this.rowCount, bottom + OVERSCAN_ROWS);
    this.drawnFirst = first;
    this.drawnLast = last;
    this.drawnStale = false;
    let shown = 0;
    for (let row = first; row < last; row++) {
      const lineIndex = this.rows[row] ?? 0;
      const line = this.store.line(lineIndex);
      if (!line) continue;
      const element = this.rowPool[shown] ?? this.newRow();
      this.rowPool[shown] = element;
      this.fillRow(element, line, lineIndex);
      shown++;
    }
    this.rowsElement.style.transform = `translateY(${first * this.rowHeight}px)`;
    this.showRows(shown);
    if (!this.painted && this.rowCount > 0) {
      this.painted = true;
      this.events.onFirstPaint();
    }
  }

  private newRow(): RowElements {
    const element = document.createElement('div');
    const numberElement = document.createElement('span');
    numberElement.className = 'line-number';
    const number = document.createTextNode('');
    numberElement.append(number);
    const content = document.createElement('span');
    element.append(numberElement, content);
    return {
      element,
      number,
      content,
      chevron: undefined,
      spans: [],
      spansShown: 0,
      duration: undefined,
      line: -1,
    };
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

  /**
   * Draws a line into a row drawn before, reusing its elements and text nodes: scrolling fast would
   * otherwise leave thousands of elements a second to the garbage collector, whose pauses the page
   * shares with the whole workbench. Server text reaches the DOM only as text nodes.
   */
  private fillRow(row: RowElements, line: TraceLine, index: number): void {
    const { element, content } = row;
    if (row.line !== index && element === document.activeElement) element.blur();
    row.line = index;
    let className = 'row';
    if (this.matchSet.has(index)) className += index === this.highlightLine ? ' match-current' : ' match';
    else if (index === this.highlightLine) className += ' highlight';
    const section = line.section?.startLine === index ? line.section : undefined;
    if (section) className += ' section-header';
    element.className = className;
    row.number.data = String(index + 1);
    const depth = section ? line.sectionDepth - 1 : line.sectionDepth;
    content.className = depth > 0 ? `content depth-${Math.min(depth, 6)}` : 'content';
    if (section) {
      element.dataset['section'] = String(index);
      element.tabIndex = 0;
      const collapsed = this.isCollapsed(section);
      element.setAttribute('aria-expanded', String(!collapsed));
      row.chevron ??= document.createElement('span');
      row.chevron.className = `codicon codicon-chevron-${collapsed ? 'right' : 'down'} chevron`;
      if (content.firstChild !== row.chevron) content.prepend(row.chevron);
    } else if (element.dataset['section'] !== undefined) {
      delete element.dataset['section'];
      element.removeAttribute('tabindex');
      element.removeAttribute('aria-expanded');
      row.chevron?.remove();
    }
    const { spans } = line;
    for (let position = 0; position < spans.length; position++) {
      const span = spans[position];
      if (!span) continue;
      let pooled = row.spans[position];
      if (!pooled) {
        const spanElement = document.createElement('span');
        const text = document.createTextNode('');
        spanElement.append(text);
        pooled = { element: spanElement, text };
        row.spans[position] = pooled;
      }
      pooled.text.data = span.text;
      styleSpan(pooled.element, span.style);
      if (position >= row.spansShown) content.append(pooled.element);
    }
    for (let position = spans.length; position < row.spansShown; position++)
      row.spans[position]?.element.remove();
    row.spansShown = spans.length;
    if (section?.durationSeconds !== undefined) {
      row.duration ??= document.createElement('span');
      row.duration.className = 'section-duration';
      row.duration.textContent = formatSeconds(section.durationSeconds);
      if (element.lastChild !== row.duration) element.append(row.duration);
    } else {
      row.duration?.remove();
    }
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

/** A row's elements, kept to draw other lines into. */
interface RowElements {
  element: HTMLDivElement;
  number: Text;
  content: HTMLSpanElement;
  chevron: HTMLSpanElement | undefined;
  /** One element and text node per span of the longest line drawn in this row; `spansShown` in the DOM. */
  spans: { element: HTMLSpanElement; text: Text }[];
  spansShown: number;
  duration: HTMLSpanElement | undefined;
  /** The line drawn in it. */
  line: number;
}

function styleSpan(element: HTMLSpanElement, style: TraceStyle): void {
  let className = '';
  const fgClass = colorClass('fg', style.fg);
  const bgClass = colorClass('bg', style.bg);
  if (fgClass) className += fgClass;
  if (bgClass) className += ` ${bgClass}`;
  if (style.bold) className += ' bold';
  if (style.italic) className += ' italic';
  if (style.underline) className += ' underline';
  className = className.trim();
  if (element.className !== className) element.className = className;
  const fg = colorValue(style.fg) ?? '';
  const bg = colorValue(style.bg) ?? '';
  if (fg || element.style.color) element.style.color = fg;
  if (bg || element.style.backgroundColor) element.style.backgroundColor = bg;
}

export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))}s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  if (minutes < 60) return `${minutes}m ${rest}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}
