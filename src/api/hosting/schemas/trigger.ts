import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';
import { UserSchema } from './user';

export const TriggerSchema = z.looseObject({
  id: IdSchema,
  description: z.string(),
  /** Secret. Newer servers show only a prefix to anyone but the owner. */
  token: z.string().optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
  deleted_at: TimestampSchema.nullish(),
  last_used: TimestampSchema.nullish(),
  owner: UserSchema.nullish(),
});
export type Trigger = z.infer<typeof TriggerSchema>;
