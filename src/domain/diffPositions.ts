/**
 * Where a comment on a diff can go, as GitLab judges it: only on a line the diff shows (an added,
 * a removed or an unchanged line of a hunk); anywhere else the server answers 400 ("must be a valid
 * line code"). A comment's position names the line on its side: `new_line` for an added line,
 * `old_line` for a removed one, both for an unchanged one.
 */

export type DiffSide = 'base' | 'head';

/** The lines of each side the diff shows (1-based), and the other side's number of each unchanged line. */
export interface ShownLines {
  base: Map<number, number | undefined>;
  head: Map<number, number | undefined>;
}

/**
 * Each line a unified diff's hunks show: removed (`old`), added (`new`) or unchanged, with the old
 * and new line counters where it stands (a removed line's new counter is the next new line, and so
 * on). The `--- a/…` and `+++ b/…` headers are no lines.
 */
function* hunkLines(
  diff: string,
): Generator<{ kind: 'old' | 'new' | 'context'; oldLine: number; newLine: number }> {
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const text of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
    } else if (!inHunk) continue;
    else if (text.startsWith('-')) yield { kind: 'old', oldLine: oldLine++, newLine };
    else if (text.startsWith('+')) yield { kind: 'new', oldLine, newLine: newLine++ };
    else if (text.startsWith(' ')) yield { kind: 'context', oldLine: oldLine++, newLine: newLine++ };
  }
}

export function shownLines(diff: string): ShownLines {
  const shown: ShownLines = { base: new Map(), head: new Map() };
  for (const { kind, oldLine, newLine } of hunkLines(diff)) {
    if (kind !== 'new') shown.base.set(oldLine, kind === 'context' ? newLine : undefined);
    if (kind !== 'old') shown.head.set(newLine, kind === 'context' ? oldLine : undefined);
  }
  return shown;
}

/** The lines of `side` that can take a comment, as 1-based ranges `[first, last]`. */
export function commentableRanges(diff: string, side: DiffSide): [number, number][] {
  const lines = [...shownLines(diff)[side].keys()].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const line of lines) {
    const last = ranges.at(-1);
    if (last && last[1] === line - 1) last[1] = line;
    else ranges.push([line, line]);
  }
  return ranges;
}

/** The position's line fields for a comment on `line` (1-based) of `side`; undefined off the diff. */
export function linePosition(
  diff: string,
  side: DiffSide,
  line: number,
): { old_line?: number; new_line?: number } | undefined {
  const lines = shownLines(diff)[side];
  if (!lines.has(line)) return undefined;
  const other = lines.get(line);
  if (side === 'head') return other === undefined ? { new_line: line } : { old_line: other, new_line: line };
  return other === undefined ? { old_line: line } : { old_line: line, new_line: other };
}

/** Where a diff note sits: on the head side when it names a new line, else on the base side. */
export function noteSide(position: {
  old_line?: number | null;
  new_line?: number | null;
}): { side: DiffSide; line: number } | undefined {
  if (isLineNumber(position.new_line)) return { side: 'head', line: position.new_line };
  if (isLineNumber(position.old_line)) return { side: 'base', line: position.old_line };
  return undefined;
}

/** A line of a file as positions count them: a whole number from 1 (a server may send 0 or less). */
export function isLineNumber(line: unknown): line is number {
  return typeof line === 'number' && Number.isSafeInteger(line) && line >= 1;
}

export interface NotePlace {
  path: string;
  line: number;
  side: DiffSide;
  /** Written on another head than the diff's: its line is in the version it was written on. */
  outdated: boolean;
}

/** Where a diff note is, for a link to its line; undefined for a note that is not on a line. */
export function notePlace(
  position:
    | {
        old_path: string;
        new_path: string;
        old_line?: number | null;
        new_line?: number | null;
        head_sha: string;
      }
    | null
    | undefined,
  headSha: string | undefined,
): NotePlace | undefined {
  const where = position && noteSide(position);
  if (!position || !where) return undefined;
  return {
    path: where.side === 'head' ? position.new_path : position.old_path,
    line: where.line,
    side: where.side,
    outdated: position.head_sha !== headSha,
  };
}

/** One end of a range comment (`position[line_range][start|end]`), as GitLab takes it. */
export interface LineRangeEnd {
  /** `<sha1 of the path>_<old line>_<new line>`: the other side's counter where the line has none. */
  line_code: string;
  type: 'new' | 'old' | null;
  old_line: number | null;
  new_line: number | null;
}

/** The range end for `line` (1-based) of `side`; undefined when the diff does not show it. */
export function lineRangeEnd(
  diff: string,
  side: DiffSide,
  line: number,
  pathHash: string,
): LineRangeEnd | undefined {
  for (const { kind, oldLine, newLine } of hunkLines(diff)) {
    if (kind === (side === 'head' ? 'old' : 'new')) continue;
    if ((side === 'head' ? newLine : oldLine) !== line) continue;
    return {
      line_code: `${pathHash}_${oldLine}_${newLine}`,
      type: kind === 'context' ? null : kind,
      old_line: kind === 'new' ? null : oldLine,
      new_line: kind === 'old' ? null : newLine,
    };
  }
  return undefined;
}
