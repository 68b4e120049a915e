import * as z from 'zod';
import { IdSchema } from './common';

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
