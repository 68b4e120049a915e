import * as z from 'zod';
import { rowOf } from '../../platform/commands/defineCommand';
import { ProjectNode } from '../projects';
import { MergeRequestNode } from './nodes/mergeRequestNodes';
import { type MergeRequestRef, isMergeRequestRef } from './mergeRequestTargets';
import { MergeRequestItemNode, NoteNode } from './mergeRequestsTreeProvider';
import * as l10n from '@vscode/l10n';

/*
 * What the `forge.mergeRequest.*` commands take, as schemas: the merge request (a row of either
 * view, a comment's row, the panel's reference, or nothing: the command asks) and the trailing
 * options that answer its questions (tests and automation; menus never pass them).
 */

/** The merge request a command acts on, or nothing (it asks). */
export const MergeRequestArgumentSchema = z
  .union([
    rowOf(MergeRequestNode, l10n.t('a merge request')),
    rowOf(MergeRequestItemNode, l10n.t('a merge request')),
    rowOf(NoteNode, l10n.t('a comment on a merge request')),
    z.custom<MergeRequestRef>(isMergeRequestRef, { error: l10n.t('expected a merge request reference') }),
  ])
  .optional();
export type MergeRequestArgument = z.output<typeof MergeRequestArgumentSchema>;

/** Where a new merge request goes: a project's row, or nothing (it asks). */
export const ProjectArgumentSchema = rowOf(ProjectNode, l10n.t('a project')).optional();

export const CreateMergeRequestOptionsSchema = z.strictObject({
  /** Default: the current branch of the workspace's clone of the project. */
  sourceBranch: z.string().optional(),
  /** Default: the project's default branch. */
  targetBranch: z.string().optional(),
  /** Default: the title of the source branch's last commit. */
  title: z.string().optional(),
  description: z.string().optional(),
  /** A template's name (`.gitlab/merge_request_templates/<name>.md`): its text is the description. */
  template: z.string().max(255).optional(),
});
export type CreateMergeRequestOptions = z.output<typeof CreateMergeRequestOptionsSchema>;

export const EditMergeRequestOptionsSchema = z.strictObject({
  title: z.string().optional(),
  description: z.string().optional(),
  /** Comma-separated. */
  labels: z.string().optional(),
  /** null unassigns. */
  assigneeId: z.number().int().positive().nullable().optional(),
  /** null removes the milestone. */
  milestoneId: z.number().int().positive().nullable().optional(),
  targetBranch: z.string().optional(),
});
export type EditMergeRequestOptions = z.output<typeof EditMergeRequestOptionsSchema>;

export const ConfirmOptionsSchema = z.strictObject({ confirmed: z.boolean().optional() });

export const MergeOptionsSchema = z.strictObject({
  removeSourceBranch: z.boolean().optional(),
  mergeWhenPipelineSucceeds: z.boolean().optional(),
  message: z.string().optional(),
  squash: z.boolean().optional(),
  sha: z.string().optional(),
});

/** Options of `showClosedIssues`: given at all (even `{}`), the list is returned, not shown. */
export const ShowClosedIssuesOptionsSchema = z.strictObject({});
