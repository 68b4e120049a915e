import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';

export const BroadcastMessageSchema = z.looseObject({
  id: IdSchema,
  message: z.string(),
  starts_at: TimestampSchema.nullish(),
  ends_at: TimestampSchema.nullish(),
  /** Background colour as a hex code. */
  color: z.string().nullish(),
  /** Foreground colour as a hex code. */
  font: z.string().nullish(),
  active: z.boolean().optional(),
});
export type BroadcastMessage = z.infer<typeof BroadcastMessageSchema>;
