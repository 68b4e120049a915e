/*
 * A file's diff as rows for the Changes tab's virtual list: one row per line (unified) or per pair
 * of lines (side by side), each with its line numbers, so the page draws only the rows on screen.
 * diff2html parses the diff; jsdiff finds the words that changed between a removed line and the
 * added line paired with it (the i-th removed line of a change with its i-th added line, as
 * diff2html and GitLab pair them).
 */
import { diffWordsWithSpace } from 'diff';
import { parse } from 'diff2html/lib/diff-parser';
import { LineType } from 'diff2html/lib/types';

export type DiffLineKind = 'context' | 'added' | 'removed';

export interface DiffLine {
  kind: DiffLineKind;
  /** Line number in the old file (context and removed lines). */
  oldNumber?: number;
  /** Line number in the new file (context and added lines). */
  newNumber?: number;
  /** The line without its `+`, `-` or space. */
  text: string;
  /** Index (in `lines`) of the line this one is paired with for word highlights. */
  partner?: number;
}

/** A row of the unified view: a hunk header or the index of a line. */
export type UnifiedRow = { hunk: string } | { line: number };

/** A row of the side-by-side view: a hunk header, or the indices of the old and the new line. */
export type SplitRow = { hunk: string } | { old?: number; new?: number };

export interface DiffRows {
  lines: DiffLine[];
  unified: UnifiedRow[];
  split: SplitRow[];
}

/** Lines longer than this get no word highlights (diffing them costs more than it shows). */
export const MAX_HIGHLIGHT_LENGTH = 2000;

/** The rows of a unified diff of one file (`unifiedDiff`); a diff without hunks has none. */
export function diffRows(diff: string): DiffRows {
  const rows: DiffRows = { lines: [], unified: [], split: [] };
  const file = parse(diff)[0];
  if (!file) return rows;
  for (const block of file.blocks) {
    rows.unified.push({ hunk: block.header });
    rows.split.push({ hunk: block.header });
    let removed: number[] = [];
    let added: number[] = [];
    const flushChange = (): void => {
      const pairs = Math.max(removed.length, added.length);
      for (let index = 0; index < pairs; index++) {
        const old = removed[index];
        const next = added[index];
        if (old !== undefined && next !== undefined) {
          (rows.lines[old] as DiffLine).partner = next;
          (rows.lines[next] as DiffLine).partner = old;
        }
        rows.split.push({ old, new: next });
      }
      removed = [];
      added = [];
    };
    for (const source of block.lines) {
      const index = rows.lines.length;
      const text = source.content.slice(1);
      if (source.type === LineType.DELETE) {
        // A removal after additions starts a new change (`+a -b +c` pairs b with c, not a).
        if (added.length > 0) flushChange();
        rows.lines.push({ kind: 'removed', oldNumber: source.oldNumber, text });
        removed.push(index);
      } else if (source.type === LineType.INSERT) {
        rows.lines.push({ kind: 'added', newNumber: source.newNumber, text });
        added.push(index);
      } else {
        flushChange();
        rows.lines.push({
          kind: 'context',
          oldNumber: source.oldNumber,
          newNumber: source.newNumber,
          text,
        });
        rows.split.push({ old: index, new: index });
      }
      rows.unified.push({ line: index });
    }
    flushChange();
  }
  return rows;
}

/** A changed run of a line's text, as [start, end) offsets. */
export type TextRange = [number, number];

/**
 * The changed words of a removed line and of the added line paired with it: ranges of the old text
 * that were removed and of the new text that were added. Lines that share nothing, or are too long
 * to diff, get no ranges (the whole line is already marked by its colour).
 */
export function wordChanges(oldText: string, newText: string): { old: TextRange[]; new: TextRange[] } {
  const none = { old: [], new: [] };
  if (oldText.length > MAX_HIGHLIGHT_LENGTH || newText.length > MAX_HIGHLIGHT_LENGTH) return none;
  const result: { old: TextRange[]; new: TextRange[] } = { old: [], new: [] };
  let oldOffset = 0;
  let newOffset = 0;
  let common = 0;
  for (const part of diffWordsWithSpace(oldText, newText)) {
    const length = part.value.length;
    if (part.removed) {
      result.old.push([oldOffset, oldOffset + length]);
      oldOffset += length;
    } else if (part.added) {
      result.new.push([newOffset, newOffset + length]);
      newOffset += length;
    } else {
      if (part.value.trim() !== '') common += length;
      oldOffset += length;
      newOffset += length;
    }
  }
  return common === 0 ? none : result;
}
