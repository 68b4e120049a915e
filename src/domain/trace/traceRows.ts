/**
 * A long trace as the rows a view shows: every line (kept compactly in a `TraceLineStore`) except
 * those inside folded sections, with search and the way to a line. Pure, no DOM: the trace page runs
 * it in a worker, so that parsing 20 MB and its garbage stay off the thread (and the heap) that draws
 * the page and the whole workbench; the page asks it for the few rows on screen.
 */
import { TraceLineStore } from './traceLineStore';
import type { TraceSection, TraceSpan } from './traceParser';

/** One row, as the view draws it. */
export interface TraceRowView {
  /** The line's index in the trace (its number on screen is one more). */
  readonly line: number;
  readonly spans: readonly TraceSpan[];
  /** How many sections contain the line (a header counts as inside its own section). */
  readonly sectionDepth: number;
  /** On a section's header line. */
  readonly section: { readonly collapsed: boolean; readonly durationSeconds: number | undefined } | undefined;
  /** Whether the line matches the current search. */
  readonly match: boolean;
  /** The runner's timestamp of the line (epoch ms), when the trace has them. */
  readonly time?: number;
  /** Milliseconds since the closest line before it that has a timestamp. */
  readonly sincePrevious?: number;
}

export class TraceRows {
  private store = new TraceLineStore();
  /** Visible line indices, in order. */
  private rows = new Int32Array(0);
  private count = 0;
  /** Where `rows` stands for the lines before `rowsUpTo`, so new lines extend it without a rescan. */
  private rowsUpTo = 0;
  private rowsOpenSections: TraceSection[] = [];
  private rowsFoldedDepth = 0;
  private rowsCommitted = 0;
  private readonly toggles = new Map<number, boolean>();
  private matches: number[] = [];
  private matchSet = new Set<number>();
  private byteCount = 0;

  /** `toggles`: sections folded or unfolded by the user before, by header line. */
  constructor(toggles: readonly (readonly [number, boolean])[] = []) {
    for (const [line, collapsed] of toggles) this.toggles.set(line, collapsed);
  }

  get rowCount(): number {
    return this.count;
  }

  get lineCount(): number {
    return this.store.length;
  }

  /** Bytes fed since the text last started over. */
  get parsedBytes(): number {
    return this.byteCount;
  }

  get matchCount(): number {
    return this.matches.length;
  }

  /** Sections the user folded or unfolded, by header line. */
  get toggleList(): [number, boolean][] {
    return [...this.toggles.entries()];
  }

  /**
   * The text starts over: drops it and the search, and the folds unless there was no text yet (the
   * first text after a reload, when the folds are the user's from before).
   */
  clear(): void {
    if (this.store.length > 0) this.toggles.clear();
    this.store = new TraceLineStore();
    this.byteCount = 0;
    this.rows = new Int32Array(0);
    this.count = 0;
    this.resetRows();
    this.matches = [];
    this.matchSet = new Set();
  }

  /**
   * Feeds the next piece of the trace as UTF-8 (a character may be cut between two pieces); returns
   * the first row that is new or drawn differently now.
   */
  pushBytes(bytes: Uint8Array): number {
    const firstChangedLine = this.store.pushBytes(bytes);
    this.byteCount += bytes.length;
    this.extendRows();
    return this.firstRowFrom(firstChangedLine);
  }

  /** Rows [first, last), as drawn. */
  view(first: number, last: number): TraceRowView[] {
    const views: TraceRowView[] = [];
    for (let row = Math.max(0, first); row < Math.min(last, this.count); row++) {
      const index = this.rows[row] ?? 0;
      const line = this.store.line(index);
      if (!line) continue;
      const section = line.section?.startLine === index ? line.section : undefined;
      views.push({
        line: index,
        spans: line.spans,
        sectionDepth: line.sectionDepth,
        section: section && {
          collapsed: this.isCollapsed(section),
          durationSeconds: section.durationSeconds,
        },
        match: this.matchSet.has(index),
        ...this.timing(index),
      });
    }
    return views;
  }

  /** A line's timestamp and the time since the line before it that has one (a few lines back at most). */
  private timing(index: number): { time?: number; sincePrevious?: number } {
    const time = this.store.timeAt(index);
    if (time === undefined) return {};
    for (let before = index - 1; before >= Math.max(0, index - 64); before--) {
      const previous = this.store.timeAt(before);
      if (previous !== undefined) return { time, sincePrevious: time - previous };
    }
    return { time };
  }

  /** Folds or unfolds the section whose header is `line`; returns the first row that changed, or -1. */
  toggle(line: number): number {
    const section = this.store.sectionAt(line);
    if (!section) return -1;
    this.toggles.set(line, !this.isCollapsed(section));
    this.rebuildRows();
    return this.firstRowFrom(line);
  }

  /** Whether the section whose header is `line` is folded now. */
  isFolded(line: number): boolean {
    const section = this.store.sectionAt(line);
    return section !== undefined && this.isCollapsed(section);
  }

  /**
   * Unfolds the sections around `line` so that it is a row; returns that row and the first row that
   * changed (the row count when none did).
   */
  reveal(line: number): { row: number; changedFrom: number } {
    let changedFrom = this.count;
    for (const section of this.store.sections) {
      const inside = line > section.startLine && (section.endLine === undefined || line <= section.endLine);
      if (inside && this.isCollapsed(section)) {
        this.toggles.set(section.startLine, false);
        changedFrom = Math.min(changedFrom, this.firstRowFrom(section.startLine));
      }
    }
    if (changedFrom < this.count) this.rebuildRows();
    return { row: this.rowOfLine(line), changedFrom };
  }

  /** Finds `query` (ignoring case); returns how many lines match. */
  search(query: string): number {
    this.matches = query.length === 0 ? [] : this.store.findAll(query.toLowerCase());
    this.matchSet = new Set(this.matches);
    return this.matches.length;
  }

  /** The line of the `index`-th match, or -1. */
  matchLine(index: number): number {
    return this.matches[index] ?? -1;
  }

  /** The first line that reads as an error, or -1. */
  firstErrorLine(): number {
    return this.store.findFirstError();
  }

  /** The row showing `line`, or the row before where it would be. */
  rowOfLine(line: number): number {
    return Math.max(0, this.firstRowFrom(line + 1) - 1);
  }

  /** The first row whose line is `line` or later (the row count when there is none). */
  private firstRowFrom(line: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.rows[middle] ?? 0) < line) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private isCollapsed(section: TraceSection): boolean {
    return this.toggles.get(section.startLine) ?? section.collapsed;
  }

  /** Folds changed: the row index is built again from the first line. */
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
    this.count = count;
  }
}
