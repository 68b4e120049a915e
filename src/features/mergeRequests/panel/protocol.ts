import * as z from 'zod';
import type { ApprovalsView, AwardSummary, FileBadge, HeaderActions } from '../../../domain/mergeRequestView';
import { CommonPageMessageSchemas, OpenReferenceMessageSchema } from '../../../webviews/shared/pageMessages';
import type {
  NoteResultMessage,
  NoteView,
  PersonView,
  StatusMessage,
} from '../../../webviews/shared/discussionTypes';

export type { NoteAction, NoteView, PersonView } from '../../../webviews/shared/discussionTypes';

/*
 * The merge request panel's messages. Page → host messages are validated with these strict schemas
 * (unknown keys, wrong types and oversized strings are rejected) before the host acts on any of them.
 * Host → page messages are plain types: the host builds them.
 */

/** Real servers accept notes up to 1,000,000 characters. */
export const MAX_NOTE_LENGTH = 1_000_000;
const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const NoteBody = z.string().max(MAX_NOTE_LENGTH);
const EmojiName = z.string().regex(/^[a-z0-9_+-]{1,64}$/);

export const MergeOptionsSchema = z.strictObject({
  /** The head the panel showed: the server refuses the merge (409) if the branch moved since. */
  sha: z.string().regex(/^[0-9a-f]{7,64}$/i),
  message: z.string().max(10_000).optional(),
  squash: z.boolean().optional(),
  removeSourceBranch: z.boolean().optional(),
  mergeWhenPipelineSucceeds: z.boolean().optional(),
});
export type PanelMergeOptions = z.infer<typeof MergeOptionsSchema>;

export const HEADER_ACTIONS = [
  'close',
  'reopen',
  'subscribe',
  'unsubscribe',
  'cancelMergeWhenPipelineSucceeds',
  'addTodo',
  'openInBrowser',
  'checkout',
  'approve',
  'unapprove',
  'markReady',
  'submitReview',
  'rebase',
  'openThreads',
  'openFailingJob',
] as const;
export type HeaderAction = (typeof HEADER_ACTIONS)[number];

export const MergeRequestPageMessageSchema = z.discriminatedUnion('type', [
  ...CommonPageMessageSchemas,
  z.strictObject({ type: z.literal('refresh') }),
  z.strictObject({ type: z.literal('merge'), options: MergeOptionsSchema }),
  z.strictObject({ type: z.literal('action'), action: z.enum(HEADER_ACTIONS) }),
  z.strictObject({ type: z.literal('postNote'), body: NoteBody.refine((body) => body.trim() !== '') }),
  z.strictObject({ type: z.literal('draftChanged'), body: NoteBody }),
  z.strictObject({
    type: z.literal('editNote'),
    noteId: Id,
    body: NoteBody.refine((body) => body.trim() !== ''),
  }),
  z.strictObject({ type: z.literal('deleteNote'), noteId: Id }),
  /** On the merge request, or on one of its notes with `noteId`. */
  z.strictObject({ type: z.literal('awardEmoji'), name: EmojiName, noteId: Id.optional() }),
  z.strictObject({ type: z.literal('removeAwardEmoji'), name: EmojiName, noteId: Id.optional() }),
  /** Index into the snapshot's files. */
  z.strictObject({ type: z.literal('openDiff'), file: z.number().int().nonnegative().max(100_000) }),
  /** A reply in the thread whose first comment is `noteId` (a single comment becomes a thread). */
  z.strictObject({
    type: z.literal('replyToThread'),
    noteId: Id,
    body: NoteBody.refine((body) => body.trim() !== ''),
  }),
  /** Resolves or unresolves the thread whose first comment is `noteId`. */
  z.strictObject({ type: z.literal('resolveThread'), noteId: Id, resolved: z.boolean() }),
  /** A changed file (by the path the list shows) ticked or cleared as viewed. */
  z.strictObject({ type: z.literal('setViewed'), path: z.string().min(1).max(4096), viewed: z.boolean() }),
  /** A diff comment's line in the diff editor (an outdated one on the version it was written on). */
  z.strictObject({ type: z.literal('openNoteLine'), noteId: Id }),
  /** An issue the merge request closes (one of the snapshot's `closesIssues`), in the issue panel. */
  z.strictObject({ type: z.literal('openIssue'), iid: Id }),
  OpenReferenceMessageSchema,
]);
export type MergeRequestPageMessage = z.infer<typeof MergeRequestPageMessageSchema>;

// ---- host → page ----------------------------------------------------------------------------------

export interface FileView {
  oldPath: string;
  newPath: string;
  /** The path shown in the list (the old one for a deleted file). */
  path: string;
  badge: FileBadge;
  /** A complete git unified diff of the file (header and hunks). */
  diff: string;
  added: number;
  removed: number;
  lines: number;
}

export interface CommitView {
  id: string;
  shortId: string;
  title: string;
  authorName: string;
  createdAt?: string;
}

export interface MergeRequestView {
  iid: number;
  title: string;
  description: string;
  state: string;
  draft: boolean;
  sourceBranch: string;
  targetBranch: string;
  author: PersonView;
  assignees: PersonView[];
  labels: string[];
  milestone?: string;
  /** "mergeable", "conflicts", … as the trees say it; empty once merged or closed. */
  mergeStatusText: string;
  mergeWhenPipelineSucceeds: boolean;
  subscribed?: boolean;
  upvotes: number;
  downvotes: number;
  /** The head the panel shows; sent as the merge's SHA guard. */
  sha?: string;
  webUrl?: string;
  createdAt?: string;
  updatedAt?: string;
  defaultMergeMessage: string;
}

export interface MergeRequestSnapshot {
  /** Only the merge request as it was picked: files, commits and notes are still loading. */
  partial?: true;
  key: string;
  accountLabel: string;
  projectPath: string;
  mergeRequest: MergeRequestView;
  actions: HeaderActions;
  awards: AwardSummary[];
  files: FileView[];
  commits: CommitView[];
  notes: NoteView[];
  /** The unsent comment (NoteDrafts), restored into the text box. */
  draft: string;
  /** Who approved and how many are needed; absent on servers without approvals (404). */
  approvals?: ApprovalsView;
  /** The viewer's review comments not published yet; absent on servers without draft notes (404). */
  pendingReview?: number;
  /** Files offer "Open in diff editor" (the review feature reads both sides, from a clone when it can). */
  opensDiffs: boolean;
  viewer?: string;
  /** The issues merging it closes ("Closes #12" in its description), as GitLab lists them. */
  closesIssues: { iid: number; title: string; state: string }[];
  /** Parts that could not be loaded ("Changes: 500 Internal Server Error"). */
  errors: string[];
  loadedAt: string;
}

export type MergeRequestHostMessage =
  | { type: 'snapshot'; snapshot: MergeRequestSnapshot }
  | { type: 'loading'; loading: boolean }
  /** The changed files (by the path the list shows) the reviewer marked as viewed. */
  | { type: 'viewed'; paths: string[] }
  | StatusMessage
  | NoteResultMessage
  /** Shows the Discussion tab at the thread whose first comment is `noteId` (an unresolved one). */
  | { type: 'showThread'; noteId: number }
  /** The merge finished (merged, scheduled or refused). */
  | { type: 'mergeResult'; ok: boolean; message: string };
