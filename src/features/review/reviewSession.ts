/**
 * What the review's comment threads share: a merge request opened for review (its commits, files
 * and who the account is), what is known of each thread, and the comments as the widget shows them.
 */
import * as vscode from 'vscode';
import type {
  DiffPosition,
  Discussion,
  DiscussionNote,
  MergeRequestDiff,
  Suggestion,
} from '../../api/hosting';
import { suggestionFence } from '../../domain/suggestions';
import { serverMarkdown } from '../../platform/serverMarkdown';
import type { DiffRefs } from '../../domain/mergeRequestView';
import type { ReviewTarget } from './changedFiles';
import type { SideSource } from './reviewContent';

export interface ReviewViewer {
  username: string;
  name: string;
}

/** A diff the review shows besides the merge request's own: one of its commits, or two versions compared. */
export interface ReviewView {
  refs: DiffRefs;
  changes: readonly MergeRequestDiff[];
}

export interface ReviewSession {
  target: ReviewTarget;
  refs: DiffRefs;
  changes: readonly MergeRequestDiff[];
  /** Commits and comparisons opened for this merge request: their lines take comments too. */
  views: ReviewView[];
  source: SideSource;
  threads: vscode.CommentThread[];
  /** Who the account acts as (`GET /user`), asked once per session: tells own notes from others'. */
  viewer: Promise<ReviewViewer | undefined>;
  /** The comments held for the review (draft notes), by the comment shown. */
  drafts: Map<vscode.Comment, number>;
  /** Draft notes not on a line shown here (on the merge request, or on an older version). */
  draftsElsewhere: number;
  /** False once the server answered 404 for draft notes: comments are posted at once. */
  draftsAvailable: boolean;
  loading?: Promise<void>;
}

export interface ThreadInfo {
  session: ReviewSession;
  /** The thread on the server; none while it holds only pending comments. */
  discussionId?: string;
  /** Where a thread of pending comments will be, once published. */
  position?: DiffPosition;
}

/** A note of a thread, as the widget shows it, and what the extension knows of it. */
export interface ShownNote {
  thread: vscode.CommentThread;
  noteId: number;
  /** The Markdown last posted, to restore when an edit is cancelled. */
  body: string;
  /** Its ```suggestion blocks, as the server describes them. */
  suggestions: Suggestion[];
}

/** The diff a position was written on: the merge request's own (same head), or an opened commit's or comparison's. */
export function viewOfPosition(session: ReviewSession, position: DiffPosition): ReviewView | undefined {
  if (position.head_sha === session.refs.headSha) return session;
  return session.views.find(
    (view) => view.refs.headSha === position.head_sha && view.refs.baseSha === position.base_sha,
  );
}

/** The diff, side and file a side's document shows: the merge request's own diff first. */
export function viewOfSide(
  session: ReviewSession,
  sha: string,
  path: string,
): { view: ReviewView; side: 'head' | 'base'; change: MergeRequestDiff } | undefined {
  for (const view of [session, ...session.views]) {
    const side = sha === view.refs.headSha ? 'head' : sha === view.refs.baseSha ? 'base' : undefined;
    if (!side) continue;
    const change = view.changes.find((each) => (side === 'head' ? each.new_path : each.old_path) === path);
    if (change) return { view, side, change };
  }
  return undefined;
}

export function sessionKey(accountId: string, project: string | number, iid: number): string {
  return `${accountId}|${project}|${iid}`;
}

/** A note's Markdown as shown: suggestions as the changes they propose; not trusted. */
export function noteMarkdown(body: string, suggestions: readonly Suggestion[]): vscode.MarkdownString {
  return serverMarkdown(body, { fence: suggestionFence(suggestions) });
}

/**
 * A note as the comment widget shows it: its Markdown rendered without links to commands or HTML.
 * Its `contextValue` says whose it is (`own`, `other`) and whether a suggestion can be applied.
 */
export function noteComment(note: DiscussionNote, own: boolean): vscode.Comment {
  const suggestions = note.suggestions ?? [];
  const appliable = suggestions.some((suggestion) => suggestion.appliable);
  return {
    body: noteMarkdown(note.body, suggestions),
    mode: vscode.CommentMode.Preview,
    author: { name: note.author?.name ?? note.author?.username ?? vscode.l10n.t('Someone') },
    ...(note.created_at ? { timestamp: new Date(note.created_at) } : {}),
    contextValue: `${own ? 'own' : 'other'}${appliable ? ' suggestion' : ''}`,
  };
}

/** A comment held for the review, shown as pending until the review is submitted. */
export function pendingComment(text: string, viewer: ReviewViewer | undefined): vscode.Comment {
  return {
    body: serverMarkdown(text),
    mode: vscode.CommentMode.Preview,
    author: { name: viewer?.name ?? vscode.l10n.t('You') },
    label: vscode.l10n.t('Pending'),
    contextValue: 'draft',
  };
}

/** A comment that failed to send; `uncertain` when the server may have stored it all the same. */
export function unsentComment(text: string, uncertain = false): vscode.Comment {
  return {
    body: text,
    mode: vscode.CommentMode.Editing,
    author: { name: vscode.l10n.t('You') },
    label: uncertain
      ? vscode.l10n.t('May have been saved: checked before sending again')
      : vscode.l10n.t('Not posted'),
    contextValue: 'unsent',
  };
}

export function commentText(comment: vscode.Comment): string {
  return typeof comment.body === 'string' ? comment.body : comment.body.value;
}

/** Resolved threads fold; resolvable ones offer resolve or unresolve. */
export function describeThread(thread: vscode.CommentThread, discussion: Discussion): void {
  const resolvable = discussion.notes.some((note) => note.resolvable === true);
  const resolved = resolvable && discussion.notes.every((note) => !note.resolvable || note.resolved === true);
  thread.canReply = true;
  thread.collapsibleState = resolved
    ? vscode.CommentThreadCollapsibleState.Collapsed
    : vscode.CommentThreadCollapsibleState.Expanded;
  if (resolvable) {
    thread.state = resolved ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
    thread.contextValue = resolved ? 'resolvable resolved' : 'resolvable unresolved';
  }
  // Without a label VS Code titles a thread "Start discussion", even one with comments.
  thread.label = resolved
    ? vscode.l10n.t('Resolved')
    : resolvable
      ? vscode.l10n.t('Unresolved')
      : vscode.l10n.t('Discussion');
}
