/**
 * A review held as draft notes (GitLab 15.9+) until "Submit review" publishes it at once: pending
 * comments on their lines, their count in the status bar, submitting and discarding. A server
 * without draft notes (404) gets each comment at once, and the user is told so.
 */
import * as vscode from 'vscode';
import type { DraftNote } from '../../api/hosting';
import { NotFoundError } from '../../api/http';
import type { AccountManager } from '../../platform/accounts';
import { pickOne, showInformation, withProgress } from '../../platform/userMessages';
import type { ReviewTarget } from './changedFiles';
import type { ReviewComments } from './reviewComments';
import { mayHaveActed } from '../../platform/commands/errorMessages';
import { type ReviewSession, type ReviewViewer, pendingComment } from './reviewSession';

function pendingCount(session: ReviewSession): number {
  return session.drafts.size + session.draftsElsewhere;
}

/** The sessions whose reviews hold comments not published yet. */
function withPending(sessions: readonly ReviewSession[]): ReviewSession[] {
  return sessions.filter((session) => pendingCount(session) > 0);
}

function publishedMessage(iid: number, count: number): string {
  return count === 1
    ? vscode.l10n.t('Review of !{0} submitted: 1 comment published.', iid)
    : vscode.l10n.t('Review of !{0} submitted: {1} comments published.', iid, count);
}

export class PendingReview implements vscode.Disposable {
  /** Runs after a review was published (the head it was for is remembered as reviewed). */
  afterSubmit: ((target: ReviewTarget, headSha: string | undefined) => Promise<void>) | undefined;

  readonly status: vscode.StatusBarItem;
  private readonly accountsWatch: vscode.Disposable;

  constructor(
    private readonly comments: ReviewComments,
    private readonly accounts: AccountManager,
    private readonly log: { info(line: string): void },
  ) {
    this.status = vscode.window.createStatusBarItem(
      'forge.reviewPending',
      vscode.StatusBarAlignment.Left,
      49,
    );
    this.status.name = vscode.l10n.t('Forge: pending review');
    this.status.command = 'forge.review.submit';
    this.update();
    comments.afterLoad = (session, client) => this.placeDrafts(session, client);
    // After the comments drop a removed account's sessions (they listen first).
    this.accountsWatch = accounts.onDidChange(() => this.update());
  }

  /** Pending comments in the status bar: how many, and a click submits them. */
  private update(): void {
    const sessions = withPending(this.comments.allSessions());
    const total = sessions.reduce((sum, session) => sum + pendingCount(session), 0);
    void vscode.commands.executeCommand('setContext', 'forge.review.pending', total > 0);
    if (total === 0) {
      this.status.text = '';
      this.status.hide();
      return;
    }
    this.status.text = vscode.l10n.t('$(comment-draft) {0} pending', total);
    const [only] = sessions;
    const iid = only?.target.mergeRequest.iid ?? 0;
    this.status.tooltip =
      sessions.length > 1
        ? vscode.l10n.t('Your reviews have {0} comments not published yet. Click to submit one.', total)
        : total === 1
          ? vscode.l10n.t(
              'Your review of !{0} has 1 comment not published yet. Click to submit the review.',
              iid,
            )
          : vscode.l10n.t(
              'Your review of !{0} has {1} comments not published yet. Click to submit the review.',
              iid,
              total,
            );
    this.status.accessibilityInformation = { label: this.status.tooltip };
    this.status.show();
  }

  private async placeDrafts(
    session: ReviewSession,
    client: Awaited<ReturnType<AccountManager['client']>>,
  ): Promise<void> {
    const { project, mergeRequest } = session.target;
    let drafts: DraftNote[];
    try {
      drafts = await client.listDraftNotes(project.id, mergeRequest.iid).toArray();
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      session.draftsAvailable = false;
      return;
    }
    session.draftsAvailable = true;
    const viewer = await session.viewer;
    for (const draft of drafts) this.placeDraft(session, draft, viewer);
    this.update();
  }

  private placeDraft(session: ReviewSession, draft: DraftNote, viewer: ReviewViewer | undefined): void {
    const shown = pendingComment(draft.note, viewer);
    const replied = draft.discussion_id
      ? session.threads.find(
          (thread) => this.comments.threadInfo(thread)?.discussionId === draft.discussion_id,
        )
      : undefined;
    const where =
      !draft.discussion_id && draft.position ? this.comments.lineOf(session, draft.position) : undefined;
    if (replied) {
      replied.comments = [...replied.comments, shown];
    } else if (where && draft.position) {
      const thread = this.comments.controller.createCommentThread(where.uri, where.range, [shown]);
      thread.canReply = true;
      thread.label = vscode.l10n.t('Pending');
      this.comments.track(thread, { session, position: draft.position });
    } else {
      session.draftsElsewhere += 1;
      return;
    }
    session.drafts.set(shown, draft.id);
  }

  /** Holds the comment for the review; a failure keeps its text in the box. */
  addToReview(reply: vscode.CommentReply): Promise<{ pending: number } | { discussionId: string }> {
    return this.comments.unsentComments.keeping(
      reply,
      () => this.hold(reply),
      (again) => this.addToReview(again),
    );
  }

  private async hold(reply: vscode.CommentReply): Promise<{ pending: number } | { discussionId: string }> {
    if (reply.text.trim() === '') throw new Error(vscode.l10n.t('Write a comment first.'));
    const { session, client, discussionId, position } = await this.comments.placeOf(reply.thread);
    const { project, mergeRequest } = session.target;
    if (session.draftsAvailable) {
      try {
        const draft = await client.createDraftNote(project.id, mergeRequest.iid, {
          note: reply.text,
          ...(discussionId ? { inReplyToDiscussionId: discussionId } : position ? { position } : {}),
        });
        const shown = pendingComment(reply.text, await session.viewer);
        session.drafts.set(shown, draft.id);
        reply.thread.comments = [...reply.thread.comments, shown];
        if (!discussionId && position) {
          this.comments.track(reply.thread, { session, position });
          reply.thread.label = vscode.l10n.t('Pending');
        }
        this.update();
        return { pending: pendingCount(session) };
      } catch (error) {
        if (mayHaveActed(error)) return this.adoptStored(reply, error);
        if (!(error instanceof NotFoundError)) throw error;
        session.draftsAvailable = false;
      }
    }
    const posted = await this.comments.post(reply);
    void showInformation(
      vscode.l10n.t(
        'This server does not hold comments for a review (no draft notes): your comment was posted at once.',
      ),
    );
    return posted;
  }

  /**
   * After a hold whose reply could not be read (the server may have stored the comment): the stored
   * draft shown as pending when the server has it; else the original error, the text kept.
   */
  private async adoptStored(reply: vscode.CommentReply, error: unknown): Promise<{ pending: number }> {
    const found = await this.comments.unsentComments
      .storedCopyOf(reply.thread, reply.text)
      .catch(() => undefined);
    if (found?.stored !== 'pending') throw error;
    await this.comments.reload(found.session);
    void showInformation(
      vscode.l10n.t(
        'Your comment is held for the review, although the server answered in a way Forge Workbench could not read.',
      ),
    );
    return { pending: pendingCount(found.session) };
  }

  /** Discards a pending comment; a thread of nothing else goes with it. */
  async deleteDraft(comment: vscode.Comment): Promise<{ pending: number }> {
    const session = this.comments.allSessions().find((each) => each.drafts.has(comment));
    const draftId = session?.drafts.get(comment);
    if (!session || draftId === undefined)
      throw new Error(vscode.l10n.t('This comment is not pending any more.'));
    const { accountId, project, mergeRequest } = session.target;
    const client = await this.accounts.client(accountId);
    await client.deleteDraftNote(project.id, mergeRequest.iid, draftId);
    session.drafts.delete(comment);
    const thread = session.threads.find((each) => each.comments.includes(comment));
    if (thread) {
      thread.comments = thread.comments.filter((each) => each !== comment);
      if (thread.comments.length === 0) this.comments.forget(thread);
    }
    this.update();
    return { pending: pendingCount(session) };
  }

  /** How many comments the merge request's review holds, when it was opened for review. */
  pending(target: ReviewTarget): number | undefined {
    const session = this.comments.sessionFor(target);
    return session && pendingCount(session);
  }

  /** Publishes the review of `target`, or of the one merge request with pending comments (else asks). */
  async submit(target?: ReviewTarget): Promise<{ published: number }> {
    const chosen = target ?? (await this.choose());
    if (!chosen) return { published: 0 };
    const { accountId, project, mergeRequest } = chosen;
    const client = await this.accounts.client(accountId);
    const published = await withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Submitting the review of !{0}…', mergeRequest.iid),
      },
      async () => {
        const drafts = await client.listDraftNotes(project.id, mergeRequest.iid).toArray();
        if (drafts.length > 0) await client.publishDraftNotes(project.id, mergeRequest.iid);
        return drafts.length;
      },
    );
    const session = this.comments.sessionFor(chosen);
    if (session) {
      session.drafts.clear();
      session.draftsElsewhere = 0;
      this.update();
      await this.comments.reload(session);
    }
    this.update();
    if (published > 0) {
      this.comments.changedOnServer(chosen);
      await this.afterSubmit?.(chosen, session?.refs.headSha);
    }
    if (published === 0) {
      void showInformation(vscode.l10n.t('Your review of !{0} has no pending comments.', mergeRequest.iid));
      return { published };
    }
    this.log.info(`Submitted a review of !${mergeRequest.iid} of ${project.id}: ${published} comments`);
    void showInformation(publishedMessage(mergeRequest.iid, published));
    return { published };
  }

  private async choose(): Promise<ReviewTarget | undefined> {
    const pending = withPending(this.comments.allSessions());
    if (pending.length === 0) {
      void showInformation(
        vscode.l10n.t(
          'No review has pending comments. In a diff of a merge request, write a comment and choose "Add to Review".',
        ),
      );
      return undefined;
    }
    if (pending.length === 1) return pending[0]?.target;
    const picked = await pickOne(
      pending.map((session) => ({
        label: `!${session.target.mergeRequest.iid} ${session.target.mergeRequest.title}`,
        description: vscode.l10n.t('{0} pending', pendingCount(session)),
        session,
      })),
      { title: vscode.l10n.t('Submit which review?') },
    );
    return picked?.session.target;
  }

  dispose(): void {
    this.accountsWatch.dispose();
    this.status.dispose();
  }
}
