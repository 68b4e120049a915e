import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';
import { UserSchema } from './user';

export const AwardEmojiSchema = z.looseObject({
  id: IdSchema,
  /** Emoji name without colons, e.g. `thumbsup`. */
  name: z.string(),
  user: UserSchema,
  awardable_id: IdSchema.optional(),
  /** Issue, MergeRequest, Snippet, Note; spelling varies between servers. */
  awardable_type: z.string().optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
});
export type AwardEmoji = z.infer<typeof AwardEmojiSchema>;
