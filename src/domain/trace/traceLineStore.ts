/**
 * Every line of a long trace kept compactly, for a view that draws any of them: one flat string per
 * line, its style runs in a shared typed array, its section depth in another. A parser that retains
 * its lines keeps a dozen objects per line (line, span array, spans, their texts), and a 20 MB trace
 * has hundreds of thousands of lines: the garbage collector then stops the page for tens of
 * milliseconds at a time. Here a line is one string, and `line(index)` rebuilds the parser's shape
 * for the few lines on screen. Pure: no DOM.
 */
import { TraceParser, type TraceLine, type TraceSection, type TraceSpan } from './traceParser';
import type { TraceStyle } from './traceStyle';
import { findFirstErrorText, flatCopy } from './traceText';

function grown<T extends Int32Array | Uint16Array>(array: T, needed: number, make: (length: number) => T): T {
  if (needed <= array.length) return array;
  const next = make(Math.max(needed, array.length * 2));
  next.set(array);
  return next;
}

export class TraceLineStore {
  private readonly parser = new TraceParser({ retainLines: false });
  private texts: string[] = [];
  /** Per line, where its runs start in `runs`; `runStarts[count]` is where the next line's start. */
  private runStarts = new Int32Array(1024);
  /** Pairs of (style id, length in characters), line after line. */
  private runs = new Int32Array(4096);
  private depths = new Uint16Array(1024);
  private readonly headers = new Map<number, TraceSection>();
  private readonly styleIds = new Map<TraceStyle, number>();
  private readonly styleList: TraceStyle[] = [];
  private readonly sectionSet = new Set<TraceSection>();
  private readonly sectionList: TraceSection[] = [];
  private count = 0;

  /** Lines so far, the open last line included when it has text. */
  get length(): number {
    return this.count;
  }

  /** Every section so far, in the order they started. */
  get sections(): readonly TraceSection[] {
    return this.sectionList;
  }

  /** Feeds the next piece of the trace; returns the index of the first line that is new or changed. */
  push(chunk: string): number {
    const delta = this.parser.push(chunk);
    this.truncate(delta.firstChangedLine);
    let index = this.parser.firstLineIndex;
    for (const line of delta.lines) this.store(index++, line);
    for (const section of delta.changedSections) {
      if (this.sectionSet.has(section)) continue;
      this.sectionSet.add(section);
      this.sectionList.push(section);
    }
    return delta.firstChangedLine;
  }

  /** The text of line `index` without styles. */
  text(index: number): string {
    return this.texts[index] ?? '';
  }

  sectionDepth(index: number): number {
    return index < this.count ? (this.depths[index] ?? 0) : 0;
  }

  /** The section whose header is line `index`, if any. */
  sectionAt(index: number): TraceSection | undefined {
    return this.headers.get(index);
  }

  /** Line `index` in the parser's shape, rebuilt (for the lines being drawn). */
  line(index: number): TraceLine | undefined {
    if (index < 0 || index >= this.count) return undefined;
    const text = this.texts[index] ?? '';
    const spans: TraceSpan[] = [];
    let offset = 0;
    const end = this.runStarts[index + 1] ?? 0;
    for (let run = this.runStarts[index] ?? 0; run < end; run += 2) {
      const style = this.styleList[this.runs[run] ?? 0];
      const length = this.runs[run + 1] ?? 0;
      if (style) spans.push({ text: text.slice(offset, offset + length), style });
      offset += length;
    }
    return { spans, sectionDepth: this.sectionDepth(index), section: this.headers.get(index) };
  }

  /** Index of the first line (from `fromLine`) that reads as an error, or -1. */
  findFirstError(fromLine = 0): number {
    return findFirstErrorText(this.texts, fromLine);
  }

  private truncate(count: number): void {
    if (count >= this.count) return;
    for (let index = count; index < this.count; index++) this.headers.delete(index);
    this.texts.length = count;
    this.count = count;
  }

  private store(index: number, line: TraceLine): void {
    // Lines arrive in order; only the open last line is ever sent again (after `truncate`).
    const start = this.runStarts[index] ?? 0;
    const spans = line.spans;
    this.runs = grown(this.runs, start + spans.length * 2, (length) => new Int32Array(length));
    let run = start;
    const parts: string[] = [];
    for (const span of spans) {
      this.runs[run++] = this.styleId(span.style);
      this.runs[run++] = span.text.length;
      parts.push(span.text);
    }
    this.runStarts = grown(this.runStarts, index + 2, (length) => new Int32Array(length));
    this.runStarts[index + 1] = run;
    this.depths = grown(this.depths, index + 1, (length) => new Uint16Array(length));
    this.depths[index] = Math.min(line.sectionDepth, 0xffff);
    // join() makes one flat string: no chain of concatenations, no slice keeping a chunk alive.
    this.texts[index] = parts.length === 1 ? flatCopy(parts[0] ?? '') : parts.join('');
    if (line.section && line.section.startLine === index) this.headers.set(index, line.section);
    else this.headers.delete(index);
    this.count = index + 1;
  }

  private styleId(style: TraceStyle): number {
    let id = this.styleIds.get(style);
    if (id === undefined) {
      id = this.styleList.length;
      this.styleList.push(style);
      this.styleIds.set(style, id);
    }
    return id;
  }
}
