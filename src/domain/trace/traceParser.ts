/**
 * Incremental parser for GitLab CI job traces: ANSI styles, carriage-return overwrites and
 * collapsible sections. Pure (no vscode) and single-pass: every character of a chunk is looked at
 * a bounded number of times and earlier text is never re-scanned, so `push` costs O(chunk length)
 * however long the trace already is. Chunks may split anywhere (inside an escape sequence, a
 * `\r\n`, a section marker or a surrogate pair); all state is carried to the next push.
 */
import { DEFAULT_STYLE, StyleTable, type TraceStyle } from './traceStyle';

export interface TraceSpan {
  readonly text: string;
  readonly style: TraceStyle;
}

export interface TraceSection {
  readonly name: string;
  /** Plain text of the line the section starts on ('' until that line has text). */
  readonly header: string;
  /** Index of the header line. */
  readonly startLine: number;
  /** Index of the last line inside the section (inclusive); undefined while the section is open. */
  readonly endLine: number | undefined;
  /** Unix seconds, from the marker. */
  readonly startedAt: number;
  readonly endedAt: number | undefined;
  readonly durationSeconds: number | undefined;
  /** From the start marker's `[collapsed=true]` option. */
  readonly collapsed: boolean;
}

export interface TraceLine {
  readonly spans: readonly TraceSpan[];
  /**
   * How many sections contain this line. A section's header line counts as inside its own
   * section, so a view indents a header at `sectionDepth - 1` and its body at `sectionDepth`.
   */
  readonly sectionDepth: number;
  /** Set on a section's header line. Section objects are updated in place when their end arrives. */
  readonly section: TraceSection | undefined;
}

export interface TraceDelta {
  /** Lines from this index on are new or changed: drop them from your copy and append `lines`. */
  readonly firstChangedLine: number;
  /** `parser.lines.slice(firstChangedLine)`. */
  readonly lines: readonly TraceLine[];
  /** False when the last line is still open and may change on the next push. */
  readonly lastLineComplete: boolean;
  /** Sections opened, closed or given their header during this push. */
  readonly changedSections: readonly TraceSection[];
}

type MutableSection = { -readonly [Key in keyof TraceSection]: TraceSection[Key] };

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

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const ESCAPE = 0x1b;
const BELL = 0x07;
const TAB = 0x09;
const DELETE = 0x7f;
/** Longer parameter lists are not SGR anyone writes; cap them so garbage cannot grow a buffer. */
const MAX_CSI_PARAMETERS = 256;
const SECTION_PREFIX = 'section_';

export class TraceParser {
  private readonly styles = new StyleTable();
  private currentStyle: TraceStyle = DEFAULT_STYLE;
  private mode: Mode = Mode.Text;
  private csiParameters = '';
  private csiIsSgrCandidate = true;
  /** A high surrogate that ended the previous chunk, waiting for its low half. */
  private carriedHighSurrogate = '';

  /** Completed lines, plus a snapshot of the open line at the end when it has text. */
  private readonly lineList: TraceLine[] = [];
  private completedLineCount = 0;
  /** The open line: finished spans plus text still in the current style. */
  private openSpans: TraceSpan[] = [];
  private openText = '';

  private readonly sectionList: MutableSection[] = [];
  private readonly openSections: MutableSection[] = [];
  /** Sections whose header line is the open line. */
  private sectionsAwaitingHeader: MutableSection[] = [];
  private changedSections = new Set<MutableSection>();

  /**
   * Completed lines, then the open last line when it has text. The array is live: the parser
   * appends to it and replaces its last element on later pushes; lines before the open one never change.
   */
  get lines(): readonly TraceLine[] {
    return this.lineList;
  }

  get sections(): readonly TraceSection[] {
    return this.sectionList;
  }

  /** Feeds the next piece of the trace (only the new suffix, never the whole trace again). */
  push(chunk: string): TraceDelta {
    // The open line's snapshot is rebuilt at the end; lines before it never change again.
    this.lineList.length = this.completedLineCount;
    const firstChangedLine = this.completedLineCount;
    this.changedSections = new Set();

    let text = this.carriedHighSurrogate + chunk;
    this.carriedHighSurrogate = '';
    if (text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1))) {
      // Keep a pair together so no snapshot ever shows half a character.
      this.carriedHighSurrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    this.consume(text);

    const lastLineComplete = !this.openLineHasText();
    if (!lastLineComplete) this.lineList.push(this.makeLine(this.openLineSpans(), false));
    return {
      firstChangedLine,
      lines: this.lineList.slice(firstChangedLine),
      lastLineComplete,
      changedSections: [...this.changedSections],
    };
  }

  private consume(text: string): void {
    let index = 0;
    while (index < text.length) {
      switch (this.mode) {
        case Mode.Text:
          index = this.consumeText(text, index);
          break;
        case Mode.CarriageReturn:
          index = this.consumeAfterCarriageReturn(text, index);
          break;
        case Mode.Escape:
          index = this.consumeAfterEscape(text, index);
          break;
        case Mode.EscapeCharset:
          // Printable: it is the charset's name, drop it; anything else is handled as text.
          if (isPrintable(text.charCodeAt(index))) index++;
          this.mode = Mode.Text;
          break;
        case Mode.Csi:
          index = this.consumeCsi(text, index);
          break;
        case Mode.Osc:
          index = this.consumeOsc(text, index);
          break;
        case Mode.OscEscape:
          if (text.charCodeAt(index) === 0x5c /* \ */) {
            index++;
            this.mode = Mode.Text;
          } else {
            // ESC + anything else cancels the OSC and starts a new escape sequence.
            this.mode = Mode.Escape;
          }
          break;
      }
    }
  }

  /** Takes a run of printable characters in one slice, then handles the control character ending it. */
  private consumeText(text: string, start: number): number {
    let end = start;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if ((code < 0x20 && code !== TAB) || code === DELETE) break;
      end++;
    }
    if (end > start) this.openText += text.slice(start, end);
    if (end === text.length) return end;
    const control = text.charCodeAt(end);
    if (control === LINE_FEED) this.completeLine();
    else if (control === CARRIAGE_RETURN) this.onCarriageReturn();
    else if (control === ESCAPE) this.mode = Mode.Escape;
    // Other control characters (bell, backspace, NUL …) carry no text: dropped.
    return end + 1;
  }

  private onCarriageReturn(): void {
    if (this.consumeSectionMarker()) return;
    this.mode = Mode.CarriageReturn;
  }

  private consumeAfterCarriageReturn(text: string, index: number): number {
    const code = text.charCodeAt(index);
    if (code === LINE_FEED) {
      this.mode = Mode.Text;
      this.completeLine();
      return index + 1;
    }
    // `\r\r\n` (seen from Windows tools) is still one newline, so repeated CRs wait together.
    if (code === CARRIAGE_RETURN) return index + 1;
    // A lone `\r` returns to the line start: what follows replaces the line (progress bars).
    this.clearOpenLine();
    this.mode = Mode.Text;
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
        if (code === 0x6d /* m */ && this.csiIsSgrCandidate) this.applyStyleChange();
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

  private applyStyleChange(): void {
    const style = this.styles.applySgr(this.currentStyle, this.csiParameters);
    if (style === this.currentStyle) return;
    this.closeOpenSpan();
    this.currentStyle = style;
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
    this.closeOpenSpan();
    const spans = this.openSpans;
    this.openSpans = [];
    this.lineList.push(this.makeLine(spans, true));
    this.completedLineCount++;
  }

  private makeLine(spans: TraceSpan[], complete: boolean): TraceLine {
    const header = this.sectionsAwaitingHeader[0];
    if (header && complete) {
      const headerText = spansText(spans);
      for (const section of this.sectionsAwaitingHeader) {
        section.header = headerText;
        this.changedSections.add(section);
      }
      this.sectionsAwaitingHeader = [];
    }
    return { spans, sectionDepth: this.openSections.length, section: header };
  }

  /**
   * Called at a `\r`: if the open line ends with `section_start:<unix>:<name>[<options>]` or
   * `section_end:<unix>:<name>`, removes the marker, completes any text before it as a line of its
   * own and opens or closes the section. Costs O(open line length), and the line is cleared or
   * completed right after, so each character is examined here at most once.
   */
  private consumeSectionMarker(): boolean {
    this.closeOpenSpan();
    const lineText = spansText(this.openSpans);
    const markerStart = lineText.lastIndexOf(SECTION_PREFIX);
    if (markerStart < 0) return false;
    const marker = parseSectionMarker(lineText, markerStart);
    if (!marker) return false;

    this.removeOpenLineEnd(lineText.length - markerStart);
    if (this.openLineHasText()) this.completeLine();
    else this.clearOpenLine();

    if (marker.kind === 'start') this.openSection(marker.name, marker.time, marker.collapsed);
    else this.closeSection(marker.name, marker.time);
    return true;
  }

  private removeOpenLineEnd(characterCount: number): void {
    let remaining = characterCount;
    while (remaining > 0) {
      const last = this.openSpans.pop();
      if (!last) return;
      if (last.text.length > remaining) {
        this.openSpans.push({ text: last.text.slice(0, last.text.length - remaining), style: last.style });
        return;
      }
      remaining -= last.text.length;
    }
  }

  private openSection(name: string, startedAt: number, collapsed: boolean): void {
    const section: MutableSection = {
      name,
      header: '',
      startLine: this.completedLineCount,
      endLine: undefined,
      startedAt,
      endedAt: undefined,
      durationSeconds: undefined,
      collapsed,
    };
    this.sectionList.push(section);
    this.openSections.push(section);
    this.sectionsAwaitingHeader.push(section);
    this.changedSections.add(section);
  }

  /** Closes the innermost open section of that name and any still open inside it; unknown names are ignored. */
  private closeSection(name: string, endedAt: number): void {
    let position = this.openSections.length - 1;
    while (position >= 0 && this.openSections[position]?.name !== name) position--;
    if (position < 0) return;
    const closing = this.openSections.splice(position);
    for (const section of closing) {
      // A section that ended before any line completed still owns its header line.
      section.endLine = Math.max(section.startLine, this.completedLineCount - 1);
      section.endedAt = endedAt;
      section.durationSeconds = Math.max(0, endedAt - section.startedAt);
      this.changedSections.add(section);
    }
    this.sectionsAwaitingHeader = this.sectionsAwaitingHeader.filter((section) => !closing.includes(section));
  }
}

interface SectionMarker {
  kind: 'start' | 'end';
  time: number;
  name: string;
  collapsed: boolean;
}

/**
 * Reads `section_start:<digits>:<name>[<options>]` or `section_end:<digits>:<name>` from `start`
 * to the end of `text`, by hand (no regex over trace data). Names use GitLab's `[A-Za-z0-9_.-]`.
 */
export function parseSectionMarker(text: string, start: number): SectionMarker | undefined {
  let index = start + SECTION_PREFIX.length;
  let kind: SectionMarker['kind'];
  if (text.startsWith('start:', index)) {
    kind = 'start';
    index += 'start:'.length;
  } else if (text.startsWith('end:', index)) {
    kind = 'end';
    index += 'end:'.length;
  } else return undefined;

  const timeStart = index;
  while (index < text.length && isDigit(text.charCodeAt(index))) index++;
  if (index === timeStart || text.charCodeAt(index) !== 0x3a /* : */) return undefined;
  const time = Number(text.slice(timeStart, index));
  index++;

  const nameStart = index;
  while (index < text.length && isSectionNameCharacter(text.charCodeAt(index))) index++;
  if (index === nameStart) return undefined;
  const name = text.slice(nameStart, index);

  let collapsed = false;
  if (kind === 'start' && text.charCodeAt(index) === 0x5b /* [ */) {
    const close = text.indexOf(']', index);
    if (close < 0) return undefined;
    collapsed = readCollapsedOption(text.slice(index + 1, close));
    index = close + 1;
  }
  return index === text.length ? { kind, time, name, collapsed } : undefined;
}

/** Options look like `collapsed=true,hide_duration=true`. */
function readCollapsedOption(options: string): boolean {
  return options.split(',').some((option) => option.trim() === 'collapsed=true');
}

function spansText(spans: readonly TraceSpan[]): string {
  let text = '';
  for (const span of spans) text += span.text;
  return text;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isPrintable(code: number): boolean {
  return code >= 0x20 && code <= 0x7e;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isSectionNameCharacter(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f /* _ */ ||
    code === 0x2e /* . */ ||
    code === 0x2d /* - */
  );
}
