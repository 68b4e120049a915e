import * as z from 'zod';
import type { AwardSummary } from '../../../domain/mergeRequestView';
import type {
  NoteResultMessage,
  NoteView,
  PersonView,
  StatusMessage,
} from '../../../webviews/shared/discussionTypes';
import { CommonPageMessageSchemas, OpenReferenceMessageSchema } from '../../../webviews/shared/pageMessages';

/*
 * The issue panel's messages. Page → host messages are validated with these strict schemas before
 * the host acts on any of them; host → page messages are plain types the host builds.
 */

export const MAX_NOTE_LENGTH = 1_000_000;
const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const NoteBody = z.string().max(MAX_NOTE_LENGTH);
const Text = NoteBody.refine((body) => body.trim() !== '');
const EmojiName = z.string().regex(/^[a-z0-9_+-]{1,64}$/);

export const ISSUE_ACTIONS = ['close', 'reopen', 'edit', 'openInBrowser'] as const;
export type IssueAction = (typeof ISSUE_ACTIONS)[number];

export const IssuePageMessageSchema = z.discriminatedUnion('type', [
  ...CommonPageMessageSchemas,
  z.strictObject({ type: z.literal('refresh') }),
  z.strictObject({ type: z.literal('action'), action: z.enum(ISSUE_ACTIONS) }),
  z.strictObject({ type: z.literal('postNote'), body: Text }),
  z.strictObject({ type: z.literal('draftChanged'), body: NoteBody }),
  z.strictObject({ type: z.literal('editNote'), noteId: Id, body: Text }),
  z.strictObject({ type: z.literal('deleteNote'), noteId: Id }),
  z.strictObject({ type: z.literal('replyToThread'), noteId: Id, body: Text }),
  /** On the issue, or on one of its comments with `noteId`. */
  z.strictObject({ type: z.literal('awardEmoji'), name: EmojiName, noteId: Id.optional() }),
  z.strictObject({ type: z.literal('removeAwardEmoji'), name: EmojiName, noteId: Id.optional() }),
  /** The n-th task box of the description, as drawn, ticked or cleared. */
  z.strictObject({
    type: z.literal('setTask'),
    index: z.number().int().nonnegative().max(10_000),
    checked: z.boolean(),
  }),
  /** The description as the user edited it in the panel. */
  z.strictObject({ type: z.literal('saveDescription'), body: NoteBody }),
  /** One of the related merge requests the snapshot lists, by its place in that list. */
  z.strictObject({ type: z.literal('openMergeRequest'), index: z.number().int().nonnegative().max(10_000) }),
  OpenReferenceMessageSchema,
]);
export type IssuePageMessage = z.infer<typeof IssuePageMessageSchema>;

// ---- host → page ----------------------------------------------------------------------------------

export interface LabelView {
  name: string;
  /** `#rgb` or `#rrggbb` from the server, checked; absent when the server's is anything else. */
  color?: string;
  textColor?: string;
}

export interface IssueView {
  iid: number;
  title: string;
  description: string;
  state: string;
  confidential: boolean;
  author?: PersonView;
  assignees: PersonView[];
  labels: LabelView[];
  milestone?: string;
  dueDate?: string;
  webUrl?: string;
  createdAt?: string;
  updatedAt?: string;
  closedAt?: string;
  closedBy?: PersonView;
  tasks?: { count: number; done: number };
}

export interface RelatedMergeRequestView {
  iid: number;
  title: string;
  state: string;
  /** Merging it closes the issue ("Closes #n"). */
  closes: boolean;
}

export interface IssueSnapshot {
  /** Only the issue as it was picked: the discussion is still loading. */
  partial?: true;
  key: string;
  accountLabel: string;
  projectPath: string;
  issue: IssueView;
  /** The viewer may edit the description (tick tasks), close and reopen. */
  canEdit: boolean;
  awards: AwardSummary[];
  notes: NoteView[];
  /** Threads can be answered (a server without the discussions API: comments only). */
  threads: boolean;
  related: RelatedMergeRequestView[];
  draft: string;
  viewer?: string;
  errors: string[];
  loadedAt: string;
}

export type IssueHostMessage =
  | { type: 'snapshot'; snapshot: IssueSnapshot }
  | { type: 'loading'; loading: boolean }
  | StatusMessage
  | NoteResultMessage
  /** The edited description was saved, or not (the page keeps the text in its box). */
  | { type: 'descriptionResult'; ok: boolean; message?: string };
