import * as z from 'zod';
import { IdSchema } from './common';
import { LabelSchema } from './issue';
import { ProjectSchema } from './project';
import { UserSchema } from './user';

/** Boards name their milestone briefly: `{id, title}`, or only `{title}` for a wildcard. */
const BoardMilestoneSchema = z.looseObject({
  id: IdSchema.optional(),
  title: z.string(),
});

/**
 * One list (column) of an issue board. Label lists are the common case; milestone, assignee and
 * iteration lists carry that record instead of `label`.
 */
export const BoardListSchema = z.looseObject({
  id: IdSchema,
  position: z.number().int(),
  label: LabelSchema.nullish(),
  milestone: BoardMilestoneSchema.nullish(),
  assignee: UserSchema.nullish(),
});
export type BoardList = z.infer<typeof BoardListSchema>;

export const BoardSchema = z.looseObject({
  id: IdSchema,
  /** Backlog and closed lists are not included. */
  lists: z.array(BoardListSchema),
  // Older servers have one unnamed board per project.
  name: z.string().optional(),
  project: ProjectSchema.nullish(),
  group: z.looseObject({ id: IdSchema, name: z.string() }).nullish(),
  milestone: BoardMilestoneSchema.nullish(),
  assignee: UserSchema.nullish(),
  labels: z.array(LabelSchema).nullish(),
  weight: z.number().int().nullish(),
});
export type Board = z.infer<typeof BoardSchema>;
