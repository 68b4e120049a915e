import * as z from 'zod';
import type {
  GraphDownstream,
  GraphStage,
  GraphStatus,
  NodeChange,
  PipelineGraph,
} from '../../../domain/pipelineGraph';
import { CommonPageMessageSchemas } from '../../../webviews/shared/pageMessages';

const JobIdSchema = z.number().int().positive();

/** What the graph's page may ask of the host. Ids are checked against the graph the host drew. */
export const PipelineGraphPageMessageSchema = z.discriminatedUnion('type', [
  ...CommonPageMessageSchemas,
  /** A node was clicked (or Enter pressed on it): the job's trace panel. */
  z.strictObject({ type: z.literal('openJob'), jobId: JobIdSchema }),
  /** A node's action button: the one action its state allows. */
  z.strictObject({
    type: z.literal('jobAction'),
    jobId: JobIdSchema,
    action: z.enum(['retry', 'play', 'cancel']),
  }),
  /** A downstream pipeline: its graph (same project) or its page (another project). */
  z.strictObject({ type: z.literal('openDownstream'), pipelineId: JobIdSchema }),
  /** The header's buttons. */
  z.strictObject({
    type: z.literal('pipelineAction'),
    action: z.enum(['retry', 'cancel', 'openInBrowser', 'refresh']),
  }),
]);

export type PipelineGraphPageMessage = z.infer<typeof PipelineGraphPageMessageSchema>;

/** The pipeline as the header shows it; strings are server text the page writes with textContent. */
export interface PipelineHeader extends GraphStatus {
  pipelineId: number;
  projectPath: string;
  ref: string;
  /** Source, who, when, how long: already in words. */
  details: string;
  /** The header buttons the pipeline's state allows. */
  actions: { retry: boolean; cancel: boolean; openInBrowser: boolean };
  /** Still running: the graph follows it. */
  live: boolean;
}

export type PipelineGraphHostMessage =
  /** The whole graph: in answer to `ready`, and when its shape changed (a job came or went). */
  | { type: 'snapshot'; header: PipelineHeader; graph: PipelineGraph }
  /** A live update: only what changed, drawn in place. */
  | {
      type: 'update';
      header: PipelineHeader;
      nodes: NodeChange[];
      stages: GraphStage[];
      downstream: GraphDownstream[];
    }
  /** A node's action is on its way (`busy`) or done. */
  | { type: 'busy'; jobId: number; busy: boolean }
  /** A problem the page shows in its header (reading failed, an action failed); empty clears it. */
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; message: string };
