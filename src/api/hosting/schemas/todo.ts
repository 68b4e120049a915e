import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';
import { ProjectSchema } from './project';
import { UserSchema } from './user';

/**
 * What a todo points at: a merge request or issue object, but a commit for some todo types, whose
 * id is the commit hash. Only what the todo list displays is validated.
 */
export const TodoTargetSchema = z.looseObject({
  id: z.union([IdSchema, z.string()]),
  iid: IdSchema.optional(),
  title: z.string().optional(),
  state: z.string().optional(),
  web_url: z.string().optional(),
});
export type TodoTarget = z.infer<typeof TodoTargetSchema>;

export const TodoSchema = z.looseObject({
  id: IdSchema,
  /** pending or done. */
  state: z.string(),
  /** assigned, mentioned, build_failed, marked, approval_required ... */
  action_name: z.string().optional(),
  /** Issue, MergeRequest, and more on newer servers. */
  target_type: z.string().optional(),
  body: z.string().optional(),
  target: TodoTargetSchema.nullish(),
  target_url: z.string().optional(),
  /** Null for todos on group-level items. */
  project: ProjectSchema.nullish(),
  author: UserSchema.optional(),
  created_at: TimestampSchema.optional(),
});
export type Todo = z.infer<typeof TodoSchema>;
