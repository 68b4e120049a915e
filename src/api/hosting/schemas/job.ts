import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';
import { PipelineDetailsSchema, PipelineSchema } from './pipeline';
import { UserSchema } from './user';

/**
 * Job statuses we know by name: the list filter values, `manual`, `started` (the play response)
 * and the newer intermediate states real servers report. The schema still accepts any string so
 * that a server release with a new status does not break the job list.
 */
export const JOB_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'started',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const;
export type KnownJobStatus = (typeof JOB_STATUSES)[number];

export function isKnownJobStatus(status: string): status is KnownJobStatus {
  return (JOB_STATUSES as readonly string[]).includes(status);
}

export const JobCommitSchema = z.looseObject({
  /** The full commit hash. */
  id: z.string(),
  short_id: z.string().optional(),
  title: z.string().optional(),
  message: z.string().optional(),
  author_name: z.string().optional(),
  author_email: z.string().optional(),
  created_at: TimestampSchema.optional(),
});
export type JobCommit = z.infer<typeof JobCommitSchema>;

export const JobArtifactsFileSchema = z.looseObject({
  filename: z.string(),
  size: z.number().int(),
});
export type JobArtifactsFile = z.infer<typeof JobArtifactsFileSchema>;

export const JobSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  stage: z.string(),
  ref: z.string(),
  status: z.string(),
  tag: z.boolean().optional(),
  created_at: TimestampSchema.optional(),
  started_at: TimestampSchema.nullish(),
  finished_at: TimestampSchema.nullish(),
  /** Seconds; fractional on newer servers. */
  duration: z.number().nullish(),
  // Only null is shown in the spec; real servers send a number, older ones a string.
  coverage: z.union([z.number(), z.string()]).nullish(),
  runner: z.looseObject({ id: IdSchema }).nullish(),
  artifacts_file: JobArtifactsFileSchema.nullish(),
  commit: JobCommitSchema.optional(),
  /** Absent from the cancel, retry and play shapes. */
  pipeline: PipelineSchema.optional(),
  user: UserSchema.nullish(),
  /** Present only in erase and keep-artifacts responses. */
  download_url: z.string().nullish(),
  web_url: z.string().optional(),
  allow_failure: z.boolean().optional(),
  failure_reason: z.string().optional(),
  /**
   * The spec shows the job's project; GitLab 14 and later send only `{ci_job_token_scope_enabled}`
   * (its documented job answers): nothing of it is required.
   */
  project: z.looseObject({ id: IdSchema.optional() }).optional(),
});
export type Job = z.infer<typeof JobSchema>;

/**
 * A trigger job (`GET .../pipelines/:id/bridges`): a job that starts a child or downstream pipeline,
 * which `downstream_pipeline` names (null until it was created, or when it could not be).
 */
export const BridgeSchema = JobSchema.extend({
  downstream_pipeline: PipelineDetailsSchema.nullish(),
});
export type Bridge = z.infer<typeof BridgeSchema>;
