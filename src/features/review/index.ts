/*
 * Review: a merge request's changed files in VS Code's own diff editor (one side by side, or all in
 * the multi-file diff editor), their two sides read from the local clone or the server. The
 * Merge Requests view and the merge request panel reach it through `ReviewFeature`. This file is
 * its only public face.
 */
import * as vscode from 'vscode';
import type { DiffPosition, MergeRequestDiff } from '../../api/hosting';
import { registerCommands } from '../../platform/commands/registerCommand';
import { defineCommand, rowOf } from '../../platform/commands/defineCommand';
import type { TreeNode } from '../../platform/tree/treeNode';
import { withProgress } from '../../platform/userMessages';
import type { Services } from '../../services';
import { type ReviewTarget, openAllChanges, openChangedFile } from './changedFiles';
import { applySuggestion } from './applySuggestion';
import { commentCommands } from './commentCommands';
import { NoteEditing } from './noteEditing';
import { openNoteLine } from './noteLines';
import { PendingReview } from './pendingReview';
import { ReviewComments } from './reviewComments';
import { ChangedFileNode, ChangesFolderNode, LiveChangesFolders } from './changesNodes';
import { ViewedFiles } from './viewedFiles';
import { ReviewContentProvider } from './reviewContent';
import { ReviewSides } from './reviewSides';
import { ReviewPreparation } from './reviewPreparation';
import { viewedCommands } from './viewedCommands';
import { CommitReviews, type Prepare, commitCommands } from './commitReview';
import type { AccountManager } from '../../platform/accounts';
import type { CommandDeclaration } from '../../platform/commands/defineCommand';
import { VersionCompare, versionCommands } from './versionCompare';
import { BranchThreads, type CheckedOutMergeRequest } from './branchThreads';
import { branchCommands } from './branchCommands';
import { EditSuggestions } from './editSuggestions';

export type { ReviewTarget } from './changedFiles';
export type { ViewedFiles } from './viewedFiles';
export type { CheckedOutMergeRequest } from './branchThreads';

/** VS Code's command that shows the Comments view, where every thread of the open diffs is listed. */
const COMMENTS_VIEW_FOCUS = 'workbench.action.focusCommentsPanel';

export interface ReviewFeature {
  /** The "Changes" folder for a merge request in a tree; `changed` redraws a node of that tree. */
  changesFolder(target: ReviewTarget, changed: (node: TreeNode) => void): TreeNode;
  /** Opens one changed file side by side (base ↔ head). */
  openChangedFile(target: ReviewTarget, change: MergeRequestDiff): Promise<void>;
  /** Opens every changed file in the multi-file diff editor; answers how many. */
  openAllChanges(target: ReviewTarget): Promise<number>;
  /** The two sides' documents (`forge-review:`). */
  readonly content: ReviewContentProvider;
  /** What the entry's `forge-review:` provider asks (a restored diff gets its threads again). */
  readonly sides: ReviewSides;
  /** The comment threads on the diff's lines. */
  readonly comments: ReviewComments;
  /**
   * Every changed file in the multi-file diff editor with its threads placed, and the Comments view
   * that lists them; answers how many threads are unresolved.
   */
  openThreads(target: ReviewTarget): Promise<number>;
  /** A diff comment's line: the current diff, or the version an outdated comment was written on. */
  openNoteLine(target: ReviewTarget, position: DiffPosition, noteId: number): Promise<{ outdated: boolean }>;
  /** Publishes the merge request's pending review comments at once. */
  submit(target: ReviewTarget): Promise<{ published: number }>;
  /** The status bar item that counts pending review comments. */
  readonly pendingStatus: vscode.StatusBarItem;
  /** The files a reviewer marked as viewed. */
  readonly viewed: ViewedFiles;
  /** Remembers `headSha` as the head last reviewed (an approval): "Changes since my last review". */
  reviewed(target: ReviewTarget, headSha: string): Promise<void>;
  /** The clone's branch is this merge request's source branch (or none is): its threads go on the working files. */
  followCheckedOut(checkedOut: CheckedOutMergeRequest | undefined): Promise<void>;
}

/** The Comments view, which lists every thread of the open diffs. */
async function showCommentsView(log: { warn(line: string): void }): Promise<void> {
  // VS Code registers its Comments view once a controller has comments.
  await vscode.commands.executeCommand(COMMENTS_VIEW_FOCUS).then(undefined, (error: unknown) => {
    log.warn(`Showing the Comments view: ${String(error)}`);
  });
}

/** What the review changes on the server, the merge request's views and panel show (`afterAction`). */
function followServerChanges(services: Services, comments: ReviewComments): vscode.Disposable {
  return comments.onDidChangeOnServer(({ accountId, project, mergeRequest }) =>
    services.afterAction(undefined, {
      accountId,
      projectId: project.id,
      folder: 'mergeRequests',
      mergeRequestIid: mergeRequest.iid,
    }),
  );
}

/** The ticks on changed files, and the Changes folders they redraw. */
function viewedState(context: vscode.ExtensionContext) {
  const viewed = new ViewedFiles(context.workspaceState);
  const folders = new LiveChangesFolders(viewed);
  context.subscriptions.push(viewed, folders);
  return { viewed, folders };
}

/** Commit by commit and version against version: their commands. */
function historyCommands(
  context: vscode.ExtensionContext,
  parts: {
    accounts: AccountManager;
    content: ReviewContentProvider;
    comments: ReviewComments;
    viewed: ViewedFiles;
  },
  prepare: Prepare,
): CommandDeclaration[] {
  const { accounts, content, comments, viewed } = parts;
  const commits = new CommitReviews(accounts, content, comments, prepare);
  context.subscriptions.push(commits);
  return [
    ...commitCommands(commits),
    ...versionCommands(new VersionCompare(accounts, content, comments, prepare, viewed)),
  ];
}

/** "Open All Changes" on a Changes folder: every file in the multi-file diff editor. */
function openAllCommand(
  content: ReviewContentProvider,
  prepare: (target: ReviewTarget, known?: Promise<MergeRequestDiff[]>) => ReturnType<Prepare>,
): CommandDeclaration {
  return defineCommand({
    id: 'forge.review.openAllChanges',
    args: [rowOf(ChangesFolderNode, vscode.l10n.t('a Changes folder'))],
    run: async (folder) => {
      const { target } = folder;
      const { changes, refs, source } = await withProgress(
        {
          location: { viewId: 'forge.mergeRequests' },
          title: vscode.l10n.t('Reading the changes of !{0}…', target.mergeRequest.iid),
        },
        () => prepare(target, folder.changes()),
      );
      await openAllChanges(content, source, target, changes, refs);
      return { opened: changes.length };
    },
  });
}

export function createReviewFeature(services: Services): ReviewFeature {
  const { context, accounts } = services;
  const content = new ReviewContentProvider(accounts);
  const { viewed, folders } = viewedState(context);

  const comments = new ReviewComments(accounts, content, services.log);
  const pending = new PendingReview(comments, accounts, services.log);
  const editing = new NoteEditing(comments, accounts);
  pending.afterSubmit = (target, headSha) =>
    viewed.rememberReviewedHead(target, headSha ?? viewed.headOf(target));
  context.subscriptions.push(comments, pending, followServerChanges(services, comments));

  const preparation = new ReviewPreparation(accounts, comments, services.log);
  const prepare = (target: ReviewTarget, known?: Promise<MergeRequestDiff[]>) =>
    preparation.prepare(target, known);
  const branch = new BranchThreads(comments, content, (target) => prepare(target));
  context.subscriptions.push(branch);
  const openOne = async (
    target: ReviewTarget,
    change: MergeRequestDiff,
    known?: Promise<MergeRequestDiff[]>,
  ) => {
    const { refs, source } = await prepare(target, known);
    await openChangedFile(content, source, target, change, refs);
  };

  registerCommands(context, services.log, [
    defineCommand({
      id: 'forge.review.openChangedFile',
      args: [rowOf(ChangedFileNode, vscode.l10n.t('a changed file'))],
      run: async (row) => {
        await openOne(row.folder.target, row.change, row.folder.changes());
        return { opened: row.change.new_path };
      },
    }),
    ...viewedCommands(viewed),
    ...historyCommands(context, { accounts, content, comments, viewed }, (target) => prepare(target)),
    ...branchCommands(
      branch,
      new EditSuggestions(branch, accounts, comments, (target) => prepare(target), services.log),
    ),
    ...commentCommands(comments, pending, editing, (comment) =>
      applySuggestion(comments, accounts, services.log, comment),
    ),
    openAllCommand(content, prepare),
  ]);

  return {
    changesFolder: (target, changed) => folders.add(new ChangesFolderNode(target, accounts, viewed, changed)),
    openChangedFile: (target, change) => openOne(target, change),
    openAllChanges: async (target) => {
      const { changes, refs, source } = await prepare(target);
      await openAllChanges(content, source, target, changes, refs);
      return changes.length;
    },
    content,
    sides: new ReviewSides(content, comments, accounts, (target) => prepare(target), services.log),
    comments,
    openThreads: async (target) => {
      const { changes, refs, source } = await prepare(target);
      await openAllChanges(content, source, target, changes, refs);
      await comments.sessionFor(target)?.loading;
      await showCommentsView(services.log);
      return comments.unresolvedCount(target);
    },
    openNoteLine: (target, position, noteId) =>
      openNoteLine(
        { accounts, content, comments, prepare: (each) => prepare(each) },
        target,
        position,
        noteId,
      ),
    submit: (target) => pending.submit(target),
    pendingStatus: pending.status,
    viewed,
    reviewed: (target, headSha) => viewed.rememberReviewedHead(target, headSha),
    followCheckedOut: (checkedOut) => branch.follow(checkedOut),
  };
}
