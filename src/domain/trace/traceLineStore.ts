/**
 * Every line of a long trace kept off the JavaScript heap, for a view that draws any of them. The
 * lines' text is UTF-8 in byte blocks, their style runs and section depths in typed arrays: a 20 MB
 * trace is a few hundred buffers instead of hundreds of thousands of strings and span objects. The
 * page shares its heap with the workbench, so every megabyte kept there lengthens the pauses of the
 * garbage collector while the user scrolls. `line(index)` rebuilds the parser's shape for the few
 * lines on screen; search decodes a block at a time. Pure: no DOM.
 */
import { TraceParser, type TraceLine, type TraceSection, type TraceSpan } from './traceParser';
import type { TraceStyle } from './traceStyle';
import { errorRank, isRed, positionOrEnd } from './traceText';

/**
 * Bytes per text block. A block decoded whole (search) is at most this many characters, two bytes
 * each at worst: small enough to stay an ordinary young object rather than a large one.
 */
const BLOCK_BYTES = 60 * 1024;
const NEWLINE = 0x0a;

function grown<T extends Int32Array | Uint16Array | Float64Array>(
  array: T,
  needed: number,
  make: (length: number) => T,
): T {
  if (needed <= array.length) return array;
  const next = make(Math.max(needed, array.length * 2));
  next.set(array);
  return next;
}

export class TraceLineStore {
  private readonly parser = new TraceParser({ retainLines: false });
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  /** For `pushBytes`: keeps a character cut between two pieces until its end arrives. */
  private readonly streamDecoder = new TextDecoder();
  /** Line texts, each followed by `\n` so that a match in a decoded block never spans two lines. */
  private blocks: Uint8Array[] = [];
  /** Bytes used in the last block. */
  private blockUsed = 0;
  /** Per line: its block, and where its text starts there, in bytes and in characters. */
  private lineBlock = new Int32Array(1024);
  private lineByteStart = new Int32Array(1024);
  private lineByteLength = new Int32Array(1024);
  private lineCharStart = new Int32Array(1024);
  /** Per line, where its runs start in `runs`; `runStarts[count]` is where the next line's start. */
  private runStarts = new Int32Array(1024);
  /** Pairs of (style id, length in characters), line after line. */
  private runs = new Int32Array(4096);
  private depths = new Uint16Array(1024);
  /** Per line, the runner's timestamp in epoch milliseconds; NaN for a line without one. */
  private times = new Float64Array(1024);
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

  /** Feeds the next piece of the trace as UTF-8; a character may be cut between two pieces. */
  pushBytes(bytes: Uint8Array): number {
    return this.push(this.streamDecoder.decode(bytes, { stream: true }));
  }

  /**
   * Feeds the next piece of the trace; returns the index of the first line that is new or changed,
   * the header line of a section that changed included (it shows how long the section took).
   */
  push(chunk: string): number {
    const delta = this.parser.push(chunk);
    this.truncate(delta.firstChangedLine);
    let index = this.parser.firstLineIndex;
    for (const line of delta.lines) this.store(index++, line);
    let firstChanged = delta.firstChangedLine;
    for (const section of delta.changedSections) {
      firstChanged = Math.min(firstChanged, section.startLine);
      if (this.sectionSet.has(section)) continue;
      this.sectionSet.add(section);
      this.sectionList.push(section);
    }
    return firstChanged;
  }

  /** The text of line `index` without styles. */
  text(index: number): string {
    if (index < 0 || index >= this.count) return '';
    const block = this.blocks[this.lineBlock[index] ?? 0];
    if (!block) return '';
    const start = this.lineByteStart[index] ?? 0;
    return this.decoder.decode(block.subarray(start, start + (this.lineByteLength[index] ?? 0)));
  }

  /** The runner's timestamp of line `index` in epoch milliseconds, if the trace has them. */
  timeAt(index: number): number | undefined {
    const time = index >= 0 && index < this.count ? this.times[index] : undefined;
    return time === undefined || Number.isNaN(time) ? undefined : time;
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
    const text = this.text(index);
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
    let best: number | undefined;
    let found = -1;
    this.scanBlocks(Math.max(0, fromLine), (text, _lineAt, firstLine) => {
      let start = 0;
      for (let index = firstLine; start <= text.length; index++) {
        const end = positionOrEnd(text.indexOf('\n', start), text.length);
        const rank = errorRank(text.slice(start, end), this.hasRed(index));
        if (rank !== undefined && (best === undefined || rank < best)) {
          best = rank;
          found = index;
          if (rank === 0) return false;
        }
        start = end + 1;
      }
      return true;
    });
    return found;
  }

  /** Whether line `index` has a run in the job's red. */
  private hasRed(index: number): boolean {
    const end = this.runStarts[index + 1] ?? 0;
    for (let run = this.runStarts[index] ?? 0; run < end; run += 2) {
      const style = this.styleList[this.runs[run] ?? 0];
      if (style && isRed(style) && (this.runs[run + 1] ?? 0) > 0) return true;
    }
    return false;
  }

  /** Indices of the lines that contain `query`, ignoring case, in order. */
  findAll(query: string): number[] {
    const needle = query.toLowerCase();
    const lines: number[] = [];
    if (needle.length === 0 || needle.includes('\n')) return lines;
    this.scanBlocks(0, (text, lineAt, firstLine, lastLine) => {
      const lower = text.toLowerCase();
      if (lower.length !== text.length) {
        // Lower case changed some lengths (rare letters): positions no longer map, go line by line.
        for (let index = firstLine; index <= lastLine; index++) {
          if (this.text(index).toLowerCase().includes(needle)) lines.push(index);
        }
        return true;
      }
      let at = lower.indexOf(needle);
      while (at >= 0) {
        const line = lineAt(at);
        lines.push(line);
        // The next match worth reporting is on a later line.
        const nextLine = line + 1;
        if (nextLine > lastLine) break;
        at = lower.indexOf(
          needle,
          (this.lineCharStart[nextLine] ?? 0) - (this.lineCharStart[firstLine] ?? 0),
        );
      }
      return true;
    });
    return lines;
  }

  /**
   * Decodes the lines from `fromLine` on, a block at a time, and hands each piece to `visit` with a
   * way from a character position in it to its line; stops when `visit` returns false.
   */
  private scanBlocks(
    fromLine: number,
    visit: (
      text: string,
      lineAt: (charIndex: number) => number,
      firstLine: number,
      lastLine: number,
    ) => boolean,
  ): void {
    let first = fromLine;
    while (first < this.count) {
      const blockIndex = this.lineBlock[first] ?? 0;
      const block = this.blocks[blockIndex];
      let last = first;
      while (last + 1 < this.count && this.lineBlock[last + 1] === blockIndex) last++;
      if (block) {
        const byteStart = this.lineByteStart[first] ?? 0;
        const byteEnd = (this.lineByteStart[last] ?? 0) + (this.lineByteLength[last] ?? 0);
        const text = this.decoder.decode(block.subarray(byteStart, byteEnd));
        const charBase = this.lineCharStart[first] ?? 0;
        const from = first;
        const lineAt = (charIndex: number): number => {
          let low = from;
          let high = last;
          while (low < high) {
            const middle = (low + high + 1) >> 1;
            if ((this.lineCharStart[middle] ?? 0) - charBase <= charIndex) low = middle;
            else high = middle - 1;
          }
          return low;
        };
        if (!visit(text, lineAt, first, last)) return;
      }
      first = last + 1;
    }
  }

  private truncate(count: number): void {
    if (count >= this.count) return;
    for (let index = count; index < this.count; index++) this.headers.delete(index);
    // Lines go in order, so the text of line `count` and after is the end of the blocks.
    const blockIndex = this.lineBlock[count] ?? 0;
    this.blocks.length = Math.min(this.blocks.length, blockIndex + 1);
    this.blockUsed = this.lineByteStart[count] ?? 0;
    this.count = count;
  }

  private store(index: number, line: TraceLine): void {
    // Lines arrive in order; only the open last line is ever sent again (after `truncate`).
    const start = this.runStarts[index] ?? 0;
    const spans = line.spans;
    this.runs = grown(this.runs, start + spans.length * 2, (length) => new Int32Array(length));
    let run = start;
    let text = '';
    for (const span of spans) {
      this.runs[run++] = this.styleId(span.style);
      this.runs[run++] = span.text.length;
      text = spans.length === 1 ? span.text : text + span.text;
    }
    this.runStarts = grown(this.runStarts, index + 2, (length) => new Int32Array(length));
    this.runStarts[index + 1] = run;
    this.depths = grown(this.depths, index + 1, (length) => new Uint16Array(length));
    this.depths[index] = Math.min(line.sectionDepth, 0xffff);
    this.times = grown(this.times, index + 1, (length) => new Float64Array(length));
    this.times[index] = line.time === undefined ? Number.NaN : Date.parse(line.time);
    this.storeText(index, text);
    if (line.section && line.section.startLine === index) this.headers.set(index, line.section);
    else this.headers.delete(index);
    this.count = index + 1;
  }

  private storeText(index: number, text: string): void {
    this.lineBlock = grown(this.lineBlock, index + 1, (length) => new Int32Array(length));
    this.lineByteStart = grown(this.lineByteStart, index + 1, (length) => new Int32Array(length));
    this.lineByteLength = grown(this.lineByteLength, index + 1, (length) => new Int32Array(length));
    this.lineCharStart = grown(this.lineCharStart, index + 1, (length) => new Int32Array(length));
    let blockIndex = this.blocks.length - 1;
    let block = this.blocks[blockIndex];
    let written = -1;
    if (block) {
      const result = this.encoder.encodeInto(text, block.subarray(this.blockUsed, block.length - 1));
      if (result.read === text.length) written = result.written;
    }
    if (!block || written < 0) {
      // UTF-8 takes at most three bytes per UTF-16 unit; a very long line gets a block of its own.
      block = new Uint8Array(Math.max(BLOCK_BYTES, text.length * 3 + 1));
      this.blocks.push(block);
      blockIndex = this.blocks.length - 1;
      this.blockUsed = 0;
      written = this.encoder.encodeInto(text, block).written;
    }
    const previous = index - 1;
    this.lineCharStart[index] =
      index > 0 && this.lineBlock[previous] === blockIndex
        ? (this.lineCharStart[previous] ?? 0) + this.textLength(previous) + 1
        : 0;
    this.lineBlock[index] = blockIndex;
    this.lineByteStart[index] = this.blockUsed;
    this.lineByteLength[index] = written;
    block[this.blockUsed + written] = NEWLINE;
    this.blockUsed += written + 1;
  }

  /** Characters in line `index`: the sum of its runs. */
  private textLength(index: number): number {
    let length = 0;
    const end = this.runStarts[index + 1] ?? 0;
    for (let run = (this.runStarts[index] ?? 0) + 1; run < end; run += 2) length += this.runs[run] ?? 0;
    return length;
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
