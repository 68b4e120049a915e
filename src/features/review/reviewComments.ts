/**
 * Comment threads on the lines of the diff editor (VS Code's Comments API): the merge request's
 * diff discussions on their lines, on the old or the new side; a new thread on any line the diff
 * shows (GitLab refuses others), replies, resolving and unresolving. A comment that fails to post
 * stays in its box. Pending comments of a review are `PendingReview`'s, edits of own notes
 * `noteEditing.ts`'s; both find their threads here.
 */
import * as vscode from 'vscode';
import type {
  DiffPosition,
  Discussion,
  DiscussionNote,
  HostingClient,
  MergeRequestDiff,
} from '../../api/hosting';
import { fetchCurrentUser } from '../../api/hosting/currentUser';
import { createHash } from 'node:crypto';
import {
  type DiffSide,
  type LineRangeEnd,
  commentableRanges,
  linePosition,
  isLineNumber,
  lineRangeEnd,
  noteSide,
} from '../../domain/diffPositions';
import type { DiffRefs } from '../../domain/mergeRequestView';
import type { AccountManager } from '../../platform/accounts';
import type { ReviewTarget } from './changedFiles';
import { type ReviewContentProvider, type SideSource, sideAddress } from './reviewContent';
import { UnsentComments } from './unsentComments';
import {
  type ReviewSession,
  type ReviewView,
  type ReviewViewer,
  type ShownNote,
  type ThreadInfo,
  describeThread,
  noteComment,
  sessionKey,
  viewOfPosition,
  viewOfSide,
} from './reviewSession';

export const REVIEW_COMMENTS_ID = 'forge-review';

const NOT_FOR_REVIEW = () =>
  new Error(vscode.l10n.t('This diff is not one of a merge request opened for review.'));

/** Where a comment typed in a thread goes: a reply to its discussion, or a new thread at a position. */
export interface CommentPlace {
  session: ReviewSession;
  client: HostingClient;
  discussionId?: string;
  position?: DiffPosition;
}

/** Both ends of a comment on lines `first`..`last` of a side, with GitLab's line codes. */
export function lineRange(
  change: MergeRequestDiff,
  side: DiffSide,
  first: number,
  last: number,
): { start: LineRangeEnd; end: LineRangeEnd } | undefined {
  const path = change.deleted_file ? change.old_path : change.new_path;
  const pathHash = createHash('sha1').update(path).digest('hex');
  const start = lineRangeEnd(change.diff, side, first, pathHash);
  const end = lineRangeEnd(change.diff, side, last, pathHash);
  return start && end ? { start, end } : undefined;
}

/** The position of a comment on `line` of a file of the diff between `refs` (and on `range` when several lines). */
export function diffPosition(
  refs: DiffRefs,
  change: MergeRequestDiff,
  line: NonNullable<ReturnType<typeof linePosition>>,
  range?: { start: LineRangeEnd; end: LineRangeEnd },
): DiffPosition {
  return {
    base_sha: refs.baseSha,
    start_sha: refs.startSha ?? refs.baseSha,
    head_sha: refs.headSha,
    old_path: change.old_path,
    new_path: change.new_path,
    position_type: 'text',
    ...line,
    ...(range ? { line_range: { start: { ...range.start }, end: { ...range.end } } } : {}),
  };
}

/** What the checked-out branch's working files add to the review (`branchThreads.ts`). */
export interface WorkingFileThreads {
  /** Puts the session's threads on the working files too (after its diff threads are placed). */
  place(
    session: ReviewSession,
    discussions: readonly Discussion[],
    viewer: ReviewViewer | undefined,
  ): Promise<void>;
  commentingRanges(document: vscode.TextDocument): Promise<vscode.Range[] | undefined>;
  /** Where a new thread on a working file goes, or undefined when the file is none of the branch's. */
  placeOf(
    thread: vscode.CommentThread,
  ): Promise<{ session: ReviewSession; position: DiffPosition } | undefined>;
}

export class ReviewComments implements vscode.Disposable {
  readonly controller: vscode.CommentController;
  private readonly sessions = new Map<string, ReviewSession>();
  private readonly threads = new WeakMap<vscode.CommentThread, ThreadInfo>();
  /** Comments that failed to send, kept in their threads to send again. */
  readonly unsentComments = new UnsentComments(this);
  private readonly notes = new WeakMap<vscode.Comment, ShownNote>();
  private readonly accountsWatch: vscode.Disposable;
  private readonly changedEmitter = new vscode.EventEmitter<ReviewTarget>();
  /** A merge request changed on the server through the review (the views and its panel follow). */
  readonly onDidChangeOnServer = this.changedEmitter.event;
  /** Runs once a session's threads are placed (the review's pending comments go on them). */
  afterLoad: ((session: ReviewSession, client: HostingClient) => Promise<void>) | undefined;
  /** The checked-out branch's working files: their threads, their commenting lines, new threads on them. */
  workingFiles: WorkingFileThreads | undefined;

  constructor(
    private readonly accounts: AccountManager,
    private readonly content: ReviewContentProvider,
    private readonly log: { warn(line: string): void },
  ) {
    this.controller = vscode.comments.createCommentController(
      REVIEW_COMMENTS_ID,
      vscode.l10n.t('Merge request review'),
    );
    // VS Code shows the prompt on the reply button of a thread that has comments.
    this.controller.options = {
      prompt: vscode.l10n.t('Reply…'),
      placeHolder: vscode.l10n.t('Write a comment (Markdown)'),
    };
    this.accountsWatch = accounts.onDidChange(() => this.dropRemovedAccounts());
  }

  /** A removed account's threads leave the editors with it. */
  private dropRemovedAccounts(): void {
    const kept = new Set(this.accounts.list().map((account) => account.id));
    for (const [key, session] of this.sessions) {
      if (kept.has(session.target.accountId)) continue;
      for (const thread of session.threads) thread.dispose();
      this.sessions.delete(key);
    }
  }

  /**
   * Offers the "+" in the gutter from the first review on: before, VS Code need not ask about every
   * editor (with a range provider set, closing the diff editors of the merge request panel's local
   * clone hung `closeAllEditors` in two host-test runs of three).
   */
  private offerCommentingRanges(): void {
    this.controller.commentingRangeProvider ??= {
      provideCommentingRanges: (document) =>
        document.uri.scheme === 'file'
          ? this.workingFiles?.commentingRanges(document)
          : this.commentingRanges(document.uri),
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
    const viewer =
      previous?.viewer ??
      this.accounts
        .client(target.accountId)
        .then((client) => fetchCurrentUser(client))
        .then(
          (user): ReviewViewer | undefined => user && { username: user.username, name: user.name },
          () => undefined,
        );
    const session: ReviewSession = {
      target,
      refs,
      changes,
      views: previous?.views ?? [],
      source,
      threads: [],
      viewer,
      drafts: new Map(),
      draftsElsewhere: 0,
      draftsAvailable: previous?.draftsAvailable ?? true,
    };
    this.sessions.set(key, session);
    session.loading = this.loadThreads(session).finally(() => {
      session.loading = undefined;
    });
    return session.loading;
  }

  /**
   * Adds a commit's or a comparison's diff to the merge request's session (which `show` started):
   * the threads written on it go on its lines, and its lines take comments.
   */
  async addView(target: ReviewTarget, view: ReviewView): Promise<void> {
    const session = this.sessionFor(target);
    if (!session) throw NOT_FOR_REVIEW();
    await session.loading;
    const known = session.views.findIndex(
      (each) => each.refs.headSha === view.refs.headSha && each.refs.baseSha === view.refs.baseSha,
    );
    if (known >= 0) session.views.splice(known, 1);
    session.views.push(view);
    await this.reload(session);
  }

  /** Reads the session's threads again (after a review is published). */
  reload(session: ReviewSession): Promise<void> {
    return this.show(session.target, session.refs, session.changes, session.source);
  }

  /** The merge request's session, if it was opened for review. */
  hasSession(accountId: string, projectId: number, iid: number): boolean {
    return this.sessions.has(sessionKey(accountId, projectId, iid));
  }

  sessionFor(target: ReviewTarget): ReviewSession | undefined {
    return this.sessions.get(sessionKey(target.accountId, target.project.id, target.mergeRequest.iid));
  }

  /** Threads of the merge request shown unresolved. */
  unresolvedCount(target: ReviewTarget): number {
    const threads = this.sessionFor(target)?.threads ?? [];
    return threads.filter((thread) => thread.state === vscode.CommentThreadState.Unresolved).length;
  }

  allSessions(): readonly ReviewSession[] {
    return [...this.sessions.values()];
  }

  /** Every thread shown, for the host tests. */
  shownThreads(): readonly vscode.CommentThread[] {
    return [...this.sessions.values()].flatMap((session) => session.threads);
  }

  private async loadThreads(session: ReviewSession): Promise<void> {
    const { target } = session;
    const client = await this.accounts.client(target.accountId);
    const discussions = await client.listDiscussions(target.project.id, target.mergeRequest.iid).toArray();
    const viewer = await session.viewer;
    for (const discussion of discussions) {
      // One hostile or broken discussion must not hide the threads and drafts after it.
      try {
        this.placeThread(session, discussion, viewer);
      } catch (error) {
        this.log.warn(`review: discussion ${discussion.id} not shown: ${String(error)}`);
      }
    }
    await this.workingFiles?.place(session, discussions, viewer).catch((error: unknown) => {
      this.log.warn(`review: threads on the working files not shown: ${String(error)}`);
    });
    await this.afterLoad?.(session, client);
  }

  /** The side and line of a position of the session's head, or undefined for an outdated one. */
  lineOf(
    session: ReviewSession,
    position: DiffPosition,
  ): { uri: vscode.Uri; range: vscode.Range } | undefined {
    const view = viewOfPosition(session, position);
    if (!view) return undefined;
    const where = noteSide(position);
    if (!where) return undefined;
    const path = where.side === 'head' ? position.new_path : position.old_path;
    const sha = where.side === 'head' ? view.refs.headSha : view.refs.baseSha;
    // A range comment starts on its first line (on the same side) and ends on the position's.
    const start = position.line_range?.start;
    const named = where.side === 'head' ? start?.new_line : start?.old_line;
    const first = isLineNumber(named) ? named : where.line;
    return {
      uri: this.content.uri(session.source, { path, sha }),
      range: new vscode.Range(Math.min(first, where.line) - 1, 0, where.line - 1, 0),
    };
  }

  private placeThread(
    session: ReviewSession,
    discussion: Discussion,
    viewer: ReviewViewer | undefined,
  ): void {
    const position = discussion.notes[0]?.position;
    // Threads written on an older version are outdated: they stay in the panel, not on these lines.
    const where = position && this.lineOf(session, position);
    if (!where) return;
    const thread = this.controller.createCommentThread(where.uri, where.range, []);
    thread.comments = discussion.notes.map((note) => this.noteComment(thread, note, viewer));
    describeThread(thread, discussion);
    this.track(thread, { session, discussionId: discussion.id });
  }

  /** A note of `thread` as the widget shows it, known by its id for editing. */
  noteComment(
    thread: vscode.CommentThread,
    note: DiscussionNote,
    viewer: ReviewViewer | undefined,
  ): vscode.Comment {
    const shown = noteComment(
      note,
      note.author?.username !== undefined && note.author.username === viewer?.username,
    );
    this.notes.set(shown, { thread, noteId: note.id, body: note.body, suggestions: note.suggestions ?? [] });
    return shown;
  }

  /** The note a comment shows, with its thread. */
  noteOf(comment: vscode.Comment): ShownNote | undefined {
    return this.notes.get(comment);
  }

  track(thread: vscode.CommentThread, info: ThreadInfo): void {
    this.threads.set(thread, info);
    if (!info.session.threads.includes(thread)) info.session.threads.push(thread);
  }

  /** Disposes a thread the review no longer shows. */
  forget(thread: vscode.CommentThread): void {
    const info = this.threads.get(thread);
    if (info) info.session.threads = info.session.threads.filter((each) => each !== thread);
    thread.dispose();
  }

  threadInfo(thread: vscode.CommentThread): ThreadInfo | undefined {
    return this.threads.get(thread);
  }

  private sessionOf(
    uri: vscode.Uri,
  ): { session: ReviewSession; view: ReviewView; side: DiffSide; change: MergeRequestDiff } | undefined {
    const address = sideAddress(uri);
    if (!address?.mergeRequestIid) return undefined;
    const session = this.sessions.get(
      sessionKey(address.accountId, address.project, address.mergeRequestIid),
    );
    const found = session && viewOfSide(session, address.sha, address.path);
    return session && found ? { session, ...found } : undefined;
  }

  private commentingRanges(uri: vscode.Uri): vscode.Range[] | undefined {
    const found = this.sessionOf(uri);
    if (!found) return undefined;
    return commentableRanges(found.change.diff, found.side).map(
      ([first, last]) => new vscode.Range(first - 1, 0, last - 1, 0),
    );
  }

  /** Where a comment typed in `thread` goes: its discussion, or the position of its line. */
  async placeOf(thread: vscode.CommentThread): Promise<CommentPlace> {
    const known = this.threads.get(thread);
    if (known) {
      const client = await this.accounts.client(known.session.target.accountId);
      if (known.discussionId || known.position) return { ...known, client };
    }
    const working = thread.uri.scheme === 'file' ? await this.workingFiles?.placeOf(thread) : undefined;
    if (working) return { ...working, client: await this.accounts.client(working.session.target.accountId) };
    const found = this.sessionOf(thread.uri);
    if (!found || !thread.range) throw NOT_FOR_REVIEW();
    const { session, view, change, side } = found;
    const first = thread.range.start.line + 1;
    const last = Math.max(first, thread.range.end.line + 1);
    // On several lines, the position names the last one and `line_range` both ends.
    const line = linePosition(change.diff, side, last);
    const range = last > first ? lineRange(change, side, first, last) : undefined;
    if (!line || (last > first && !range))
      throw new Error(vscode.l10n.t('Only the lines the diff shows can take a comment.'));
    return {
      session,
      client: await this.accounts.client(session.target.accountId),
      position: diffPosition(view.refs, change, line, range),
    };
  }

  /** Posts the reply, or starts the thread on its line; a failure keeps the text to send again. */
  reply(reply: vscode.CommentReply): Promise<{ discussionId: string }> {
    return this.unsentComments.keeping(
      reply,
      () => this.post(reply),
      (again) => this.reply(again),
    );
  }

  /** The ids of the notes the session's threads show. */
  shownNoteIds(session: ReviewSession): Set<number> {
    const ids = session.threads.flatMap((thread) =>
      thread.comments.flatMap((comment) => this.notes.get(comment)?.noteId ?? []),
    );
    return new Set(ids);
  }

  /** Publishes a comment at once, as a reply or as a new thread. */
  async post(reply: vscode.CommentReply): Promise<{ discussionId: string }> {
    const { thread, text } = reply;
    if (text.trim() === '') throw new Error(vscode.l10n.t('Write a comment first.'));
    const place = await this.placeOf(thread);
    const { session, client, discussionId, position } = place;
    const { project, mergeRequest } = session.target;
    const viewer = await session.viewer;
    if (discussionId) {
      const note = await client.replyToDiscussion(project.id, mergeRequest.iid, discussionId, text);
      thread.comments = [...thread.comments, this.noteComment(thread, note, viewer)];
      return { discussionId };
    }
    if (!position) throw NOT_FOR_REVIEW();
    const discussion = await client.createDiscussion(project.id, mergeRequest.iid, { body: text, position });
    // Pending comments of the thread stay after the published ones.
    const pending = thread.comments.filter((each) => session.drafts.has(each));
    thread.comments = [...discussion.notes.map((note) => this.noteComment(thread, note, viewer)), ...pending];
    describeThread(thread, discussion);
    this.track(thread, { session, discussionId: discussion.id });
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
    describeThread(thread, discussion);
    return { resolved };
  }

  changedOnServer(target: ReviewTarget): void {
    this.changedEmitter.fire(target);
  }

  dispose(): void {
    this.changedEmitter.dispose();
    this.accountsWatch.dispose();
    this.controller.dispose();
  }
}
