import * as z from 'zod';
import { TimestampSchema } from './common';

/**
 * The head commit of a branch. Older servers send `{id, message, parents, author: {...}}`
 * without short_id or title, so only the hash is required.
 */
export const BranchCommitSchema = z.looseObject({
  id: z.string(),
  short_id: z.string().optional(),
  title: z.string().optional(),
  message: z.string().optional(),
  author_name: z.string().optional(),
  author_email: z.string().optional(),
  authored_date: TimestampSchema.optional(),
  committer_name: z.string().optional(),
  committer_email: z.string().optional(),
  committed_date: TimestampSchema.optional(),
  parent_ids: z.array(z.string()).optional(),
});
export type BranchCommit = z.infer<typeof BranchCommitSchema>;

export const BranchSchema = z.looseObject({
  name: z.string(),
  commit: BranchCommitSchema,
  // Older servers omit the flags below in list responses.
  merged: z.boolean().optional(),
  protected: z.boolean().optional(),
  default: z.boolean().optional(),
  developers_can_push: z.boolean().optional(),
  developers_can_merge: z.boolean().optional(),
  can_push: z.boolean().optional(),
  web_url: z.string().optional(),
});
export type Branch = z.infer<typeof BranchSchema>;

const AccessLevelSchema = z.looseObject({
  access_level: z.number().int(),
  access_level_description: z.string().optional(),
});

/** `GET /projects/:id/protected_branches`: who may push and merge, no commit. */
export const ProtectedBranchSchema = z.looseObject({
  name: z.string(),
  push_access_levels: z.array(AccessLevelSchema).optional(),
  merge_access_levels: z.array(AccessLevelSchema).optional(),
});
export type ProtectedBranch = z.infer<typeof ProtectedBranchSchema>;
