import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';

/**
 * A pipeline as embedded in a job (`{id, ref, sha, status}`). The full pipeline record carries
 * more (web_url, user, detailed_status ...) and parses with this schema as well.
 */
export const PipelineSchema = z.looseObject({
  id: IdSchema,
  ref: z.string(),
  sha: z.string(),
  /** Same vocabulary as job statuses; unknown values are kept, not rejected. */
  status: z.string(),
  web_url: z.string().optional(),
});
export type Pipeline = z.infer<typeof PipelineSchema>;

/** GitLab's status for display: `group` is the status (`success-with-warnings` too), `text` the word it shows. */
export const DetailedStatusSchema = z.looseObject({
  icon: z.string().nullish(),
  text: z.string().nullish(),
  label: z.string().nullish(),
  group: z.string().nullish(),
  tooltip: z.string().nullish(),
});

/**
 * A pipeline of `GET /projects/:id/pipelines` (GitLab's PipelineBasic) or of one pipeline's own
 * endpoint (who, when, how long, `detailed_status`): beyond the seed spec, GitLab 8.11 and later;
 * `name` since 16.3, `source` on every current server. Only what a row needs is required.
 */
export const PipelineDetailsSchema = PipelineSchema.extend({
  iid: z.number().int().nullish(),
  project_id: IdSchema.nullish(),
  source: z.string().nullish(),
  name: z.string().nullish(),
  web_url: z.string().nullish(),
  created_at: TimestampSchema.nullish(),
  updated_at: TimestampSchema.nullish(),
  started_at: TimestampSchema.nullish(),
  finished_at: TimestampSchema.nullish(),
  duration: z.number().nullish(),
  queued_duration: z.number().nullish(),
  coverage: z.string().nullish(),
  yaml_errors: z.string().nullish(),
  user: z.looseObject({ id: IdSchema, username: z.string(), name: z.string().nullish() }).nullish(),
  detailed_status: DetailedStatusSchema.nullish(),
});
export type PipelineDetails = z.infer<typeof PipelineDetailsSchema>;

/** A variable a pipeline was created with (`GET .../pipelines/:id/variables`). */
export const PipelineVariableSchema = z.looseObject({
  key: z.string(),
  value: z.string().nullish(),
  variable_type: z.string().nullish(),
});
export type PipelineVariable = z.infer<typeof PipelineVariableSchema>;

/** `GET .../pipelines/:id/test_report_summary`: the totals of the pipeline's test reports. */
export const TestReportSummarySchema = z.looseObject({
  total: z.looseObject({
    time: z.number().nullish(),
    count: z.number().int(),
    success: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    error: z.number().int(),
    suite_error: z.string().nullish(),
  }),
  test_suites: z.array(z.looseObject({ name: z.string() })).nullish(),
});
export type TestReportSummary = z.infer<typeof TestReportSummarySchema>;
