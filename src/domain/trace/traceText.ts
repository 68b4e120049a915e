/** Plain-text helpers over parsed trace lines and raw trace text. Pure. */
import type { TraceLine } from './traceParser';

/**
 * A copy of `text.slice(start, end)` that shares no memory with `text`. V8 makes a slice a view that
 * keeps the whole original alive; flattening a concatenation copies the characters into a string of
 * their own, and a slice of that copy points only into the copy.
 */
export function flatCopy(text: string, start = 0, end = text.length): string {
  // V8 copies slices shorter than 13 characters anyway.
  if (end - start < 13) return text.slice(start, end);
  const part = start === 0 && end === text.length ? text : text.slice(start, end);
  return ` ${part}`.slice(1);
}

/** The text of a line without styles. */
export function plainText(line: TraceLine): string {
  let text = '';
  for (const span of line.spans) text += span.text;
  return text;
}

/**
 * Removes escape sequences (CSI such as colours and erase-line, OSC up to BEL or `ESC \`, and
 * two-character `ESC x` sequences) and keeps every other character, `\r` and `\n` included.
 * Single pass, for one-off strings; use `TraceParser` for a growing trace.
 */
export function stripAnsi(text: string): string {
  let result = '';
  let runStart = 0;
  let index = 0;
  while (index < text.length) {
    if (text.charCodeAt(index) !== 0x1b) {
      index++;
      continue;
    }
    result += text.slice(runStart, index);
    index = skipEscapeSequence(text, index);
    runStart = index;
  }
  return result + text.slice(runStart);
}

/** Returns the index just after the escape sequence starting at `escapeIndex`. */
function skipEscapeSequence(text: string, escapeIndex: number): number {
  const introducer = text.charCodeAt(escapeIndex + 1);
  let index = escapeIndex + 2;
  if (introducer === 0x5b /* [ */) {
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code >= 0x40 && code <= 0x7e) return index + 1;
      if (code < 0x20 || code > 0x7e) return index; // malformed: keep the character
      index++;
    }
    return index;
  }
  if (introducer === 0x5d /* ] */) {
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code === 0x07) return index + 1;
      if (code === 0x1b) return text.charCodeAt(index + 1) === 0x5c /* \ */ ? index + 2 : index;
      if (code === 0x0a) return index; // unterminated: stop at the line end
      index++;
    }
    return index;
  }
  if (introducer >= 0x28 && introducer <= 0x2f) return Math.min(text.length, escapeIndex + 3);
  if (introducer >= 0x20 && introducer <= 0x7e) return escapeIndex + 2;
  return escapeIndex + 1; // a lone ESC
}

/**
 * A line reads as an error when it contains the whole word `error` or `fatal` in any case
 * (`fatal: repository not found`), unless the word follows `0 ` or `no ` (`0 errors`). `errors`,
 * `npm ERR!` and words inside identifiers (`-Werror`, `error_log`) are not matched.
 */
export const ERROR_WORD = /(?<!\b(?:0|no) )\b(?:error|fatal)\b/i;
/** A runner's warning (`WARNING: Failed to extract cache`): never the error a person looks for. */
const WARNING_LINE = /\bWARNING\b/;
/** The runner's own last line of a failed job. */
const JOB_FAILED_LINE = /^\s*ERROR: Job failed\b/;
/** Test runners' failure markers: TAP `not ok`, `FAIL`, crosses, `3 failing`/`2 failed`. */
const TEST_FAILURE = /^\s*(?:not ok\b|FAIL(?:ED)?\b|[✗✖×])|\b[1-9]\d* (?:failing|failed)\b/;

/**
 * How strongly a line reads as the job's failure, best first: 0 a line the job printed in red, 1 a
 * failing test, 2 the word error or fatal, 3 the runner's `ERROR: Job failed`; undefined for other
 * lines and for any `WARNING` line. "First error" goes to the first line of the best rank found.
 */
export function errorRank(text: string, red: boolean): number | undefined {
  if (WARNING_LINE.test(text)) return undefined;
  if (JOB_FAILED_LINE.test(text)) return 3;
  if (red && text.trim() !== '') return 0;
  if (TEST_FAILURE.test(text)) return 1;
  if (ERROR_WORD.test(text)) return 2;
  return undefined;
}

/** Whether a style is the job's red (basic or bright). */
export function isRed(style: { fg: unknown }): boolean {
  return style.fg === 1 || style.fg === 9;
}

export function findFirstError(lines: readonly TraceLine[], fromLine = 0): number {
  let best: number | undefined;
  let found = -1;
  for (let index = Math.max(0, fromLine); index < lines.length; index++) {
    const line = lines[index];
    if (!line) continue;
    const red = line.spans.some((span) => isRed(span.style) && span.text.length > 0);
    const rank = errorRank(plainText(line), red);
    if (rank !== undefined && (best === undefined || rank < best)) {
      best = rank;
      found = index;
      if (rank === 0) break;
    }
  }
  return found;
}

/** `position`, or `end` when an `indexOf` found nothing (-1). */
export function positionOrEnd(position: number, end: number): number {
  return position < 0 ? end : position;
}

/** `HH:MM:SS.mmm` (UTC) of a runner timestamp in epoch milliseconds, as the gutter and the tail show it. */
export function clockTime(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(11, 23);
}
