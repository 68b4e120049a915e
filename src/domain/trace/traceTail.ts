/**
 * A job trace as plain text for an append-only output channel: escape codes stripped, carriage-return
 * progress collapsed to its last state, section headers kept as readable `▸` lines indented by depth.
 * Only complete lines are given out, since appended text cannot be taken back; `finish` adds the open
 * last line once the job has ended. Work per push is proportional to the new text. Pure.
 */
import { TraceParser } from './traceParser';
import { plainText } from './traceText';

const INDENT = '  ';

export class TracePlainTail {
  private parser = new TraceParser();
  /** Lines already given out. */
  private emitted = 0;

  /** Feeds new trace text; returns the text to append (possibly empty). */
  push(chunk: string): string {
    const delta = this.parser.push(chunk);
    const complete = this.parser.lines.length - (delta.lastLineComplete ? 0 : 1);
    return this.emit(complete);
  }

  /** The trace was rewritten (erased, or the job retried): start over. */
  reset(): void {
    this.parser = new TraceParser();
    this.emitted = 0;
  }

  /** Everything not given out yet, the open last line included. */
  finish(): string {
    return this.emit(this.parser.lines.length);
  }

  private emit(upTo: number): string {
    const lines = this.parser.lines;
    let text = '';
    for (let index = this.emitted; index < upTo; index++) {
      const line = lines[index];
      if (!line) continue;
      const content = plainText(line);
      if (line.section) {
        const depth = Math.max(0, line.sectionDepth - 1);
        text += `${INDENT.repeat(depth)}▸ ${content.trim() || line.section.name}\n`;
      } else {
        text += `${INDENT.repeat(line.sectionDepth)}${content}\n`;
      }
    }
    this.emitted = Math.max(this.emitted, upTo);
    return text;
  }
}
