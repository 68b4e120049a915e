import * as z from 'zod';
import { CommonPageMessageSchemas } from '../../../webviews/shared/pageMessages';

/** Actions the panel's header offers: job changes run the jobs feature's flow, as the job commands do. */
export const JOB_PANEL_ACTIONS = [
  'retry',
  'cancel',
  'play',
  'erase',
  'downloadArtifacts',
  'openInBrowser',
] as const;
export type JobPanelAction = (typeof JOB_PANEL_ACTIONS)[number];

/** What the page may ask of the host. Anything else is rejected before the host acts. */
export const JobTracePageMessageSchema = z.discriminatedUnion('type', [
  ...CommonPageMessageSchemas,
  z.strictObject({ type: z.literal('action'), action: z.enum(JOB_PANEL_ACTIONS) }),
  /** Copies the whole trace as plain text (escape codes removed). */
  z.strictObject({ type: z.literal('copy') }),
  /** Saves the raw trace (escape codes kept) to a file the user picks. */
  z.strictObject({ type: z.literal('saveRaw') }),
  /** Streams the trace into an output channel as well. */
  z.strictObject({ type: z.literal('tail') }),
  /** The page has drawn the snapshot's first piece: the host sends the rest of the trace now. */
  z.strictObject({ type: z.literal('snapshotDrawn') }),
  /** The page has parsed (or dropped) an `append`: the host may send another. */
  z.strictObject({ type: z.literal('parsed') }),
]);

export type JobTracePageMessage = z.infer<typeof JobTracePageMessageSchema>;

/** The job as the page shows it; every string is server text the page renders with textContent. */
export interface JobView {
  id: number;
  name: string;
  stage: string;
  status: string;
  statusLabel: string;
  statusCodicon: string;
  ref: string;
  projectPath: string;
  duration: string;
  /** Which header buttons the job's state allows. */
  actions: Record<JobPanelAction, boolean>;
}

export type JobTraceHostMessage =
  /** The whole state, in answer to `ready` (the page may have been reloaded). */
  | {
      type: 'snapshot';
      job: JobView;
      bytes: Uint8Array;
      following: boolean;
      /** `forge.trace.showTimestamps`: the runner's timestamps in a gutter, when the trace has them. */
      showTimestamps: boolean;
      /** `terminal.integrated.drawBoldTextInBrightColors`. */
      boldBright: boolean;
      /** The first read of the trace is still going (the page says so, with `progress`). */
      reading: boolean;
    }
  /** How much of the trace the first read has received; `done` once it has all of it (or failed). */
  | { type: 'progress'; receivedBytes: number; done: boolean }
  /**
   * New trace text, as UTF-8 (whole characters), gzipped when `gzip`; with `replaced`, the whole
   * trace replacing what the page has. Bytes cross to the page as a buffer of their own, outside
   * the JavaScript heap that the page shares with the workbench; a string would be parsed and
   * copied there on every hop.
   */
  | { type: 'append'; bytes: Uint8Array; replaced: boolean; gzip: boolean }
  | { type: 'job'; job: JobView; following: boolean }
  /**
   * The job has ended and the page has all of its trace: it moves to the first error when
   * `forge.trace.openAt` asks for it and the reader has not moved away from the end.
   */
  | { type: 'complete'; openAt: 'end' | 'firstError' }
  /** A problem the page shows in its header (polling failed, an action failed); empty clears it. */
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; message: string };
