import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';
import { UserSchema } from './user';

/**
 * An SSH key. `GET /keys/:id` embeds the owner; a user's key list and project deploy keys
 * (which add `can_push`) do not.
 */
export const SshKeySchema = z.looseObject({
  id: IdSchema,
  title: z.string(),
  /** The public key text. */
  key: z.string(),
  created_at: TimestampSchema.optional(),
  expires_at: TimestampSchema.nullish(),
  user: UserSchema.optional(),
});
export type SshKey = z.infer<typeof SshKeySchema>;
