/**
 * Incremental parser for GitLab CI job traces: ANSI styles, carriage-return overwrites and
 * collapsible sections. Pure (no vscode) and single-pass: every character of a chunk is looked at
 * a bounded number of times and earlier text is never re-scanned, so `push` costs O(chunk length)
 * however long the trace already is. Runs of plain text are found with native `indexOf` scans, not
 * a loop per character. Chunks may split anywhere (inside an escape sequence, a `\r\n`, a section
 * marker or a surrogate pair); all state is carried to the next push.
 */
import { flatCopy, positionOrEnd } from './traceText';
import { DEFAULT_STYLE, StyleTable, type TraceStyle } from './traceStyle';

import {
  BELL,
  CARRIAGE_RETURN,
  ESCAPE,
  LINE_FEED,
  SECTION_END,
  SECTION_START,
  dropEnd,
  findOtherControl,
  isHighSurrogate,
  isPrintable,
  isSectionMarkerEnd,
  parseSectionMarker,
  readTimestampPrefix,
  spansText,
} from './traceGrammar';
import type { TraceDelta, TraceLine, TraceParserOptions, TraceSection, TraceSpan } from './traceModel';
import { TraceSections } from './traceSections';

export type { TraceDelta, TraceLine, TraceParserOptions, TraceSection, TraceSpan } from './traceModel';
export { parseSectionMarker, readTimestampPrefix } from './traceGrammar';

/** What the previous character left unfinished. */
const Mode = {
  Text: 0,
  /** Saw `\r`: a following `\n` makes it a newline, anything else overwrites the line. */
  CarriageReturn: 1,
  /** Saw ESC. */
  Escape: 2,
  /** Saw `ESC (` and friends (charset designation): one more character to drop. */
  EscapeCharset: 3,
  /** Inside `ESC [ … final`. */
  Csi: 4,
  /** Inside `ESC ] …`, until BEL or `ESC \`. */
  Osc: 5,
  /** Saw ESC inside an OSC: `\` ends it. */
  OscEscape: 6,
} as const;
type Mode = (typeof Mode)[keyof typeof Mode];

/** Longer parameter lists are not SGR anyone writes; cap them so garbage cannot grow a buffer. */
const MAX_CSI_PARAMETERS = 256;
/** Keys of SGR parameters stay below 13^8 (eight characters), a small integer. */
const MAX_KEY_PREFIX = 13 ** 7;
const MAX_TRANSITIONS_PER_STYLE = 1024;

export class TraceParser {
  private readonly retainLines: boolean;
  private readonly applyStyles: boolean;
  private readonly styles = new StyleTable();
  private currentStyle: TraceStyle = DEFAULT_STYLE;
  /**
   * SGR transitions from `currentStyle`, keyed by the parameters read as a number (see `consumeEscape`):
   * no string is made or hashed for the sequences a trace repeats millions of times.
   */
  private currentTransitions = new Map<number, TraceStyle>();
  private readonly transitionsByStyle = new Map<TraceStyle, Map<number, TraceStyle>>();
  private mode: Mode = Mode.Text;
  private csiParameters = '';
  private csiIsSgrCandidate = true;
  /** A high surrogate that ended the previous chunk, waiting for its low half. */
  private carriedHighSurrogate = '';
  /** At the start of a line the runner wrote (after a line feed): a timestamp prefix may follow. */
  private atRunnerLineStart = true;
  /** What may be the start of a timestamp prefix, cut by the end of the previous chunk. */
  private carriedPrefix = '';
  /** The trace has runner timestamps: a line feed waits for the next prefix, which may continue the line. */
  private timestamped = false;
  /** A line feed seen in a timestamped trace whose line is not completed yet. */
  private pendingLineFeed = false;
  /** The timestamp of the open line. */
  private openLineTime: string | undefined;
  /** The open runner line held only a section marker so far. */
  private markerOnlyLine = false;

  /** Completed lines (or, without `retainLines`, this push's), plus a snapshot of the open line when it has text. */
  private lineList: TraceLine[] = [];
  private lineListStart = 0;
  private completedLineCount = 0;
  /** The open line: finished spans plus text still in the current style. */
  private openSpans: TraceSpan[] = [];
  private openText = '';

  private readonly sectionState: TraceSections;

  constructor(options: TraceParserOptions = {}) {
    this.retainLines = options.retainLines ?? true;
    this.applyStyles = options.styles ?? true;
    this.sectionState = new TraceSections(this.retainLines);
  }

  /**
   * Completed lines, then the open last line when it has text. The array is live: the parser
   * appends to it and replaces its last element on later pushes; lines before the open one never change.
   * Without `retainLines`, only the lines of the latest push (a new array on every push).
   */
  get lines(): readonly TraceLine[] {
    return this.lineList;
  }

  /** Index in the whole trace of `lines[0]`: always 0 when lines are retained. */
  get firstLineIndex(): number {
    return this.lineListStart;
  }

  /** Every section so far; without `retainLines`, the open ones. */
  get sections(): readonly TraceSection[] {
    return this.sectionState.list;
  }

  /** Feeds the next piece of the trace (only the new suffix, never the whole trace again). */
  push(chunk: string): TraceDelta {
    // The open line's snapshot is rebuilt at the end; lines before it never change again.
    if (this.retainLines) {
      this.lineList.length = this.completedLineCount;
    } else {
      this.lineList = [];
      this.lineListStart = this.completedLineCount;
    }
    const firstChangedLine = this.completedLineCount;
    this.sectionState.startPush();

    let text = this.carriedPrefix + this.carriedHighSurrogate + chunk;
    this.carriedPrefix = '';
    this.carriedHighSurrogate = '';
    if (text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1))) {
      // Keep a pair together so no snapshot ever shows half a character.
      this.carriedHighSurrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    this.consume(text);

    const lastLineComplete = !this.openLineHasText();
    if (!lastLineComplete)
      this.lineList.push(this.sectionState.line(this.openLineSpans(), false, this.openLineTime));
    return {
      firstChangedLine,
      lines: this.retainLines ? this.lineList.slice(firstChangedLine) : this.lineList,
      lastLineComplete,
      changedSections: this.sectionState.changed,
    };
  }

  private consume(text: string): void {
    const length = text.length;
    // Where the next line feed, carriage return, escape and other control character are (at or
    // after `index`), found natively and searched again only once `index` has passed them.
    let nextLineFeed = -1;
    let nextReturn = -1;
    let nextEscape = -1;
    let nextOther = -1;
    let index = 0;
    while (index < length) {
      if (this.mode !== Mode.Text) {
        index = this.consumeInSequence(text, index);
        continue;
      }
      if (this.atRunnerLineStart) {
        const after = this.consumeLineStart(text, index);
        if (after < 0) {
          // A timestamp prefix may be cut here: decide when the rest arrives.
          this.carriedPrefix = text.slice(index);
          return;
        }
        index = after;
        if (index === length) return;
      }
      if (nextLineFeed < index) nextLineFeed = positionOrEnd(text.indexOf('\n', index), length);
      if (nextReturn < index) nextReturn = positionOrEnd(text.indexOf('\r', index), length);
      if (nextEscape < index) nextEscape = positionOrEnd(text.indexOf('\x1b', index), length);
      if (nextOther < index) nextOther = findOtherControl(text, index);
      let end = nextLineFeed < nextReturn ? nextLineFeed : nextReturn;
      if (nextEscape < end) end = nextEscape;
      if (nextOther < end) end = nextOther;
      if (end > index) this.appendText(text, index, end);
      if (end === length) return;
      if (end === nextEscape) {
        index = this.consumeEscape(text, end);
      } else if (end === nextLineFeed) {
        this.lineFeed();
        index = end + 1;
      } else if (end === nextReturn) {
        // A section marker ends in `]` or a name character: most `\r`s are ruled out by that alone.
        const lastCode = end > index ? text.charCodeAt(end - 1) : this.openLineLastCode();
        if (!isSectionMarkerEnd(lastCode) || !this.consumeSectionMarker()) this.mode = Mode.CarriageReturn;
        index = end + 1;
      } else {
        // Other control characters (bell, backspace, NUL …) carry no text: dropped.
        index = end + 1;
      }
    }
  }

  /** One step of a sequence left unfinished by the previous character (possibly in the previous chunk). */
  private consumeInSequence(text: string, index: number): number {
    switch (this.mode) {
      case Mode.CarriageReturn:
        return this.consumeAfterCarriageReturn(text, index);
      case Mode.Escape:
        return this.consumeAfterEscape(text, index);
      case Mode.EscapeCharset:
        this.mode = Mode.Text;
        // Printable: it is the charset's name, drop it; anything else is handled as text.
        return isPrintable(text.charCodeAt(index)) ? index + 1 : index;
      case Mode.Csi:
        return this.consumeCsi(text, index);
      case Mode.Osc:
        return this.consumeOsc(text, index);
      case Mode.OscEscape:
        if (text.charCodeAt(index) === 0x5c /* \ */) {
          this.mode = Mode.Text;
          return index + 1;
        }
        // ESC + anything else cancels the OSC and starts a new escape sequence.
        this.mode = Mode.Escape;
        return index;
      default:
        return index;
    }
  }

  /** A line feed: the line is complete, unless a timestamped trace's next fragment continues it. */
  private lineFeed(): void {
    if (this.timestamped) this.pendingLineFeed = true;
    else this.completeLine();
    this.atRunnerLineStart = true;
  }

  /**
   * At the start of a runner line: takes a timestamp prefix off (`2024-05-14T11:19:19.899359Z 00O `),
   * completes the line a pending line feed ended unless the prefix says it continues (`00O+`), and
   * returns where the line's text starts; -1 when the text ends before the prefix can be told apart.
   */
  private consumeLineStart(text: string, index: number): number {
    const prefix = readTimestampPrefix(text, index);
    if (prefix === 'partial') return -1;
    this.atRunnerLineStart = false;
    if (prefix === undefined) {
      if (this.pendingLineFeed) this.completeLine();
      this.pendingLineFeed = false;
      return index;
    }
    this.timestamped = true;
    if (!prefix.continuation || !this.pendingLineFeed) {
      if (this.pendingLineFeed) this.completeLine();
      this.openLineTime = flatCopy(prefix.time);
    }
    this.pendingLineFeed = false;
    return prefix.end;
  }

  private appendText(text: string, start: number, end: number): void {
    const run = text.slice(start, end);
    this.openText = this.openText === '' ? run : this.openText + run;
  }

  private openLineLastCode(): number {
    const last = this.openText !== '' ? this.openText : this.openSpans.at(-1)?.text;
    return last === undefined ? -1 : last.charCodeAt(last.length - 1);
  }

  /**
   * At an ESC in text: a CSI sequence that ends within this chunk is read here in one go (the
   * common case, colours); anything else goes through the step-by-step states.
   */
  private consumeEscape(text: string, escapeIndex: number): number {
    const parametersStart = escapeIndex + 2;
    if (text.charCodeAt(escapeIndex + 1) !== 0x5b /* [ */) {
      this.mode = Mode.Escape;
      return escapeIndex + 1;
    }
    let sgrCandidate = true;
    // The parameters as a number, one base-13 digit per character ('0'–'9' → 1–10, ':' → 11, ';' → 12),
    // while it fits in a small integer; -1 beyond that.
    let key = 0;
    let index = parametersStart;
    const length = text.length;
    while (index < length) {
      const code = text.charCodeAt(index);
      if (code >= 0x30 && code <= 0x3f) {
        // Parameter bytes; `<`, `=`, `>`, `?` mark private sequences, never SGR.
        if (code >= 0x3c) sgrCandidate = false;
        else if (key >= 0) key = key < MAX_KEY_PREFIX ? key * 13 + (code - 0x2f) : -1;
      } else if (code >= 0x20 && code <= 0x2f) {
        // Intermediate bytes: not SGR either.
        sgrCandidate = false;
      } else break;
      index++;
    }
    if (index === length) {
      // The sequence goes on in the next chunk.
      this.mode = Mode.Csi;
      this.csiParameters = '';
      this.csiIsSgrCandidate = sgrCandidate;
      this.appendCsiParameters(text, parametersStart, index);
      return index;
    }
    const final = text.charCodeAt(index);
    if (final < 0x40 || final > 0x7e) {
      // Not a valid CSI byte: abandon the sequence and handle the character as text.
      return index;
    }
    if (final === 0x6d /* m */ && sgrCandidate && index - parametersStart <= MAX_CSI_PARAMETERS) {
      if (key >= 0) this.applyStyleChangeByKey(key, text, parametersStart, index);
      else this.applyStyleChange(text.slice(parametersStart, index));
    }
    // Every other final byte (erase line, cursor moves …) is dropped.
    return index + 1;
  }

  private consumeAfterCarriageReturn(text: string, index: number): number {
    const code = text.charCodeAt(index);
    if (code === LINE_FEED) {
      this.mode = Mode.Text;
      this.lineFeed();
      return index + 1;
    }
    // `\r\r\n` (seen from Windows tools) is still one newline, so repeated CRs wait together.
    if (code === CARRIAGE_RETURN) return index + 1;
    // A lone `\r` returns to the line start: what follows replaces the line (progress bars), and in a
    // timestamped trace starts with a prefix of its own (the runner writes one after a `\r` too).
    this.clearOpenLine();
    this.mode = Mode.Text;
    if (this.timestamped) this.atRunnerLineStart = true;
    return index;
  }

  private consumeAfterEscape(text: string, index: number): number {
    const code = text.charCodeAt(index);
    if (code === 0x5b /* [ */) {
      this.mode = Mode.Csi;
      this.csiParameters = '';
      this.csiIsSgrCandidate = true;
      return index + 1;
    }
    if (code === 0x5d /* ] */) {
      this.mode = Mode.Osc;
      return index + 1;
    }
    if (code >= 0x28 && code <= 0x2f /* ( ) * + , - . / */) {
      this.mode = Mode.EscapeCharset;
      return index + 1;
    }
    this.mode = Mode.Text;
    // A two-character sequence (ESC 7, ESC =, …) is dropped whole; a control character is not
    // part of it and is handled as text.
    return isPrintable(code) ? index + 1 : index;
  }

  private consumeCsi(text: string, start: number): number {
    let index = start;
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code >= 0x30 && code <= 0x3f) {
        // Parameter bytes; `<`, `=`, `>`, `?` mark private sequences, never SGR.
        if (code >= 0x3c) this.csiIsSgrCandidate = false;
        index++;
        continue;
      }
      if (code >= 0x20 && code <= 0x2f) {
        // Intermediate bytes: not SGR either.
        this.csiIsSgrCandidate = false;
        index++;
        continue;
      }
      this.appendCsiParameters(text, start, index);
      this.mode = Mode.Text;
      if (code >= 0x40 && code <= 0x7e) {
        if (code === 0x6d /* m */ && this.csiIsSgrCandidate) this.applyStyleChange(this.csiParameters);
        // Every other final byte (erase line, cursor moves …) is dropped.
        return index + 1;
      }
      // Not a valid CSI byte: abandon the sequence and handle the character as text.
      return index;
    }
    this.appendCsiParameters(text, start, index);
    return index;
  }

  private appendCsiParameters(text: string, start: number, end: number): void {
    if (!this.csiIsSgrCandidate || end === start) return;
    if (this.csiParameters.length + (end - start) > MAX_CSI_PARAMETERS) {
      this.csiIsSgrCandidate = false;
      return;
    }
    this.csiParameters += text.slice(start, end);
  }

  private consumeOsc(text: string, start: number): number {
    for (let index = start; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code === BELL) {
        this.mode = Mode.Text;
        return index + 1;
      }
      if (code === ESCAPE) {
        this.mode = Mode.OscEscape;
        return index + 1;
      }
      if (code === LINE_FEED) {
        // An unterminated OSC must not swallow the rest of the trace: give up at the line end.
        this.mode = Mode.Text;
        return index;
      }
    }
    return text.length;
  }

  private applyStyleChange(parameters: string): void {
    if (!this.applyStyles) return;
    // The table keeps its keys: a copy, so that it holds no slice of a whole chunk.
    this.setStyle(this.styles.applySgr(this.currentStyle, flatCopy(parameters)));
  }

  private applyStyleChangeByKey(key: number, text: string, start: number, end: number): void {
    if (!this.applyStyles) return;
    let style = this.currentTransitions.get(key);
    if (style === undefined) {
      style = this.styles.applySgr(this.currentStyle, text.slice(start, end));
      // Bounded so a truecolor gradient cannot grow the cache without end.
      if (this.currentTransitions.size < MAX_TRANSITIONS_PER_STYLE) this.currentTransitions.set(key, style);
    }
    this.setStyle(style);
  }

  private setStyle(style: TraceStyle): void {
    if (style === this.currentStyle) return;
    this.closeOpenSpan();
    this.currentStyle = style;
    let transitions = this.transitionsByStyle.get(style);
    if (!transitions) {
      transitions = new Map();
      this.transitionsByStyle.set(style, transitions);
    }
    this.currentTransitions = transitions;
  }

  private closeOpenSpan(): void {
    if (this.openText === '') return;
    this.openSpans.push({ text: this.openText, style: this.currentStyle });
    this.openText = '';
  }

  private openLineHasText(): boolean {
    return this.openText !== '' || this.openSpans.length > 0;
  }

  private openLineSpans(): TraceSpan[] {
    if (this.openText === '') return this.openSpans.slice();
    return [...this.openSpans, { text: this.openText, style: this.currentStyle }];
  }

  private clearOpenLine(): void {
    this.openSpans = [];
    this.openText = '';
  }

  private completeLine(): void {
    if (this.markerOnlyLine) {
      this.markerOnlyLine = false;
      if (!this.openLineHasText()) return;
    }
    let spans: TraceSpan[];
    if (this.openSpans.length === 0) {
      // One span or none: no array to grow, and the empty open-span list is kept.
      spans = this.openText === '' ? [] : [{ text: this.openText, style: this.currentStyle }];
      this.openText = '';
    } else {
      this.closeOpenSpan();
      spans = this.openSpans;
      this.openSpans = [];
    }
    this.lineList.push(this.sectionState.line(spans, true, this.openLineTime));
    this.completedLineCount++;
  }

  /**
   * Called at a `\r`: if the open line ends with `section_start:<unix>:<name>[<options>]` or
   * `section_end:<unix>:<name>`, removes the marker, completes any text before it as a line of its
   * own and opens or closes the section. Costs O(open line length), and the line is cleared or
   * completed right after, so each character is examined here at most once.
   */
  private consumeSectionMarker(): boolean {
    // Most lines are one span still open: read its text without closing it.
    const singleRun = this.openSpans.length === 0;
    if (!singleRun) this.closeOpenSpan();
    const lineText = singleRun ? this.openText : spansText(this.openSpans);
    // A name may itself contain `section_` (`my_section_2`), never a `:`: the marker is the last
    // `section_start:` or `section_end:`.
    const markerStart = Math.max(lineText.lastIndexOf(SECTION_START), lineText.lastIndexOf(SECTION_END));
    if (markerStart < 0) return false;
    const marker = parseSectionMarker(lineText, markerStart);
    if (!marker) return false;

    if (singleRun) this.openText = lineText.slice(0, markerStart);
    else dropEnd(this.openSpans, lineText.length - markerStart);
    if (marker.kind === 'end' && this.sectionState.isOpen(marker.name)) {
      // GitLab ends the line at an end marker: the text before it is the section's last line (its
      // header, when the section opened on that line), and what follows starts a line outside it.
      if (this.openLineHasText()) this.completeLine();
      this.sectionState.end(marker.name, marker.time, this.completedLineCount - 1);
      this.markerOnlyLine = true;
      return true;
    }
    // A line that carried only a marker is no line of the log (GitLab drops it too), with or
    // without runner timestamps: `echo -e "\e[0Ksection_end:…\r\e[0K"` leaves no blank line.
    if (!this.openLineHasText()) this.markerOnlyLine = true;
    // The end of a section that is not open: the marker goes, the line stays.
    if (marker.kind === 'end') return true;
    if (this.openLineHasText()) this.completeLine();
    else this.clearOpenLine();
    this.sectionState.start(marker.name, marker.time, marker.collapsed, this.completedLineCount);
    return true;
  }
}
