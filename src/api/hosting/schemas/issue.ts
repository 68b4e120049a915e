/** Issues and the records they share with merge requests and boards: milestones and labels. */
import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';
import { UserSchema } from './user';

export const MilestoneSchema = z.looseObject({
  id: IdSchema,
  title: z.string(),
  iid: IdSchema.optional(),
  project_id: IdSchema.optional(),
  description: z.string().nullish(),
  /** `active` or `closed`. */
  state: z.string().optional(),
  due_date: z.string().nullish(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
  web_url: z.string().optional(),
});
export type Milestone = z.infer<typeof MilestoneSchema>;

export const LabelSchema = z.looseObject({
  id: IdSchema.optional(),
  name: z.string(),
  /** Background colour as a hex code. */
  color: z.string(),
  description: z.string().nullish(),
});
export type Label = z.infer<typeof LabelSchema>;

/** An issue as far as the spec shows it (nested in todos and closes_issues). */
export const IssueSchema = z.looseObject({
  id: IdSchema,
  iid: IdSchema,
  title: z.string(),
  project_id: IdSchema.optional(),
  state: z.string().optional(),
  description: z.string().nullish(),
  author: UserSchema.optional(),
  assignee: UserSchema.nullish(),
  labels: z.array(z.string()).optional(),
  milestone: MilestoneSchema.nullish(),
  web_url: z.string().optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
  /** Beyond the spec (GitLab's issue entity): what the Issues view and panel show. */
  assignees: z.array(UserSchema).nullish(),
  closed_at: TimestampSchema.nullish(),
  closed_by: UserSchema.nullish(),
  due_date: z.string().nullish(),
  confidential: z.boolean().optional(),
  discussion_locked: z.boolean().nullish(),
  user_notes_count: z.number().optional(),
  upvotes: z.number().optional(),
  downvotes: z.number().optional(),
  merge_requests_count: z.number().optional(),
  has_tasks: z.boolean().optional(),
  task_completion_status: z.looseObject({ count: z.number(), completed_count: z.number() }).nullish(),
  references: z.looseObject({ short: z.string(), full: z.string().optional() }).nullish(),
});
export type Issue = z.infer<typeof IssueSchema>;

/** An issue in an external tracker: its id is the tracker's key, e.g. `"PROJECT-123"`. */
export const ExternalIssueSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
});
export type ExternalIssue = z.infer<typeof ExternalIssueSchema>;

/** One element of `GET .../merge_requests/:iid/closes_issues`. */
export const ClosesIssueSchema = z.union([IssueSchema, ExternalIssueSchema]);
export type ClosesIssue = z.infer<typeof ClosesIssueSchema>;
