/**
 * Editing and deleting one's own notes in the review's threads (`PUT`/`DELETE .../notes/:id`). An
 * edit that fails to save stays in its box; a cancelled one shows the note as it was.
 */
import * as vscode from 'vscode';
import type { AccountManager } from '../../platform/accounts';
import { showWarning } from '../../platform/userMessages';
import type { ReviewComments } from './reviewComments';
import { serverMarkdown } from '../../platform/serverMarkdown';
import { type ShownNote, commentText, noteMarkdown } from './reviewSession';

export class NoteEditing {
  constructor(
    private readonly comments: ReviewComments,
    private readonly accounts: AccountManager,
  ) {}

  private ownNote(comment: vscode.Comment): ShownNote {
    const shown = this.comments.noteOf(comment);
    if (!shown || !comment.contextValue?.startsWith('own'))
      throw new Error(vscode.l10n.t('Only your own comments can be edited or deleted.'));
    return shown;
  }

  private redraw(thread: vscode.CommentThread): void {
    thread.comments = [...thread.comments];
  }

  /** Opens the comment's box for editing. */
  edit(comment: vscode.Comment): { editing: true } {
    const { thread, body } = this.ownNote(comment);
    // The box holds the note as written, not the Markdown it is shown with.
    comment.body = body;
    comment.mode = vscode.CommentMode.Editing;
    this.redraw(thread);
    return { editing: true };
  }

  /** Shows the note as it was posted. */
  cancel(comment: vscode.Comment): { editing: false } {
    const shown = this.ownNote(comment);
    comment.body = noteMarkdown(shown.body, shown.suggestions);
    comment.mode = vscode.CommentMode.Preview;
    this.redraw(shown.thread);
    return { editing: false };
  }

  private async clientFor(shown: ShownNote) {
    const info = this.comments.threadInfo(shown.thread);
    if (!info) throw new Error(vscode.l10n.t('This thread is not on the server yet.'));
    const { accountId, project, mergeRequest } = info.session.target;
    const client = await this.accounts.client(accountId);
    return { client, parent: { kind: 'mergeRequest' as const, project: project.id, iid: mergeRequest.iid } };
  }

  /** Saves the text in the box; when that fails, the box keeps it. */
  async save(comment: vscode.Comment): Promise<{ saved: number }> {
    const shown = this.ownNote(comment);
    const text = commentText(comment);
    if (text.trim() === '') throw new Error(vscode.l10n.t('Write a comment first.'));
    const { client, parent } = await this.clientFor(shown);
    const updated = await client.updateNote(parent, shown.noteId, text);
    // A merge request note comes back with its body; the text sent is what was saved otherwise.
    const body =
      typeof (updated as { body?: unknown }).body === 'string' ? (updated as { body: string }).body : text;
    shown.body = body;
    // The server reads suggestions of the new text again; until then it shows as written.
    shown.suggestions = [];
    comment.body = serverMarkdown(body);
    comment.contextValue = 'own';
    comment.mode = vscode.CommentMode.Preview;
    this.redraw(shown.thread);
    return { saved: shown.noteId };
  }

  /** Deletes the note once the user confirms; a thread of nothing else goes with it. */
  async delete(comment: vscode.Comment): Promise<{ deleted: number } | undefined> {
    const shown = this.ownNote(comment);
    const remove = vscode.l10n.t('Delete');
    const answer = await showWarning(
      vscode.l10n.t('Delete your comment? This cannot be undone.'),
      { modal: true },
      remove,
    );
    if (answer !== remove) return undefined;
    const { client, parent } = await this.clientFor(shown);
    await client.deleteNote(parent, shown.noteId);
    const { thread } = shown;
    thread.comments = thread.comments.filter((each) => each !== comment);
    if (thread.comments.length === 0) this.comments.forget(thread);
    return { deleted: shown.noteId };
  }
}
