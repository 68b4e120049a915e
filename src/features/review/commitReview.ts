/**
 * Reviewing a merge request commit by commit: a commit's own changes (`.../commits/:sha/diff`) in
 * the multi-file diff editor, against its first parent, with "Next Commit" and "Previous Commit".
 * Its lines take comments, posted on the merge request with the commit's position (GitLab accepts
 * positions on older commits), and the threads written on it come back on its lines.
 */
import * as vscode from 'vscode';
import type { MergeRequestCommit, MergeRequestDiff } from '../../api/hosting';
import type { DiffRefs } from '../../domain/mergeRequestView';
import { commitBase } from '../../domain/reviewFiles';
import type { AccountManager } from '../../platform/accounts';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { showInformation, withProgress } from '../../platform/userMessages';
import { type ReviewTarget, openAllChanges } from './changedFiles';
import { CommitNode } from './commitNodes';
import type { ReviewContentProvider, SideSource } from './reviewContent';
import type { ReviewComments } from './reviewComments';

/** The context key that offers "Next Commit" and "Previous Commit" while a commit's changes are shown. */
const COMMIT_SHOWN_CONTEXT = 'forge.review.commitShown';

export type Prepare = (
  target: ReviewTarget,
) => Promise<{ refs: DiffRefs; changes: MergeRequestDiff[]; source: SideSource }>;

interface ShownCommit {
  target: ReviewTarget;
  /** Oldest first. */
  commits: readonly MergeRequestCommit[];
  index: number;
}

export class CommitReviews implements vscode.Disposable {
  private shown: ShownCommit | undefined;
  /** The titles of the commits' editors: the active tab tells whether one is in front. */
  private readonly titles = new Set<string>();
  private readonly tabsWatch: vscode.Disposable;

  constructor(
    private readonly accounts: AccountManager,
    private readonly content: ReviewContentProvider,
    private readonly comments: ReviewComments,
    private readonly prepare: Prepare,
  ) {
    this.tabsWatch = vscode.window.tabGroups.onDidChangeTabs(() => void this.publishShown());
  }

  private publishShown(): Thenable<unknown> {
    const label = vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '';
    // VS Code adds the file count to a multi-file diff editor's title ("… (3 files)").
    const shown = [...this.titles].some((title) => label === title || label.startsWith(`${title} (`));
    return vscode.commands.executeCommand('setContext', COMMIT_SHOWN_CONTEXT, shown);
  }

  /** Opens commit `index` (oldest first) of the merge request; answers its SHA and file count. */
  async open(
    target: ReviewTarget,
    commits: readonly MergeRequestCommit[],
    index: number,
  ): Promise<{ commit: string; files: number }> {
    const commit = commits[index];
    if (!commit) throw new Error(vscode.l10n.t('!{0} has no such commit.', target.mergeRequest.iid));
    const { view, source } = await withProgress(
      {
        location: vscode.ProgressLocation.Window,
        title: vscode.l10n.t('Reading commit {0}…', commit.short_id),
      },
      () => this.readCommit(target, commits, index),
    );
    const title = vscode.l10n.t(
      '!{0} commit {1} of {2}: {3} {4}',
      target.mergeRequest.iid,
      index + 1,
      commits.length,
      commit.short_id,
      commit.title,
    );
    this.titles.add(title);
    this.shown = { target, commits, index };
    await openAllChanges(this.content, source, target, view.changes, view.refs, title);
    await this.publishShown();
    return { commit: commit.id, files: view.changes.length };
  }

  private async readCommit(target: ReviewTarget, commits: readonly MergeRequestCommit[], index: number) {
    const commit = commits[index] as MergeRequestCommit;
    const { refs, source } = await this.prepare(target);
    const base = commitBase(commits, index, refs);
    if (!base)
      throw new Error(vscode.l10n.t('Commit {0} has no parent to compare it with.', commit.short_id));
    const client = await this.accounts.client(target.accountId);
    const changes = await client.listCommitDiff(target.project.id, commit.id).toArray();
    const view = { refs: { baseSha: base, startSha: base, headSha: commit.id }, changes };
    await this.comments.addView(target, view);
    return { view, source };
  }

  /** The next (`1`) or previous (`-1`) commit of the one last opened. */
  async step(delta: 1 | -1): Promise<{ commit: string; files: number } | undefined> {
    const shown = this.shown;
    if (!shown)
      throw new Error(vscode.l10n.t('Open a commit of a merge request first (its Changes folder, Commits).'));
    const index = shown.index + delta;
    if (index < 0 || index >= shown.commits.length) {
      void showInformation(
        delta > 0
          ? vscode.l10n.t('This is the last commit of !{0}.', shown.target.mergeRequest.iid)
          : vscode.l10n.t('This is the first commit of !{0}.', shown.target.mergeRequest.iid),
      );
      return undefined;
    }
    return this.open(shown.target, shown.commits, index);
  }

  dispose(): void {
    this.tabsWatch.dispose();
  }
}

export function commitCommands(reviews: CommitReviews): CommandDeclaration[] {
  return [
    defineCommand({
      id: 'forge.review.openCommit',
      args: [rowOf(CommitNode, vscode.l10n.t('a commit of a merge request'))],
      run: async (row) => reviews.open(row.folder.target, await row.folder.list(), row.index),
    }),
    defineCommand({ id: 'forge.review.nextCommit', args: [], run: () => reviews.step(1) }),
    defineCommand({ id: 'forge.review.previousCommit', args: [], run: () => reviews.step(-1) }),
  ];
}
