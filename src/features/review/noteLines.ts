/**
 * A diff comment's line in the diff editor, from the merge request panel's Discussion tab: a
 * comment on the current version opens its file's diff at the line; an outdated one opens the
 * version it was written on (its own base and head) with its thread on the line, to read and answer.
 */
import * as vscode from 'vscode';
import type { DiffPosition, MergeRequestDiff } from '../../api/hosting';
import { NotFoundError } from '../../api/http';
import { notePlace } from '../../domain/diffPositions';
import type { DiffRefs } from '../../domain/mergeRequestView';
import { type ReviewTarget, openChangedFile } from './changedFiles';
import type { AccountManager } from '../../platform/accounts';
import type { ReviewComments } from './reviewComments';
import { describeThread } from './reviewSession';
import type { ReviewContentProvider, SideSource } from './reviewContent';

export interface NoteLineDeps {
  accounts: AccountManager;
  content: ReviewContentProvider;
  comments: ReviewComments;
  prepare(target: ReviewTarget): Promise<{ refs: DiffRefs; changes: MergeRequestDiff[]; source: SideSource }>;
}

/** Puts the cursor on `line` (1-based) of the visible editor of `uri`, in the middle of the view. */
function reveal(uri: vscode.Uri, line: number): void {
  const editor = vscode.window.visibleTextEditors.find(
    (each) => each.document.uri.toString() === uri.toString(),
  );
  if (!editor) return;
  const at = new vscode.Position(Math.max(0, line - 1), 0);
  editor.selection = new vscode.Selection(at, at);
  editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenter);
}

/** The side's text, or an empty side where the file was not there (added, deleted). */
async function sideOrEmpty(
  content: ReviewContentProvider,
  source: SideSource,
  side: { path: string; sha: string },
): Promise<vscode.Uri> {
  const uri = content.uri(source, side);
  try {
    await content.provideTextDocumentContent(uri, new vscode.CancellationTokenSource().token);
    return uri;
  } catch (error) {
    if (error instanceof NotFoundError) return content.uri(source, { path: side.path, sha: '' });
    throw error;
  }
}

/**
 * The thread of note `noteId`, written on an older version, on `line` (1-based) of `uri`, a side
 * of that version: to read and answer it there. Shown once.
 */
async function showOutdated(
  deps: NoteLineDeps,
  target: ReviewTarget,
  noteId: number,
  uri: vscode.Uri,
  line: number,
): Promise<void> {
  const { comments } = deps;
  const session = comments.sessionFor(target);
  if (!session) return;
  await session.loading;
  const range = new vscode.Range(line - 1, 0, line - 1, 0);
  const shown = session.threads.find(
    (thread) => thread.uri.toString() === uri.toString() && thread.range?.start.line === range.start.line,
  );
  if (shown) return;
  const client = await deps.accounts.client(target.accountId);
  const discussions = await client.listDiscussions(target.project.id, target.mergeRequest.iid).toArray();
  const discussion = discussions.find((each) => each.notes.some((note) => note.id === noteId));
  if (!discussion) return;
  const viewer = await session.viewer;
  const thread = comments.controller.createCommentThread(uri, range, []);
  thread.comments = discussion.notes.map((note) => comments.noteComment(thread, note, viewer));
  describeThread(thread, discussion);
  thread.label = vscode.l10n.t('Outdated');
  comments.track(thread, { session, discussionId: discussion.id });
}

export async function openNoteLine(
  deps: NoteLineDeps,
  target: ReviewTarget,
  position: DiffPosition,
  noteId: number,
): Promise<{ outdated: boolean }> {
  const { content } = deps;
  const { refs, changes, source } = await deps.prepare(target);
  const place = notePlace(position, refs.headSha);
  if (!place) throw new Error(vscode.l10n.t('This comment is not on a line of the diff.'));
  if (!place.outdated) {
    const change = changes.find((each) =>
      place.side === 'head' ? each.new_path === place.path : each.old_path === place.path,
    );
    if (!change)
      throw new Error(
        vscode.l10n.t('{0} is not among the changes of !{1} any more.', place.path, target.mergeRequest.iid),
      );
    await openChangedFile(content, source, target, change, refs);
    const sha = place.side === 'head' ? refs.headSha : refs.baseSha;
    reveal(content.uri(source, { path: place.path, sha }), place.line);
    return { outdated: false };
  }
  const left = await sideOrEmpty(content, source, { path: position.old_path, sha: position.base_sha });
  const right = await sideOrEmpty(content, source, { path: position.new_path, sha: position.head_sha });
  await vscode.commands.executeCommand(
    'vscode.diff',
    left,
    right,
    vscode.l10n.t(
      '{0} (!{1}, outdated: {2} ↔ {3})',
      place.path,
      target.mergeRequest.iid,
      position.base_sha.slice(0, 8),
      position.head_sha.slice(0, 8),
    ),
    { preview: true },
  );
  const sideUri = place.side === 'head' ? right : left;
  await showOutdated(deps, target, noteId, sideUri, place.line);
  reveal(sideUri, place.line);
  return { outdated: true };
}
