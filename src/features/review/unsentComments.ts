/**
 * Comments that failed to send stay in their thread, in an editable box, to send again. When the
 * failure leaves open whether the server stored the comment (the connection broke after sending, or
 * the server answered with a reply we could not read), it is never sent again before the server is
 * asked whether it holds it already: a comment is not published twice.
 */
import * as vscode from 'vscode';
import { NotFoundError } from '../../api/http';
import { mayHaveActed } from '../../platform/commands/errorMessages';
import { showInformation } from '../../platform/userMessages';
import type { CommentPlace, ReviewComments } from './reviewComments';
import { type ReviewSession, commentText, unsentComment } from './reviewSession';

/** Where a comment that may have been stored was found: held for the review, or published. */
export type StoredCopy = 'pending' | 'published';

interface Unsent {
  thread: vscode.CommentThread;
  /** The server may have stored it. */
  uncertain: boolean;
  /** Sends it again the way it was sent first (at once, or held for the review). */
  resend: (reply: vscode.CommentReply) => Promise<unknown>;
}

/**
 * Whether the server holds `text` from the viewer in the comment's place already, as a pending
 * comment or a published note the review does not show yet.
 */
export async function storedCopy(
  place: CommentPlace,
  text: string,
  shownNoteIds: ReadonlySet<number>,
): Promise<StoredCopy | undefined> {
  const { session, client, discussionId } = place;
  const { project, mergeRequest } = session.target;
  const knownDrafts = new Set(session.drafts.values());
  if (session.draftsAvailable) {
    try {
      const drafts = await client.listDraftNotes(project.id, mergeRequest.iid).toArray();
      const held = drafts.some(
        (draft) =>
          draft.note === text &&
          !knownDrafts.has(draft.id) &&
          (discussionId === undefined || draft.discussion_id === discussionId),
      );
      if (held) return 'pending';
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  const viewer = await session.viewer;
  const discussions = await client.listDiscussions(project.id, mergeRequest.iid).toArray();
  const published = discussions.some(
    (discussion) =>
      (discussionId === undefined || discussion.id === discussionId) &&
      discussion.notes.some(
        (note) =>
          note.body === text &&
          !shownNoteIds.has(note.id) &&
          (viewer === undefined || note.author?.username === viewer.username),
      ),
  );
  return published ? 'published' : undefined;
}

export class UnsentComments {
  private readonly unsent = new WeakMap<vscode.Comment, Unsent>();

  constructor(private readonly comments: ReviewComments) {}

  /** Runs `send`; when it fails, the text stays in the thread as a comment `resend` sends again. */
  async keeping<T>(
    reply: vscode.CommentReply,
    send: () => Promise<T>,
    resend: (reply: vscode.CommentReply) => Promise<unknown>,
  ): Promise<T> {
    try {
      return await send();
    } catch (error) {
      const uncertain = mayHaveActed(error);
      const comment = unsentComment(reply.text, uncertain);
      this.unsent.set(comment, { thread: reply.thread, uncertain, resend });
      reply.thread.comments = [...reply.thread.comments, comment];
      throw error;
    }
  }

  threadOf(comment: vscode.Comment): vscode.CommentThread | undefined {
    return this.unsent.get(comment)?.thread;
  }

  /** Sends a comment that failed, as it is now in its box: after asking the server when it may hold it. */
  async send(comment: vscode.Comment): Promise<{ sent: boolean; stored?: StoredCopy }> {
    const unsent = this.unsent.get(comment);
    if (!unsent) throw new Error(vscode.l10n.t('This comment was sent already.'));
    const { thread, uncertain, resend } = unsent;
    const text = commentText(comment);
    if (uncertain) {
      const { session, stored } = await this.storedCopyOf(thread, text);
      if (stored) {
        this.drop(comment, thread);
        await this.comments.reload(session);
        void showInformation(
          stored === 'pending'
            ? vscode.l10n.t('The server had kept your comment for the review: it was not sent again.')
            : vscode.l10n.t('The server had published your comment: it was not sent again.'),
        );
        return { sent: false, stored };
      }
    }
    this.drop(comment, thread);
    await resend({ thread, text });
    return { sent: true };
  }

  /** Whether the server holds `text` in `thread`'s place already (`storedCopy`), and the session. */
  async storedCopyOf(
    thread: vscode.CommentThread,
    text: string,
  ): Promise<{ session: ReviewSession; stored: StoredCopy | undefined }> {
    const place = await this.comments.placeOf(thread);
    const stored = await storedCopy(place, text, this.comments.shownNoteIds(place.session));
    return { session: place.session, stored };
  }

  private drop(comment: vscode.Comment, thread: vscode.CommentThread): void {
    this.unsent.delete(comment);
    thread.comments = thread.comments.filter((each) => each !== comment);
  }
}
