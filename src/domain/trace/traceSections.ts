/**
 * The collapsible sections of a trace as the parser meets their markers: which are open (the
 * depth of each line), which wait for their header line, and which changed in the current push.
 */
import { spansText } from './traceGrammar';
import type { TraceLine, TraceSection, TraceSpan } from './traceModel';
import { flatCopy } from './traceText';

type MutableSection = { -readonly [Key in keyof TraceSection]: TraceSection[Key] };

export class TraceSections {
  private readonly all: MutableSection[] = [];
  private readonly open: MutableSection[] = [];
  /** Sections whose header line is the open line. */
  private awaitingHeader: MutableSection[] = [];
  private changedInPush = new Set<MutableSection>();

  /** `retainAll`: keep every section (for `list`); otherwise only the open ones are kept. */
  constructor(private readonly retainAll: boolean) {}

  /** Every section so far; without `retainAll`, the open ones. */
  get list(): readonly TraceSection[] {
    return this.retainAll ? this.all : this.open;
  }

  /** How many sections the open line is in. */
  get depth(): number {
    return this.open.length;
  }

  /** The section whose header the open line is, if any: the innermost of those opened on it. */
  get header(): TraceSection | undefined {
    return this.awaitingHeader.at(-1);
  }

  get changed(): TraceSection[] {
    return [...this.changedInPush];
  }

  /** A new push starts: nothing has changed in it yet. */
  startPush(): void {
    this.changedInPush = new Set();
  }

  /** A line of `spans` in the open sections; a complete one is the header of those waiting for one. */
  line(spans: TraceSpan[], complete: boolean, time: string | undefined): TraceLine {
    const header = this.header;
    // Its own copy: a header outlives the lines, and must not keep the chunk it was cut from.
    if (header && complete) this.setHeader(flatCopy(spansText(spans)));
    const line: TraceLine = { spans, sectionDepth: this.depth, section: header };
    return time === undefined ? line : { ...line, time };
  }

  /** The open line completed: it is the header of the sections waiting for one. */
  setHeader(text: string): void {
    for (const section of this.awaitingHeader) {
      section.header = text;
      this.changedInPush.add(section);
    }
    this.awaitingHeader = [];
  }

  isOpen(name: string): boolean {
    return this.open.some((section) => section.name === name);
  }

  start(name: string, startedAt: number, collapsed: boolean, startLine: number): void {
    const section: MutableSection = {
      name,
      header: '',
      startLine,
      endLine: undefined,
      startedAt,
      endedAt: undefined,
      durationSeconds: undefined,
      collapsed,
    };
    if (this.retainAll) this.all.push(section);
    this.open.push(section);
    this.awaitingHeader.push(section);
    this.changedInPush.add(section);
  }

  /**
   * Closes the innermost open section of that name and any still open inside it, their last line
   * being `lastLine`; unknown names are ignored.
   */
  end(name: string, endedAt: number, lastLine: number): void {
    let position = this.open.length - 1;
    while (position >= 0 && this.open[position]?.name !== name) position--;
    if (position < 0) return;
    const closing = this.open.splice(position);
    for (const section of closing) {
      // A section that ended before any line completed still owns its header line.
      section.endLine = Math.max(section.startLine, lastLine);
      section.endedAt = endedAt;
      section.durationSeconds = Math.max(0, endedAt - section.startedAt);
      this.changedInPush.add(section);
    }
    this.awaitingHeader = this.awaitingHeader.filter((section) => !closing.includes(section));
  }
}
