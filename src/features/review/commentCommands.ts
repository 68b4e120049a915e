/** The buttons of the review's comment widgets: comment, hold for the review, edit, delete, resolve. */
import * as vscode from 'vscode';
import * as z from 'zod';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import type { NoteEditing } from './noteEditing';
import type { PendingReview } from './pendingReview';
import type { ReviewComments } from './reviewComments';

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

export function commentCommands(
  comments: ReviewComments,
  pending: PendingReview,
  editing: NoteEditing,
  apply: (comment: vscode.Comment) => Promise<unknown>,
): CommandDeclaration[] {
  return [
    defineCommand({
      id: 'forge.review.applySuggestion',
      args: [CommentSchema],
      run: (comment) => apply(comment),
    }),
    defineCommand({
      id: 'forge.review.reply',
      args: [CommentReplySchema],
      run: (reply) => comments.reply(reply),
    }),
    defineCommand({
      id: 'forge.review.addToReview',
      args: [CommentReplySchema],
      run: (reply) => pending.addToReview(reply),
    }),
    defineCommand({
      id: 'forge.review.deleteDraft',
      args: [CommentSchema],
      run: (comment) => pending.deleteDraft(comment),
    }),
    defineCommand({
      id: 'forge.review.submit',
      args: [],
      run: () => pending.submit(),
    }),
    defineCommand({
      id: 'forge.review.editComment',
      args: [CommentSchema],
      run: (comment) => editing.edit(comment),
    }),
    defineCommand({
      id: 'forge.review.saveComment',
      args: [CommentSchema],
      run: (comment) => editing.save(comment),
    }),
    defineCommand({
      id: 'forge.review.cancelEdit',
      args: [CommentSchema],
      run: (comment) => editing.cancel(comment),
    }),
    defineCommand({
      id: 'forge.review.deleteComment',
      args: [CommentSchema],
      run: (comment) => editing.delete(comment),
    }),
    defineCommand({
      id: 'forge.review.sendUnsent',
      args: [CommentSchema],
      run: (unsent) => comments.unsentComments.send(unsent),
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
  ];
}
