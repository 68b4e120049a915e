/** What the trace parser gives: lines of styled spans, sections, and what changed with each push. */
import type { TraceStyle } from './traceStyle';

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
  /** The runner's timestamp of the line (`FF_TIMESTAMPS`, GitLab Runner 17+), as written; absent without one. */
  readonly time?: string;
}

export interface TraceDelta {
  /** Lines from this index on are new or changed: drop them from your copy and append `lines`. */
  readonly firstChangedLine: number;
  /** `parser.lines.slice(firstChangedLine)`; without `retainLines`, `parser.lines` itself. */
  readonly lines: readonly TraceLine[];
  /** False when the last line is still open and may change on the next push. */
  readonly lastLineComplete: boolean;
  /** Sections opened, closed or given their header during this push. */
  readonly changedSections: readonly TraceSection[];
}

export interface TraceParserOptions {
  /**
   * Keep every completed line in `lines` and every section in `sections` (default true: the trace
   * view draws any of them). False: `lines` holds only the lines of the latest push (`firstLineIndex`
   * is the trace index of its first) and `sections` only the open ones, so a consumer that takes
   * each line once (the output-channel tail) holds memory for the open line only.
   */
  retainLines?: boolean;
  /**
   * Apply SGR colours and text attributes (default true). False: escape sequences are still
   * removed, but every span has `DEFAULT_STYLE`; for plain-text output, which never reads styles.
   */
  styles?: boolean;
}
