import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';

/** A system hook. The secret `token` given at creation is never returned. */
export const SystemHookSchema = z.looseObject({
  id: IdSchema,
  url: z.string(),
  created_at: TimestampSchema.optional(),
  push_events: z.boolean().optional(),
  tag_push_events: z.boolean().optional(),
  enable_ssl_verification: z.boolean().optional(),
});
export type SystemHook = z.infer<typeof SystemHookSchema>;

/** `GET /hooks/:id` answers with a sample event, not the hook. */
export const SystemHookTestSchema = z.looseObject({
  project_id: IdSchema,
  owner_email: z.string(),
  owner_name: z.string(),
  name: z.string(),
  path: z.string(),
  /** For example `project_create`. */
  event_name: z.string(),
});
export type SystemHookTest = z.infer<typeof SystemHookTestSchema>;
