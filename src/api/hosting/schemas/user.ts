import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';

/**
 * A user as embedded in other resources (author, assignee, owner ...). Shapes vary from
 * `{id, username, name}` to the full admin view, so only the identity is required.
 */
export const UserSchema = z.looseObject({
  id: IdSchema,
  username: z.string(),
  name: z.string(),
  /** `active` and `blocked` occur; other values are passed on as they come. */
  state: z.string().optional(),
  avatar_url: z.string().nullish(),
  web_url: z.string().optional(),
  created_at: TimestampSchema.nullish(),
  email: z.string().nullish(),
  bio: z.string().nullish(),
  website_url: z.string().nullish(),
  is_admin: z.boolean().optional(),
});
export type User = z.infer<typeof UserSchema>;

/** One row of `GET /projects/:id/users`: always this fixed set of fields. */
export const ProjectMemberSchema = z.looseObject({
  id: IdSchema,
  username: z.string(),
  name: z.string(),
  state: z.string(),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
});
export type ProjectMember = z.infer<typeof ProjectMemberSchema>;
