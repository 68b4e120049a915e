/*
 * Review: a merge request's changed files in VS Code's own diff editor (one side by side, or all in
 * the multi-file diff editor), their two sides read from the local clone or the server. The
 * Merge Requests view and the merge request panel reach it through `ReviewFeature`. This file is
 * its only public face.
 */
import * as vscode from 'vscode';
import type { MergeRequestDiff } from '../../api/hosting';
import { registerCommands } from '../../platform/commands/registerCommand';
import { defineCommand, rowOf } from '../../platform/commands/defineCommand';
import type { TreeNode } from '../../platform/tree/treeNode';
import { withProgress } from '../../platform/userMessages';
import type { Services } from '../../services';
import * as z from 'zod';
import { type ReviewTarget, openAllChanges, openChangedFile } from './changedFiles';
import { ReviewComments } from './reviewComments';
import { ChangedFileNode, ChangesFolderNode } from './changesNodes';
import { REVIEW_SCHEME, ReviewContentProvider } from './reviewContent';
import { ReviewPreparation } from './reviewPreparation';

export type { ReviewTarget } from './changedFiles';

export interface ReviewFeature {
  /** The "Changes" folder for a merge request in a tree; `changed` redraws a node of that tree. */
  changesFolder(target: ReviewTarget, changed: (node: TreeNode) => void): TreeNode;
  /** Opens one changed file side by side (base ↔ head). */
  openChangedFile(target: ReviewTarget, change: MergeRequestDiff): Promise<void>;
  /** Opens every changed file in the multi-file diff editor; answers how many. */
  openAllChanges(target: ReviewTarget): Promise<number>;
  /** The two sides' documents (`forge-review:`). */
  readonly content: ReviewContentProvider;
  /** The comment threads on the diff's lines. */
  readonly comments: ReviewComments;
}

/** What VS Code passes to a comment widget's button: the thread and the text typed. */
const CommentReplySchema = z.custom<vscode.CommentReply>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    'thread' in value &&
    typeof (value as { text?: unknown }).text === 'string',
  { error: vscode.l10n.t('expected a comment reply') },
);
const CommentSchema = z.custom<vscode.Comment>(
  (value) => typeof value === 'object' && value !== null && 'body' in value && 'author' in value,
  { error: vscode.l10n.t('expected a comment') },
);
const CommentThreadSchema = z.custom<vscode.CommentThread>(
  (value) => typeof value === 'object' && value !== null && 'uri' in value && 'comments' in value,
  { error: vscode.l10n.t('expected a comment thread') },
);

export function createReviewFeature(services: Services): ReviewFeature {
  const { context, accounts } = services;
  const content = new ReviewContentProvider(accounts);
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, content));

  const comments = new ReviewComments(accounts, content);
  context.subscriptions.push(comments);

  const preparation = new ReviewPreparation(accounts, comments, services.log);
  const prepare = (target: ReviewTarget, known?: Promise<MergeRequestDiff[]>) =>
    preparation.prepare(target, known);
  const openOne = async (
    target: ReviewTarget,
    change: MergeRequestDiff,
    known?: Promise<MergeRequestDiff[]>,
  ) => {
    const { refs, source } = await prepare(target, known);
    await openChangedFile(content, source, target, change, refs);
  };

  registerCommands(context, services.log, [
    defineCommand({
      id: 'forge.review.openChangedFile',
      args: [rowOf(ChangedFileNode, vscode.l10n.t('a changed file'))],
      run: async (row) => {
        await openOne(row.folder.target, row.change, row.folder.changes());
        return { opened: row.change.new_path };
      },
    }),
    defineCommand({
      id: 'forge.review.reply',
      args: [CommentReplySchema],
      run: (reply) => comments.reply(reply),
    }),
    defineCommand({
      id: 'forge.review.sendUnsent',
      args: [CommentSchema],
      run: (unsent) => comments.sendUnsent(unsent),
    }),
    defineCommand({
      id: 'forge.review.resolveThread',
      args: [CommentThreadSchema],
      run: (thread) => comments.resolve(thread, true),
    }),
    defineCommand({
      id: 'forge.review.unresolveThread',
      args: [CommentThreadSchema],
      run: (thread) => comments.resolve(thread, false),
    }),
    defineCommand({
      id: 'forge.review.openAllChanges',
      args: [rowOf(ChangesFolderNode, vscode.l10n.t('a Changes folder'))],
      run: async (folder) => {
        const { target } = folder;
        const { changes, refs, source } = await withProgress(
          {
            location: { viewId: 'forge.mergeRequests' },
            title: vscode.l10n.t('Reading the changes of !{0}…', target.mergeRequest.iid),
          },
          () => prepare(target, folder.changes()),
        );
        await openAllChanges(content, source, target, changes, refs);
        return { opened: changes.length };
      },
    }),
  ]);

  return {
    changesFolder: (target, changed) => new ChangesFolderNode(target, accounts, changed),
    openChangedFile: (target, change) => openOne(target, change),
    openAllChanges: async (target) => {
      const { changes, refs, source } = await prepare(target);
      await openAllChanges(content, source, target, changes, refs);
      return changes.length;
    },
    content,
    comments,
  };
}
