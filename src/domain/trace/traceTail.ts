/**
 * A job trace as plain text for an append-only output channel: escape codes stripped, carriage-return
 * progress collapsed to its last state, section headers kept as readable `▸` lines indented by depth.
 * Only complete lines are given out, since appended text cannot be taken back; `finish` adds the open
 * last line once the job has ended. Work per push is proportional to the new text, and memory is
 * bounded by the open line: the parser keeps no line once it has been given out, and no styles. Pure.
 */
import { TraceParser } from './traceParser';
import { clockTime, plainText } from './traceText';

const INDENT = '  ';
/** Indentation by depth, made once. */
const indents: string[] = [''];

function indent(depth: number): string {
  for (let known = indents.length; known <= depth; known++) indents.push(INDENT.repeat(known));
  return indents[depth] ?? '';
}

function plainParser(): TraceParser {
  return new TraceParser({ retainLines: false, styles: false });
}

export interface TracePlainTailOptions {
  /** Put the runner's timestamp of a line (FF_TIMESTAMPS) in front of it, as `[11:19:19.899] `. */
  timestamps?: boolean;
}

/** `[HH:MM:SS.mmm] ` (UTC) for a line with a runner timestamp, '' otherwise. */
function timePrefix(time: string | undefined): string {
  if (time === undefined) return '';
  const parsed = Date.parse(time);
  return Number.isNaN(parsed) ? '' : `[${clockTime(parsed)}] `;
}

export class TracePlainTail {
  private parser = plainParser();

  constructor(private readonly options: TracePlainTailOptions = {}) {}
  /** Lines already given out (an index into the whole trace). */
  private emitted = 0;

  /** Feeds new trace text; returns the text to append (possibly empty). */
  push(chunk: string): string {
    const delta = this.parser.push(chunk);
    const complete = delta.firstChangedLine + delta.lines.length - (delta.lastLineComplete ? 0 : 1);
    return this.emit(complete);
  }

  /** The trace was rewritten (erased, or the job retried): start over. */
  reset(): void {
    this.parser = plainParser();
    this.emitted = 0;
  }

  /** Everything not given out yet, the open last line included. */
  finish(): string {
    return this.emit(this.parser.firstLineIndex + this.parser.lines.length);
  }

  /** Lines up to `upTo` (exclusive); the parser holds those of its latest push. */
  private emit(upTo: number): string {
    const lines = this.parser.lines;
    const first = this.parser.firstLineIndex;
    let text = '';
    for (let index = Math.max(this.emitted, first); index < upTo; index++) {
      const line = lines[index - first];
      if (!line) continue;
      const spans = line.spans;
      const content = spans.length === 1 ? (spans[0]?.text ?? '') : plainText(line);
      const time = this.options.timestamps ? timePrefix(line.time) : '';
      if (line.section) {
        const depth = Math.max(0, line.sectionDepth - 1);
        text += `${time}${indent(depth)}▸ ${content.trim() || line.section.name}\n`;
      } else {
        text += `${time}${indent(line.sectionDepth)}${content}\n`;
      }
    }
    this.emitted = Math.max(this.emitted, upTo);
    return text;
  }
}
