/*
 * Messages between the trace page and its worker. The worker keeps the trace (parsed, folded,
 * searched); the page keeps only the rows around the viewport, asked for as the user scrolls.
 * Messages on one side are handled in the order they were sent, so a change the worker reports
 * always reaches the page after the rows it makes stale.
 */
import type { TraceRowView } from '../../../../domain/trace/traceRows';

export type TraceWorkerRequest =
  /** The sections folded or unfolded before the page was reloaded; sent first. */
  | { type: 'toggles'; toggles: [number, boolean][] }
  /**
   * Trace text as UTF-8, gzipped when `gzip`; with `replace`, the trace starts over with it. `id`
   * comes back in `done`.
   */
  | { type: 'feed'; bytes: Uint8Array; replace: boolean; gzip: boolean; id: number }
  | { type: 'rows'; first: number; last: number }
  | { type: 'toggle'; line: number }
  | { type: 'search'; query: string; seq: number }
  /** Unfolds what hides the `value`-th match (or the first error line) and says where it is. */
  | { type: 'reveal'; target: 'match' | 'firstError'; value: number; seq: number };

export type TraceWorkerReply =
  | {
      type: 'progress';
      rowCount: number;
      lineCount: number;
      parsedBytes: number;
      /** Rows from here on are new or drawn differently: the page drops its copies of them. */
      changedFrom: number;
      /** Feeds parsed (or dropped because the text started over). */
      done: number[];
      /** Whether text is still waiting to be parsed. */
      busy: boolean;
      /** Sections folded or unfolded by the user, for the page's saved state. */
      toggles?: [number, boolean][];
    }
  | { type: 'rows'; first: number; rows: TraceRowView[] }
  | { type: 'searched'; seq: number; count: number }
  /** `line` -1: nothing to reveal (no such match, no error line). */
  | { type: 'revealed'; seq: number; line: number; row: number }
  /** Text that could not be read (a piece that does not inflate): left out, and reported. */
  | { type: 'failed'; message: string };
