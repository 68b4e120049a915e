/**
 * The trace's small grammars, read by hand (no regex over trace data): section markers, the
 * runner's timestamp prefix, and the character classes the parser asks about.
 */
import type { TraceSpan } from './traceModel';

export const LINE_FEED = 0x0a;
export const CARRIAGE_RETURN = 0x0d;
export const ESCAPE = 0x1b;
export const BELL = 0x07;
const SECTION_PREFIX = 'section_';
export const SECTION_START = 'section_start:';
export const SECTION_END = 'section_end:';
/** Control characters other than tab, `\n`, `\r` and ESC: dropped from the text. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const OTHER_CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const WITHOUT_OTHER_CONTROL = /^[^\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]*$/;

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

/**
 * Reads the runner's timestamp prefix at `start`: `<YYYY-MM-DDTHH:MM:SS[.fraction]Z> <2 hex><O|E>` and
 * then a space, or `+` for a fragment that continues the previous line (`00O+world!`: the text
 * starts right after the `+`, as GitLab reads it).
 * Undefined when the text there is not one; 'partial' when the text ends before that is known.
 */
export function readTimestampPrefix(
  text: string,
  start: number,
): { time: string; continuation: boolean; end: number } | undefined | 'partial' {
  let index = start;
  // Most lines of most traces start with no digit: one look rules them out.
  if (index < text.length && !isDigit(text.charCodeAt(index))) return undefined;
  for (let offset = 0; offset < 19; offset++, index++) {
    if (index >= text.length) return 'partial';
    const code = text.charCodeAt(index);
    const separator = TIMESTAMP_SEPARATORS[offset];
    if (separator === undefined ? !isDigit(code) : code !== separator) return undefined;
  }
  if (index >= text.length) return 'partial';
  if (text.charCodeAt(index) === 0x2e /* . */) {
    index++;
    const fraction = index;
    while (index < text.length && isDigit(text.charCodeAt(index)) && index - fraction < 9) index++;
    if (index >= text.length) return 'partial';
    if (index === fraction) return undefined;
  }
  if (text.charCodeAt(index) !== 0x5a /* Z */) return undefined;
  const timeEnd = index + 1;
  // ` 00O ` or ` 00O+`: a space, two hex digits, the stream, then a space or a `+`.
  for (const check of STREAM_CHECKS) {
    index++;
    if (index >= text.length) return 'partial';
    if (!check(text.charCodeAt(index))) return undefined;
  }
  index++;
  if (index >= text.length) return 'partial';
  const continuation = text.charCodeAt(index) === 0x2b; /* + */
  if (!continuation && !isSpace(text.charCodeAt(index))) return undefined;
  return { time: text.slice(start, timeEnd), continuation, end: index + 1 };
}

/** Separators of `YYYY-MM-DDTHH:MM:SS` by offset; digits everywhere else. */
const TIMESTAMP_SEPARATORS: readonly (number | undefined)[] = [
  undefined,
  undefined,
  undefined,
  undefined,
  0x2d,
  undefined,
  undefined,
  0x2d,
  undefined,
  undefined,
  0x54,
  undefined,
  undefined,
  0x3a,
  undefined,
  undefined,
  0x3a,
  undefined,
  undefined,
];
/** ` 00O`: a space, two hex digits, the stream. */
const STREAM_CHECKS: readonly ((code: number) => boolean)[] = [
  (code) => isSpace(code),
  (code) => isHexDigit(code),
  (code) => isHexDigit(code),
  (code) => isStream(code),
];

function isSpace(code: number): boolean {
  return code === 0x20;
}

function isHexDigit(code: number): boolean {
  return isDigit(code) || (code >= 0x61 && code <= 0x66) || (code >= 0x41 && code <= 0x46);
}

function isStream(code: number): boolean {
  return code === 0x4f /* O */ || code === 0x45; /* E */
}

/** Options look like `collapsed=true,hide_duration=true`. */
function readCollapsedOption(options: string): boolean {
  let start = 0;
  while (start <= options.length) {
    const comma = options.indexOf(',', start);
    const end = comma < 0 ? options.length : comma;
    if (options.slice(start, end).trim() === 'collapsed=true') return true;
    start = end + 1;
  }
  return false;
}

export function spansText(spans: readonly TraceSpan[]): string {
  let text = '';
  for (const span of spans) text += span.text;
  return text;
}

/** The next control character other than tab, `\n`, `\r` and ESC at or after `from`, or the text's length. */
export function findOtherControl(text: string, from: number): number {
  // Traces seldom have any: proving that for the whole chunk first is the cheaper scan.
  if (from === 0 && WITHOUT_OTHER_CONTROL.test(text)) return text.length;
  OTHER_CONTROL.lastIndex = from;
  return OTHER_CONTROL.exec(text)?.index ?? text.length;
}

/** A section marker ends in `]` (options) or a name character. */
export function isSectionMarkerEnd(code: number): boolean {
  return code === 0x5d /* ] */ || isSectionNameCharacter(code);
}

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function isPrintable(code: number): boolean {
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

/** Removes the last `characterCount` characters from a line's spans (a marker at its end). */
export function dropEnd(spans: TraceSpan[], characterCount: number): void {
  let remaining = characterCount;
  while (remaining > 0) {
    const last = spans.pop();
    if (!last) return;
    if (last.text.length > remaining) {
      spans.push({ text: last.text.slice(0, last.text.length - remaining), style: last.style });
      return;
    }
    remaining -= last.text.length;
  }
}
