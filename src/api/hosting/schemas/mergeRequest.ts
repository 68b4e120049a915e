import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';
import { MilestoneSchema } from './issue';
import { UserSchema } from './user';

export const MergeRequestSchema = z.looseObject({
  id: IdSchema,
  iid: IdSchema,
  project_id: IdSchema,
  title: z.string(),
  /** opened, closed, merged; one sample shows reopened, so any string is kept. */
  state: z.string(),
  source_branch: z.string(),
  target_branch: z.string(),
  author: UserSchema,
  source_project_id: IdSchema.optional(),
  target_project_id: IdSchema.optional(),
  description: z.string().nullish(),
  sha: z.string().nullish(),
  /** May be absent or null when nobody is assigned. */
  assignee: UserSchema.nullish(),
  assignees: z.array(UserSchema).optional(),
  labels: z.array(z.string()).optional(),
  milestone: MilestoneSchema.nullish(),
  work_in_progress: z.boolean().optional(),
  draft: z.boolean().optional(),
  merge_when_pipeline_succeeds: z.boolean().optional(),
  /** can_be_merged, cannot_be_merged, unchecked ... */
  merge_status: z.string().optional(),
  subscribed: z.boolean().optional(),
  merge_commit_sha: z.string().nullish(),
  // The spec says boolean; a documented sample sends null for "not set".
  should_remove_source_branch: z.boolean().nullish(),
  force_remove_source_branch: z.boolean().nullish(),
  upvotes: z.number().int().optional(),
  downvotes: z.number().int().optional(),
  user_notes_count: z.number().int().optional(),
  web_url: z.string().optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
  /** GitLab 15.6+: why it cannot merge (`need_rebase`, `not_approved` …), beyond the seed spec. */
  detailed_merge_status: z.string().nullish(),
  /** Only when asked with `include_rebase_in_progress=true`. */
  rebase_in_progress: z.boolean().optional(),
  /** The pipeline of the head; a single merge request's read has it. */
  head_pipeline: z.looseObject({ id: IdSchema, status: z.string().optional() }).nullish(),
  /** Why the last rebase or merge failed. */
  merge_error: z.string().nullish(),
});
export type MergeRequest = z.infer<typeof MergeRequestSchema>;

/** One file of a merge request diff; the diff model relies on every field here. */
export const MergeRequestDiffSchema = z.looseObject({
  old_path: z.string(),
  new_path: z.string(),
  /** Null in GitLab's documented commit diff and comparison. */
  a_mode: z.string().nullish(),
  b_mode: z.string().nullish(),
  /** Unified diff text of the file, without the `diff --git` header. */
  diff: z.string(),
  new_file: z.boolean(),
  renamed_file: z.boolean(),
  deleted_file: z.boolean(),
});
export type MergeRequestDiff = z.infer<typeof MergeRequestDiffSchema>;

/** `GET .../merge_requests/:iid/changes`: the merge request plus its file diffs. */
export const MergeRequestChangesSchema = MergeRequestSchema.extend({
  changes: z.array(MergeRequestDiffSchema),
});
export type MergeRequestChanges = z.infer<typeof MergeRequestChangesSchema>;

export const MergeRequestCommitSchema = z.looseObject({
  id: z.string(),
  short_id: z.string(),
  title: z.string(),
  message: z.string().optional(),
  author_name: z.string().optional(),
  author_email: z.string().optional(),
  created_at: TimestampSchema.optional(),
  /** GitLab's commit entity has them; the review reads a commit's first parent as its base. */
  parent_ids: z.array(z.string()).optional(),
});
export type MergeRequestCommit = z.infer<typeof MergeRequestCommitSchema>;

/** `GET /projects/:id/repository/compare`: the commits between two refs and the files' diffs. */
export const RepositoryCompareSchema = z.looseObject({
  commit: MergeRequestCommitSchema.nullish(),
  commits: z.array(MergeRequestCommitSchema).optional(),
  diffs: z.array(MergeRequestDiffSchema),
  compare_timeout: z.boolean().optional(),
  compare_same_ref: z.boolean().optional(),
  web_url: z.string().optional(),
});
export type RepositoryCompare = z.infer<typeof RepositoryCompareSchema>;

/** An entry of `GET /projects/:id/repository/tree`: a file (`blob`), a folder (`tree`) or a submodule. */
export const RepositoryTreeEntrySchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  path: z.string(),
  mode: z.string().optional(),
});
export type RepositoryTreeEntry = z.infer<typeof RepositoryTreeEntrySchema>;

/**
 * One diff version of a merge request (`.../versions`, `.../versions/:id`). The list shape has
 * no commits or diffs; the single shape has both.
 */
export const MergeRequestDiffVersionSchema = z.looseObject({
  id: IdSchema,
  head_commit_sha: z.string(),
  base_commit_sha: z.string(),
  start_commit_sha: z.string(),
  created_at: TimestampSchema,
  merge_request_id: IdSchema,
  state: z.string(),
  // A count sent as a string ("1", or "100+" when capped).
  real_size: z.string().optional(),
  commits: z.array(MergeRequestCommitSchema).optional(),
  diffs: z.array(MergeRequestDiffSchema).optional(),
});
export type MergeRequestDiffVersion = z.infer<typeof MergeRequestDiffVersionSchema>;

/**
 * `GET .../approvals` and the reply of `POST .../approve` (beyond the seed spec). Free servers send
 * `approved_by` and `approvals_left` 0; rules and `approvals_required` come with Premium.
 */
export const MergeRequestApprovalsSchema = z.looseObject({
  approved: z.boolean().optional(),
  approvals_required: z.number().int().nullish(),
  approvals_left: z.number().int().nullish(),
  approved_by: z.array(z.looseObject({ user: UserSchema })).optional(),
  user_has_approved: z.boolean().optional(),
  user_can_approve: z.boolean().optional(),
});
export type MergeRequestApprovals = z.infer<typeof MergeRequestApprovalsSchema>;

/** `PUT .../rebase`: accepted, the rebase runs in the background (202). */
export const RebaseReplySchema = z.looseObject({ rebase_in_progress: z.boolean() });

/** `GET .../versions`: one per push; the newest first. The SHAs a diff and its comments refer to. */
export const MergeRequestVersionSchema = z.looseObject({
  id: IdSchema,
  head_commit_sha: z.string(),
  base_commit_sha: z.string(),
  start_commit_sha: z.string(),
  created_at: TimestampSchema.optional(),
  state: z.string().optional(),
});
export type MergeRequestVersion = z.infer<typeof MergeRequestVersionSchema>;
