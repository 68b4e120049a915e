/**
 * Comment threads on the lines of the diff editor (VS Code's Comments API): the merge request's
 * diff discussions on their lines, on the old or the new side; a new thread on any line the diff
 * shows (GitLab refuses others), replies, resolving and unresolving. A comment that fails to post
 * stays in its box.
 */
import * as vscode from 'vscode';
import type { Discussion, DiscussionNote, MergeRequestDiff } from '../../api/hosting';
import { fetchCurrentUser } from '../../api/hosting/currentUser';
import { type DiffSide, commentableRanges, linePosition, noteSide } from '../../domain/diffPositions';
import type { DiffRefs } from '../../domain/mergeRequestView';
import type { AccountManager } from '../../platform/accounts';
import type { ReviewTarget } from './changedFiles';
import { type ReviewContentProvider, type SideSource, sideAddress } from './reviewContent';

export const REVIEW_COMMENTS_ID = 'forge-review';

interface ReviewSession {
  target: ReviewTarget;
  refs: DiffRefs;
  changes: readonly MergeRequestDiff[];
  source: SideSource;
  threads: vscode.CommentThread[];
  /** Who the account acts as (`GET /user`), asked once per session: tells own notes from others'. */
  viewer: Promise<string | undefined>;
  loading?: Promise<void>;
}

interface ThreadInfo {
  session: ReviewSession;
  discussionId?: string;
}

function sessionKey(accountId: string, project: string | number, iid: number): string {
  return `${accountId}|${project}|${iid}`;
}

/** A note as the comment widget shows it: its Markdown rendered without links to commands or HTML. */
function comment(note: DiscussionNote, own: boolean): vscode.Comment {
  const body = new vscode.MarkdownString(note.body);
  body.isTrusted = false;
  body.supportHtml = false;
  body.supportThemeIcons = false;
  return {
    body,
    mode: vscode.CommentMode.Preview,
    author: { name: note.author?.name ?? note.author?.username ?? vscode.l10n.t('Someone') },
    ...(note.created_at ? { timestamp: new Date(note.created_at) } : {}),
    contextValue: own ? 'own' : 'other',
  };
}

export class ReviewComments implements vscode.Disposable {
  readonly controller: vscode.CommentController;
  private readonly sessions = new Map<string, ReviewSession>();
  private readonly threads = new WeakMap<vscode.CommentThread, ThreadInfo>();
  /** Comments that failed to post, and their threads. */
  private readonly unsent = new WeakMap<vscode.Comment, vscode.CommentThread>();

  constructor(
    private readonly accounts: AccountManager,
    private readonly content: ReviewContentProvider,
  ) {
    this.controller = vscode.comments.createCommentController(
      REVIEW_COMMENTS_ID,
      vscode.l10n.t('Merge request review'),
    );
    this.controller.options = {
      prompt: vscode.l10n.t('Comment on this line'),
      placeHolder: vscode.l10n.t('Write a comment (Markdown)'),
    };
  }

  /**
   * Offers the "+" in the gutter from the first review on: before, VS Code need not ask about every
   * editor (with a range provider set, closing the diff editors of the merge request panel's local
   * clone hung `closeAllEditors` in two host-test runs of three).
   */
  private offerCommentingRanges(): void {
    this.controller.commentingRangeProvider ??= {
      provideCommentingRanges: (document) => this.commentingRanges(document.uri),
    };
  }

  /** The merge request's diff threads on the lines of its sides; read once per merge request. */
  show(
    target: ReviewTarget,
    refs: DiffRefs,
    changes: readonly MergeRequestDiff[],
    source: SideSource,
  ): Promise<void> {
    const key = sessionKey(target.accountId, target.project.id, target.mergeRequest.iid);
    const previous = this.sessions.get(key);
    // Opened again: the threads are read again (others may have commented since).
    if (previous?.loading) return previous.loading;
    for (const thread of previous?.threads ?? []) thread.dispose();
    this.offerCommentingRanges();
    const viewer = this.accounts
      .client(target.accountId)
      .then((client) => fetchCurrentUser(client))
      .then(
        (user) => user?.username,
        () => undefined,
      );
    const session: ReviewSession = { target, refs, changes, source, threads: [], viewer };
    this.sessions.set(key, session);
    session.loading = this.loadThreads(session).finally(() => {
      session.loading = undefined;
    });
    return session.loading;
  }

  /** Every thread shown, for the host tests. */
  shownThreads(): readonly vscode.CommentThread[] {
    return [...this.sessions.values()].flatMap((session) => session.threads);
  }

  private async loadThreads(session: ReviewSession): Promise<void> {
    const { target } = session;
    const client = await this.accounts.client(target.accountId);
    const discussions = await client.listDiscussions(target.project.id, target.mergeRequest.iid).toArray();
    const username = await session.viewer;
    for (const discussion of discussions) this.placeThread(session, discussion, username);
  }

  private placeThread(session: ReviewSession, discussion: Discussion, username: string | undefined): void {
    const [first] = discussion.notes;
    const position = first?.position;
    // Threads written on an older version are outdated: they stay in the panel, not on these lines.
    if (!first || !position || position.head_sha !== session.refs.headSha) return;
    const where = noteSide(position);
    if (!where) return;
    const path = where.side === 'head' ? position.new_path : position.old_path;
    const sha = where.side === 'head' ? session.refs.headSha : session.refs.baseSha;
    const uri = this.content.uri(session.source, { path, sha });
    const thread = this.controller.createCommentThread(
      uri,
      new vscode.Range(where.line - 1, 0, where.line - 1, 0),
      discussion.notes.map((note) => comment(note, note.author?.username === username)),
    );
    this.describe(thread, discussion);
    this.threads.set(thread, { session, discussionId: discussion.id });
    session.threads.push(thread);
  }

  private describe(thread: vscode.CommentThread, discussion: Discussion): void {
    const resolvable = discussion.notes.some((note) => note.resolvable === true);
    const resolved =
      resolvable && discussion.notes.every((note) => !note.resolvable || note.resolved === true);
    thread.canReply = true;
    thread.collapsibleState = resolved
      ? vscode.CommentThreadCollapsibleState.Collapsed
      : vscode.CommentThreadCollapsibleState.Expanded;
    if (resolvable) {
      thread.state = resolved ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
      thread.contextValue = resolved ? 'resolvable resolved' : 'resolvable unresolved';
    }
    thread.label = resolved ? vscode.l10n.t('Resolved') : undefined;
  }

  private sessionOf(
    uri: vscode.Uri,
  ): { session: ReviewSession; side: DiffSide; change: MergeRequestDiff } | undefined {
    const address = sideAddress(uri);
    if (!address?.mergeRequestIid) return undefined;
    const session = this.sessions.get(
      sessionKey(address.accountId, address.project, address.mergeRequestIid),
    );
    if (!session) return undefined;
    const side =
      address.sha === session.refs.headSha
        ? 'head'
        : address.sha === session.refs.baseSha
          ? 'base'
          : undefined;
    if (!side) return undefined;
    const change = session.changes.find(
      (each) => (side === 'head' ? each.new_path : each.old_path) === address.path,
    );
    return change ? { session, side, change } : undefined;
  }

  private commentingRanges(uri: vscode.Uri): vscode.Range[] | undefined {
    const found = this.sessionOf(uri);
    if (!found) return undefined;
    return commentableRanges(found.change.diff, found.side).map(
      ([first, last]) => new vscode.Range(first - 1, 0, last - 1, 0),
    );
  }

  /**
   * Posts the reply, or starts the thread on its line. When that fails, the text stays in the thread
   * as a comment not posted, open for editing, with "Send" to try again; then the error is thrown.
   */
  async reply(reply: vscode.CommentReply): Promise<{ discussionId: string }> {
    try {
      return await this.post(reply);
    } catch (error) {
      const unsent: vscode.Comment = {
        body: reply.text,
        mode: vscode.CommentMode.Editing,
        author: { name: vscode.l10n.t('You') },
        label: vscode.l10n.t('Not posted'),
        contextValue: 'unsent',
      };
      this.unsent.set(unsent, reply.thread);
      reply.thread.comments = [...reply.thread.comments, unsent];
      throw error;
    }
  }

  /** Sends a comment that failed to post, as it is now in its box. */
  sendUnsent(unsent: vscode.Comment): Promise<{ discussionId: string }> {
    const thread = this.unsent.get(unsent);
    if (!thread) throw new Error(vscode.l10n.t('This comment was sent already.'));
    this.unsent.delete(unsent);
    thread.comments = thread.comments.filter((each) => each !== unsent);
    const text = typeof unsent.body === 'string' ? unsent.body : unsent.body.value;
    return this.reply({ thread, text });
  }

  private async post(reply: vscode.CommentReply): Promise<{ discussionId: string }> {
    const { thread, text } = reply;
    if (text.trim() === '') throw new Error(vscode.l10n.t('Write a comment first.'));
    const known = this.threads.get(thread);
    const found = known ? undefined : this.sessionOf(thread.uri);
    const session = known?.session ?? found?.session;
    if (!session)
      throw new Error(vscode.l10n.t('This diff is not one of a merge request opened for review.'));
    const { target, refs } = session;
    const client = await this.accounts.client(target.accountId);
    const username = await session.viewer;
    const { project, mergeRequest } = target;
    if (known?.discussionId) {
      const note = await client.replyToDiscussion(project.id, mergeRequest.iid, known.discussionId, text);
      thread.comments = [...thread.comments, comment(note, true)];
      return { discussionId: known.discussionId };
    }
    if (!found || !thread.range)
      throw new Error(vscode.l10n.t('This diff is not one of a merge request opened for review.'));
    const line = linePosition(found.change.diff, found.side, thread.range.start.line + 1);
    if (!line) throw new Error(vscode.l10n.t('Only the lines the diff shows can take a comment.'));
    const discussion = await client.createDiscussion(project.id, mergeRequest.iid, {
      body: text,
      position: {
        base_sha: refs.baseSha,
        start_sha: refs.startSha ?? refs.baseSha,
        head_sha: refs.headSha,
        old_path: found.change.old_path,
        new_path: found.change.new_path,
        position_type: 'text',
        ...line,
      },
    });
    thread.comments = discussion.notes.map((note) => comment(note, note.author?.username === username));
    this.describe(thread, discussion);
    this.threads.set(thread, { session, discussionId: discussion.id });
    session.threads.push(thread);
    return { discussionId: discussion.id };
  }

  async resolve(thread: vscode.CommentThread, resolved: boolean): Promise<{ resolved: boolean }> {
    const known = this.threads.get(thread);
    if (!known?.discussionId) throw new Error(vscode.l10n.t('This thread is not on the server yet.'));
    const { project, mergeRequest, accountId } = known.session.target;
    const client = await this.accounts.client(accountId);
    const discussion = await client.resolveDiscussion(
      project.id,
      mergeRequest.iid,
      known.discussionId,
      resolved,
    );
    this.describe(thread, discussion);
    return { resolved };
  }

  dispose(): void {
    this.controller.dispose();
  }
}
