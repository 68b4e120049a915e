/**
 * The merge request of the checked-out branch, on the working files themselves: when the
 * workspace's clone is on a merge request's source branch, its diff threads go on the lines of the
 * files as they are now (a line moved by local edits is followed; a thread whose line was changed or
 * removed, or that was written on an older version, is shown on its file as outdated, so the
 * Comments view lists it), new threads can be started on the working files' lines that the diff
 * shows, and every thread answers as in the diff editor. The setting
 * `forge.review.threadsOnCheckedOutBranch` (default on) turns it off.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DiffPosition, Discussion, MergeRequest, MergeRequestDiff, Project } from '../../api/hosting';
import { commentableRanges, linePosition, noteSide } from '../../domain/diffPositions';
import { type LineEdit, headLineOf, lineEdits, workingLineOf } from '../../domain/workingFiles';
import type { ReviewTarget } from './changedFiles';
import type { Prepare } from './commitReview';
import type { ReviewContentProvider } from './reviewContent';
import { type ReviewComments, type WorkingFileThreads, diffPosition } from './reviewComments';
import { type ReviewSession, type ReviewViewer, describeThread, sessionKey } from './reviewSession';

export const THREADS_ON_BRANCH_SETTING = 'review.threadsOnCheckedOutBranch';

/** The clone is on this merge request's source branch. */
export interface CheckedOutMergeRequest {
  accountId: string;
  project: Project;
  mergeRequest: MergeRequest;
  /** The clone's folder. */
  root: string;
}

/** A file's path in the clone with `/` between folders, or undefined for one outside it (or the clone itself). */
export function pathInClone(root: string, file: string): string | undefined {
  const relative = path.relative(root, path.resolve(root, file));
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/** A path from the server as a file of the clone, or undefined when it would leave the clone. */
export function fileInClone(root: string, serverPath: string): vscode.Uri | undefined {
  return pathInClone(root, serverPath) === undefined
    ? undefined
    : vscode.Uri.file(path.resolve(root, serverPath));
}

export class BranchThreads implements WorkingFileThreads, vscode.Disposable {
  private checkedOut: CheckedOutMergeRequest | undefined;
  private readonly watches: vscode.Disposable[];

  constructor(
    private readonly comments: ReviewComments,
    private readonly content: ReviewContentProvider,
    private readonly prepare: Prepare,
  ) {
    comments.workingFiles = this;
    this.watches = [
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`forge.${THREADS_ON_BRANCH_SETTING}`)) void this.reload();
      }),
      // A saved file's lines may have moved: its threads are placed again.
      vscode.workspace.onDidSaveTextDocument((document) => {
        if (this.relativePath(document.uri) !== undefined) void this.reload();
      }),
      // The review starts when a file of the clone is opened, not before (see `reload`).
      vscode.workspace.onDidOpenTextDocument((document) => {
        if (this.relativePath(document.uri) !== undefined) void this.reload();
      }),
    ];
  }

  /** The merge request of the checked-out branch, when the status bar found one. */
  get current(): CheckedOutMergeRequest | undefined {
    return this.checkedOut;
  }

  /** The head's file and the working file, when both can be read. */
  async texts(
    session: ReviewSession,
    uri: vscode.Uri,
    filePath: string,
  ): Promise<{ head: string; working: string } | undefined> {
    const [head, working] = await Promise.all([this.headText(session, filePath), this.workingText(uri)]);
    return head === undefined || working === undefined ? undefined : { head, working };
  }

  get enabled(): boolean {
    return vscode.workspace.getConfiguration('forge').get<boolean>(THREADS_ON_BRANCH_SETTING, true);
  }

  /** The clone's branch and its merge request (the status bar finds them), or none. */
  async follow(checkedOut: CheckedOutMergeRequest | undefined): Promise<void> {
    const before = this.checkedOut;
    const same =
      before !== undefined &&
      checkedOut !== undefined &&
      before.root === checkedOut.root &&
      this.keyOf(before) === this.keyOf(checkedOut) &&
      before.mergeRequest.sha === checkedOut.mergeRequest.sha;
    if (same) return;
    this.checkedOut = checkedOut;
    await this.reload(before);
  }

  private keyOf(checkedOut: CheckedOutMergeRequest): string {
    return sessionKey(checkedOut.accountId, checkedOut.project.id, checkedOut.mergeRequest.iid);
  }

  /** Reads the threads again: the working files get theirs, or lose them when turned off. */
  private async reload(previous?: CheckedOutMergeRequest): Promise<void> {
    const gone = previous && this.comments.sessionFor(targetOf(previous));
    if (gone && previous !== this.checkedOut) await this.comments.reload(gone);
    const checkedOut = this.checkedOut;
    if (!checkedOut) return;
    const target = targetOf(checkedOut);
    const session = this.comments.sessionFor(target);
    if (session) await this.comments.reload(session);
    // Not at start-up for every clone on a merge request's branch: only once one of its files is
    // open (a review then offers its comment lines to every editor, which VS Code asks about).
    else if (this.enabled && this.cloneFileOpen())
      await this.prepare(target).then(() => this.comments.sessionFor(target)?.loading);
  }

  private cloneFileOpen(): boolean {
    return vscode.workspace.textDocuments.some((document) => this.relativePath(document.uri) !== undefined);
  }

  private forSession(session: ReviewSession): CheckedOutMergeRequest | undefined {
    const checkedOut = this.checkedOut;
    if (!checkedOut || !this.enabled) return undefined;
    return sessionKey(
      session.target.accountId,
      session.target.project.id,
      session.target.mergeRequest.iid,
    ) === this.keyOf(checkedOut)
      ? checkedOut
      : undefined;
  }

  private relativePath(uri: vscode.Uri): string | undefined {
    const root = this.checkedOut?.root;
    if (uri.scheme !== 'file' || root === undefined) return undefined;
    return pathInClone(root, uri.fsPath);
  }

  /** The working file's text: the editor's (unsaved edits too) when it is open, else the disk's. */
  private async workingText(uri: vscode.Uri): Promise<string | undefined> {
    const open = vscode.workspace.textDocuments.find(
      (document) => document.uri.toString() === uri.toString(),
    );
    if (open) return open.getText();
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      return undefined;
    }
  }

  private async headText(session: ReviewSession, filePath: string): Promise<string | undefined> {
    const source = new vscode.CancellationTokenSource();
    try {
      const uri = this.content.uri(session.source, { path: filePath, sha: session.refs.headSha });
      return await this.content.provideTextDocumentContent(uri, source.token);
    } catch {
      return undefined;
    } finally {
      source.dispose();
    }
  }

  /** The edits between the head's file and the working file, or undefined when one cannot be read. */
  private async editsOf(
    session: ReviewSession,
    uri: vscode.Uri,
    filePath: string,
  ): Promise<LineEdit[] | undefined> {
    const texts = await this.texts(session, uri, filePath);
    return texts && lineEdits(texts.head, texts.working);
  }

  async place(
    session: ReviewSession,
    discussions: readonly Discussion[],
    viewer: ReviewViewer | undefined,
  ): Promise<void> {
    const checkedOut = this.forSession(session);
    if (!checkedOut) return;
    const edits = new Map<string, Promise<LineEdit[] | undefined>>();
    for (const discussion of discussions) {
      const position = discussion.notes[0]?.position;
      if (!position) continue;
      const resolved = discussion.notes.every((note) => !note.resolvable || note.resolved === true);
      const filePath = position.new_path || position.old_path;
      const uri = fileInClone(checkedOut.root, filePath);
      if (!uri) continue;
      const where = position.head_sha === session.refs.headSha ? noteSide(position) : undefined;
      let line: number | undefined;
      if (where?.side === 'head') {
        let known = edits.get(filePath);
        if (!known) edits.set(filePath, (known = this.editsOf(session, uri, filePath)));
        const fileEdits = await known;
        line = fileEdits && workingLineOf(fileEdits, where.line);
      }
      // Outdated and resolved: nothing left to do on this file.
      if (line === undefined && resolved) continue;
      this.placeOne(session, discussion, viewer, uri, line, position);
    }
  }

  private placeOne(
    session: ReviewSession,
    discussion: Discussion,
    viewer: ReviewViewer | undefined,
    uri: vscode.Uri,
    line: number | undefined,
    position: DiffPosition,
  ): void {
    const at = line ?? 1;
    const thread = this.comments.controller.createCommentThread(
      uri,
      new vscode.Range(at - 1, 0, at - 1, 0),
      [],
    );
    // An outdated thread belongs to its file, not to a line (the Comments view lists it).
    if (line === undefined) thread.range = undefined;
    thread.comments = discussion.notes.map((note) => this.comments.noteComment(thread, note, viewer));
    describeThread(thread, discussion);
    if (line === undefined) {
      // Folded: it has no line to sit on; the Comments view lists it.
      thread.collapsibleState = vscode.CommentThreadCollapsibleState.Collapsed;
      const was = noteSide(position);
      thread.label = was
        ? vscode.l10n.t('Outdated (was line {0} at {1})', was.line, position.head_sha.slice(0, 8))
        : vscode.l10n.t('Outdated');
    }
    this.comments.track(thread, { session, discussionId: discussion.id });
  }

  private sessionAndChange(
    uri: vscode.Uri,
  ): { session: ReviewSession; change: MergeRequestDiff; filePath: string } | undefined {
    const checkedOut = this.checkedOut;
    const filePath = this.relativePath(uri);
    if (!checkedOut || !this.enabled || filePath === undefined) return undefined;
    const session = this.comments.sessionFor(targetOf(checkedOut));
    const change = session?.changes.find((each) => each.new_path === filePath && !each.deleted_file);
    return session && change ? { session, change, filePath } : undefined;
  }

  async commentingRanges(document: vscode.TextDocument): Promise<vscode.Range[] | undefined> {
    const found = this.sessionAndChange(document.uri);
    if (!found) return undefined;
    const head = await this.headText(found.session, found.filePath);
    if (head === undefined) return undefined;
    const edits = lineEdits(head, document.getText());
    if (!edits) return undefined;
    const lines: number[] = [];
    for (const [first, last] of commentableRanges(found.change.diff, 'head')) {
      for (let line = first; line <= last; line += 1) {
        const working = workingLineOf(edits, line);
        if (working !== undefined) lines.push(working);
      }
    }
    return runsOf(lines).map(([first, last]) => new vscode.Range(first - 1, 0, last - 1, 0));
  }

  async placeOf(
    thread: vscode.CommentThread,
  ): Promise<{ session: ReviewSession; position: DiffPosition } | undefined> {
    const found = this.sessionAndChange(thread.uri);
    if (!found || !thread.range) return undefined;
    const { session, change, filePath } = found;
    const edits = await this.editsOf(session, thread.uri, filePath);
    const headLine = edits && headLineOf(edits, thread.range.end.line + 1);
    const line = headLine === undefined ? undefined : linePosition(change.diff, 'head', headLine);
    if (!line)
      throw new Error(
        vscode.l10n.t(
          'Only lines the merge request changes, unchanged since your last pull, take a comment here.',
        ),
      );
    return { session, position: diffPosition(session.refs, change, line) };
  }

  dispose(): void {
    for (const watch of this.watches) watch.dispose();
    if (this.comments.workingFiles === this) this.comments.workingFiles = undefined;
  }
}

export function targetOf(checkedOut: CheckedOutMergeRequest): ReviewTarget {
  return {
    accountId: checkedOut.accountId,
    project: checkedOut.project,
    mergeRequest: checkedOut.mergeRequest,
  };
}

/** Sorted line numbers as runs of consecutive lines. */
function runsOf(lines: readonly number[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const line of [...new Set(lines)].sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && line === last[1] + 1) last[1] = line;
    else runs.push([line, line]);
  }
  return runs;
}
