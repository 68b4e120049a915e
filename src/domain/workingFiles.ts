/**
 * A merge request's head file and the same file as it is in the working tree (local edits, maybe
 * unsaved): which working line a head line is now (a thread's line after local edits moved it, or
 * none when the line was changed or removed), which head line a working line was (a new thread
 * started on the working file), and the local edits as GitLab suggestions on the head's lines.
 */
import { diffArrays } from 'diff';

/** Lines of a text as the editor numbers them (a final newline ends the last line, it adds none). */
export function textLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

/** A run of head lines replaced by working lines (1-based, inclusive; an empty run has `last` = `first` - 1). */
export interface LineEdit {
  headFirst: number;
  headLast: number;
  workingFirst: number;
  workingLast: number;
  /** The working lines that replace the head's. */
  lines: string[];
}

/**
 * The two texts side by side: the runs of lines that differ. Above this many lines in either text
 * the comparison is not made (jsdiff's cost grows with the product of the differences).
 */
export const MAX_COMPARED_LINES = 50_000;

export function lineEdits(headText: string, workingText: string): LineEdit[] | undefined {
  const head = textLines(headText);
  const working = textLines(workingText);
  if (head.length > MAX_COMPARED_LINES || working.length > MAX_COMPARED_LINES) return undefined;
  const edits: LineEdit[] = [];
  let headLine = 1;
  let workingLine = 1;
  let open: LineEdit | undefined;
  for (const part of diffArrays(head, working)) {
    const count = part.value.length;
    if (!part.added && !part.removed) {
      if (open) edits.push(open);
      open = undefined;
      headLine += count;
      workingLine += count;
      continue;
    }
    open ??= {
      headFirst: headLine,
      headLast: headLine - 1,
      workingFirst: workingLine,
      workingLast: workingLine - 1,
      lines: [],
    };
    if (part.removed) {
      open.headLast += count;
      headLine += count;
    } else {
      open.workingLast += count;
      open.lines.push(...part.value);
      workingLine += count;
    }
  }
  if (open) edits.push(open);
  return edits;
}

/** The working line head line `line` is now, or undefined when an edit changed or removed it. */
export function workingLineOf(edits: readonly LineEdit[], line: number): number | undefined {
  let shift = 0;
  for (const edit of edits) {
    if (line < edit.headFirst) break;
    if (line <= edit.headLast) return undefined;
    shift += edit.workingLast - edit.workingFirst - (edit.headLast - edit.headFirst);
  }
  return line + shift;
}

/** The head line working line `line` was, or undefined for a line the edits added or changed. */
export function headLineOf(edits: readonly LineEdit[], line: number): number | undefined {
  let shift = 0;
  for (const edit of edits) {
    if (line < edit.workingFirst) break;
    if (line <= edit.workingLast) return undefined;
    shift += edit.headLast - edit.headFirst - (edit.workingLast - edit.workingFirst);
  }
  return line + shift;
}

/** A suggestion on the head's lines `first`..`last`: the comment goes on `last`, as GitLab's multi-line suggestions do. */
export interface LineSuggestion {
  first: number;
  last: number;
  /** The comment's Markdown: a ```suggestion block (GitLab's `:-N+0` for several lines). */
  body: string;
}

/** A fence longer than any run of backticks in the text, so the suggested code cannot close it. */
function fenceFor(lines: readonly string[]): string {
  let longest = 2;
  for (const line of lines) {
    for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  }
  return '`'.repeat(longest + 1);
}

function suggestionBody(first: number, last: number, lines: readonly string[]): string {
  const fence = fenceFor(lines);
  const above = last - first;
  const header = above > 0 ? `${fence}suggestion:-${above}+0` : `${fence}suggestion`;
  return [header, ...lines, fence].join('\n');
}

/**
 * The working file's edits as suggestions on the head's lines: a changed or removed run is
 * suggested on its own lines; lines added between two head lines are suggested on the line above
 * them (that line and the new ones), or on the first line when they come before it.
 */
export function editsToSuggestions(headText: string, workingText: string): LineSuggestion[] | undefined {
  const edits = lineEdits(headText, workingText);
  if (!edits) return undefined;
  const head = textLines(headText);
  return edits.map((edit) => {
    if (edit.headLast >= edit.headFirst)
      return {
        first: edit.headFirst,
        last: edit.headLast,
        body: suggestionBody(edit.headFirst, edit.headLast, edit.lines),
      };
    // Only additions: the line above keeps its text and the new lines follow it.
    if (edit.headFirst > 1) {
      const line = edit.headFirst - 1;
      const lines = [head[line - 1] ?? '', ...edit.lines];
      return { first: line, last: line, body: suggestionBody(line, line, lines) };
    }
    const lines = [...edit.lines, head[0] ?? ''];
    return { first: 1, last: 1, body: suggestionBody(1, 1, lines) };
  });
}
