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

/** Where a piece of `size` characters from `start` ends without cutting a surrogate pair in two. */
export function pieceEnd(text: string, start: number, size: number): number {
  const end = Math.min(text.length, start + Math.max(2, size));
  const last = text.charCodeAt(end - 1);
  return end < text.length && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
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
 * A line reads as an error when it contains the whole word `error`, `failed` or `fatal` in any
 * case (`ERROR: Job failed: exit code 1`, `fatal: repository not found`), unless the word follows
 * `0 ` or `no ` (`3 passed, 0 failed`). `errors` and `npm ERR!` are not matched.
 * Words inside identifiers (`-Werror`, `error_log`) do not count. Simple by design: it picks
 * where to scroll, it does not judge the job.
 */
export const ERROR_WORD = /(?<!\b(?:0|no) )\b(?:error|failed|fatal)\b/i;

/** Index of the first line (from `fromLine`) that looks like an error, or -1. */
export function findFirstError(lines: readonly TraceLine[], fromLine = 0): number {
  for (let index = Math.max(0, fromLine); index < lines.length; index++) {
    const line = lines[index];
    if (line && ERROR_WORD.test(plainText(line))) return index;
  }
  return -1;
}
