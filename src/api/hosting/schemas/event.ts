import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';
import { NoteSchema } from './note';
import { UserSchema } from './user';

/** The push payload some servers put in `data` of a push event. */
export const PushEventDataSchema = z.looseObject({
  before: z.string().optional(),
  after: z.string().optional(),
  ref: z.string().optional(),
  user_id: IdSchema.optional(),
  user_name: z.string().optional(),
  repository: z
    .looseObject({
      name: z.string().optional(),
      url: z.string().optional(),
      description: z.string().nullish(),
      homepage: z.string().optional(),
    })
    .optional(),
  commits: z
    .array(
      z.looseObject({
        id: z.string(),
        message: z.string().optional(),
        timestamp: TimestampSchema.optional(),
        url: z.string().optional(),
        author: z.looseObject({ name: z.string().optional(), email: z.string().optional() }).optional(),
      }),
    )
    .optional(),
  total_commits_count: z.number().int().optional(),
});
export type PushEventData = z.infer<typeof PushEventDataSchema>;

/** The summary of a push that newer servers send as `push_data`. */
export const PushDataSchema = z.looseObject({
  commit_count: z.number().int().optional(),
  /** pushed, created, removed */
  action: z.string().optional(),
  ref_type: z.string().optional(),
  commit_from: z.string().nullish(),
  commit_to: z.string().nullish(),
  ref: z.string().nullish(),
  commit_title: z.string().nullish(),
});
export type PushData = z.infer<typeof PushDataSchema>;

/**
 * One entry of a project's activity feed (`GET /projects/:id/events`); user contribution events
 * have the same shape.
 */
export const ProjectEventSchema = z.looseObject({
  // Some servers leave the event's own id out; the feed is read newest first, not by id.
  id: IdSchema.optional(),
  title: z.string().nullish(),
  project_id: IdSchema.nullish(),
  /** opened, closed, pushed, commented on ... */
  action_name: z.string(),
  target_id: IdSchema.nullish(),
  target_iid: IdSchema.nullish(),
  /** Issue, Note, MergeRequest ...; null for pushes. */
  target_type: z.string().nullish(),
  target_title: z.string().nullish(),
  author_id: IdSchema,
  author: UserSchema,
  author_username: z.string().optional(),
  created_at: TimestampSchema.optional(),
  data: PushEventDataSchema.nullish(),
  push_data: PushDataSchema.optional(),
  /** Present on comment events. */
  note: NoteSchema.optional(),
});
export type ProjectEvent = z.infer<typeof ProjectEventSchema>;
