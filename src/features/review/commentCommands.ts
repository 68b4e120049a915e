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

/** `run`, a change on the server through a thread, after which the merge request's views and panel follow. */
function changingThrough(comments: ReviewComments) {
  const targetOf = (thread: vscode.CommentThread | undefined) =>
    thread && comments.threadInfo(thread)?.session.target;
  return <A, R>(run: (arg: A) => Promise<R>, threadOf: (arg: A) => vscode.CommentThread | undefined) =>
    async (arg: A): Promise<R> => {
      // A deleted comment's thread may be gone after; a new thread is known only after.
      const before = targetOf(threadOf(arg));
      const result = await run(arg);
      const target = before ?? targetOf(threadOf(arg));
      if (target) comments.changedOnServer(target);
      return result;
    };
}

export function commentCommands(
  comments: ReviewComments,
  pending: PendingReview,
  editing: NoteEditing,
  apply: (comment: vscode.Comment) => Promise<unknown>,
): CommandDeclaration[] {
  const changing = changingThrough(comments);
  const threadOfComment = (comment: vscode.Comment) => comments.noteOf(comment)?.thread;
  const threadOfReply = (reply: vscode.CommentReply) => reply.thread;
  const itself = (thread: vscode.CommentThread) => thread;
  return [
    defineCommand({
      id: 'forge.review.applySuggestion',
      args: [CommentSchema],
      run: changing(apply, threadOfComment),
    }),
    defineCommand({
      id: 'forge.review.reply',
      args: [CommentReplySchema],
      run: changing((reply) => comments.reply(reply), threadOfReply),
    }),
    defineCommand({
      id: 'forge.review.addToReview',
      args: [CommentReplySchema],
      run: changing((reply) => pending.addToReview(reply), threadOfReply),
    }),
    defineCommand({
      id: 'forge.review.deleteDraft',
      args: [CommentSchema],
      run: changing((comment) => pending.deleteDraft(comment), threadOfComment),
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
      run: changing((comment) => editing.save(comment), threadOfComment),
    }),
    defineCommand({
      id: 'forge.review.cancelEdit',
      args: [CommentSchema],
      run: (comment) => editing.cancel(comment),
    }),
    defineCommand({
      id: 'forge.review.deleteComment',
      args: [CommentSchema],
      run: changing((comment) => editing.delete(comment), threadOfComment),
    }),
    defineCommand({
      id: 'forge.review.sendUnsent',
      args: [CommentSchema],
      run: changing(
        (unsent) => comments.unsentComments.send(unsent),
        (unsent) => comments.unsentComments.threadOf(unsent),
      ),
    }),
    defineCommand({
      id: 'forge.review.resolveThread',
      args: [CommentThreadSchema],
      run: changing((thread) => comments.resolve(thread, true), itself),
    }),
    defineCommand({
      id: 'forge.review.unresolveThread',
      args: [CommentThreadSchema],
      run: changing((thread) => comments.resolve(thread, false), itself),
    }),
  ];
}
