import * as z from 'zod';
import { AwardEmojiSchema, type AwardEmoji } from './awardEmoji';
import { IdSchema, TimestampSchema } from './common';
import { UserSchema } from './user';

/** Null on almost every note; the spec only says "null or value", so any scalar or object is kept. */
export const NoteAttachmentSchema = z
  .union([z.string(), z.number(), z.record(z.string(), z.unknown())])
  .nullable();

export const NoteSchema = z.looseObject({
  id: IdSchema,
  body: z.string(),
  // Optional: some note shapes (epic notes, trimmed replies) leave them out.
  author: UserSchema.optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
  attachment: NoteAttachmentSchema.optional(),
  /** True for notes the server writes itself ("changed the description", ...). */
  system: z.boolean().optional(),
  noteable_id: IdSchema.nullish(),
  noteable_iid: IdSchema.nullish(),
  /** Issue, MergeRequest, Snippet, Commit ... */
  noteable_type: z.string().optional(),
  /** `DiffNote`, `DiscussionNote` or null for a plain comment. */
  type: z.string().nullish(),
  resolvable: z.boolean().optional(),
  resolved: z.boolean().optional(),
});
export type Note = z.infer<typeof NoteSchema>;

/** The single snippet note response in the spec has a snippet-like shape instead of a note. */
export const SnippetNoteSchema = z.looseObject({
  id: IdSchema,
  title: z.string(),
  file_name: z.string().optional(),
  author: UserSchema,
  expires_at: TimestampSchema.nullish(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.optional(),
});
export type SnippetNote = z.infer<typeof SnippetNoteSchema>;

/** `GET .../snippets/:id/notes/:note_id`: a note on current servers, the snippet-like shape on old ones. */
export const SnippetNoteResponseSchema = z.union([NoteSchema, SnippetNoteSchema]);
export type SnippetNoteResponse = z.infer<typeof SnippetNoteResponseSchema>;

/**
 * `POST .../notes`: a body holding only an award emoji (e.g. `:thumbsup:`) creates an award
 * instead of a note, and the award emoji object comes back.
 */
export const NoteOrAwardSchema = z.union([NoteSchema, AwardEmojiSchema]);
export type NoteOrAward = z.infer<typeof NoteOrAwardSchema>;

/** Tells the two answers of a note POST apart: only a note has a body. */
export function isAwardEmoji(created: NoteOrAward): created is AwardEmoji {
  return typeof created.body !== 'string';
}

/**
 * A comment on a commit (`GET /projects/:id/repository/commits/:sha/comments`); the legacy
 * merge request comments endpoint answers with the same shape.
 */
export const CommitCommentSchema = z.looseObject({
  note: z.string(),
  author: UserSchema,
  path: z.string().nullish(),
  line: z.number().int().nullish(),
  line_type: z.string().nullish(),
  created_at: TimestampSchema.optional(),
});
export type CommitComment = z.infer<typeof CommitCommentSchema>;

/** Where a diff comment sits (GitLab's discussions API, beyond the seed spec). */
export const DiffPositionSchema = z.looseObject({
  base_sha: z.string(),
  start_sha: z.string(),
  head_sha: z.string(),
  old_path: z.string(),
  new_path: z.string(),
  position_type: z.string(),
  old_line: z.number().int().nullish(),
  new_line: z.number().int().nullish(),
  /** A comment on several lines: its first and last line (`old_line`/`new_line` name the last). */
  line_range: z
    .looseObject({
      start: z.looseObject({ old_line: z.number().int().nullish(), new_line: z.number().int().nullish() }),
      end: z.looseObject({ old_line: z.number().int().nullish(), new_line: z.number().int().nullish() }),
    })
    .nullish(),
});
export type DiffPosition = z.infer<typeof DiffPositionSchema>;

/** A position that names no place: every SHA and path null or missing. */
function placeless(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as Record<string, unknown>;
  return ['base_sha', 'start_sha', 'head_sha', 'old_path', 'new_path'].every(
    (key) => fields[key] === null || fields[key] === undefined,
  );
}

/**
 * A note's or draft's position as GitLab sends it. One without a place of its own (a general comment,
 * or a reply in a thread, which names its `discussion_id`) comes with every field null but
 * `position_type` (GitLab's documentation shows it): that reads as no position; any other position
 * must be whole.
 */
export const NotePositionSchema = z.preprocess(
  (value) => (placeless(value) ? undefined : value),
  DiffPositionSchema.nullish(),
);

/** A note's diff position, when it has one that fits (the notes API gives diff notes theirs). */
export function diffPositionOf(note: unknown): DiffPosition | undefined {
  const position = DiffPositionSchema.safeParse(
    (note as { position?: unknown } | null | undefined)?.position,
  );
  return position.success ? position.data : undefined;
}

/**
 * A change a reviewer proposes in a ```suggestion block of a diff comment (GitLab 13.x+): lines
 * `from_line`..`to_line` of the new side, `from_content` replaced by `to_content`.
 */
export const SuggestionSchema = z.looseObject({
  id: IdSchema,
  from_line: z.number().int(),
  to_line: z.number().int(),
  appliable: z.boolean(),
  applied: z.boolean(),
  from_content: z.string(),
  to_content: z.string(),
});
export type Suggestion = z.infer<typeof SuggestionSchema>;

export const DiscussionNoteSchema = NoteSchema.extend({
  position: NotePositionSchema,
  suggestions: z.array(SuggestionSchema).optional(),
});
export type DiscussionNote = z.infer<typeof DiscussionNoteSchema>;

/** A thread: one note (`individual_note`) or a discussion with replies. */
export const DiscussionSchema = z.looseObject({
  id: z.string(),
  individual_note: z.boolean().optional(),
  notes: z.array(DiscussionNoteSchema),
});
export type Discussion = z.infer<typeof DiscussionSchema>;

/** A review comment not published yet (`.../draft_notes`, GitLab 15.9+). */
export const DraftNoteSchema = z.looseObject({
  id: IdSchema,
  note: z.string(),
  discussion_id: z.string().nullish(),
  resolve_discussion: z.boolean().optional(),
  position: NotePositionSchema,
});
export type DraftNote = z.infer<typeof DraftNoteSchema>;
