/**
 * What changed between two versions of a merge request (each push a version, `.../versions`):
 * "Compare with a Version…" and "Changes Since My Last Review" (the head when this workspace last
 * submitted a review or approved it). The comparison is GitLab's "compare versions": the older
 * head against the newest straight (`repository/compare?straight=true`), so its left side is that
 * older head's files; its lines take comments with that comparison's position.
 */
import * as vscode from 'vscode';
import { NotFoundError } from '../../api/http';
import type { MergeRequestVersion } from '../../api/hosting';
import { formatAge } from '../../domain/time';
import type { AccountManager } from '../../platform/accounts';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { pickOne, showInformation, withProgress } from '../../platform/userMessages';
import { type ReviewTarget, openAllChanges } from './changedFiles';
import { ChangesFolderNode } from './changesNodes';
import type { Prepare } from './commitReview';
import type { ReviewContentProvider } from './reviewContent';
import type { ReviewComments } from './reviewComments';
import type { ViewedFiles } from './viewedFiles';

export class VersionCompare {
  constructor(
    private readonly accounts: AccountManager,
    private readonly content: ReviewContentProvider,
    private readonly comments: ReviewComments,
    private readonly prepare: Prepare,
    private readonly viewed: ViewedFiles,
  ) {}

  /** Asks which version to compare the newest with; answers what was opened. */
  async pickAndCompare(target: ReviewTarget): Promise<{ from: string; files: number } | undefined> {
    const client = await this.accounts.client(target.accountId);
    const versions = await client
      .listVersions(target.project.id, target.mergeRequest.iid)
      .toArray()
      .catch((error: unknown) => {
        if (error instanceof NotFoundError)
          throw new Error(vscode.l10n.t('This server does not list the versions of a merge request.'), {
            cause: error,
          });
        throw error;
      });
    const [newest, ...older] = versions;
    if (!newest || older.length === 0) {
      void showInformation(
        vscode.l10n.t('!{0} has one version: there is nothing to compare yet.', target.mergeRequest.iid),
      );
      return undefined;
    }
    const items = older.map((version, index) => ({
      label: vscode.l10n.t('Version {0}', older.length - index),
      description: [version.head_commit_sha.slice(0, 8), formatAge(version.created_at)].join(' · '),
      version,
    }));
    const chosen = await pickOne(items, {
      title: vscode.l10n.t('Changes of !{0} since…', target.mergeRequest.iid),
      placeHolder: vscode.l10n.t('The version to compare the newest (version {0}) with', versions.length),
    });
    if (!chosen) return undefined;
    return this.since(target, chosen.version.head_commit_sha, chosen.label, newest);
  }

  async sinceLastReview(target: ReviewTarget): Promise<{ from: string; files: number } | undefined> {
    const reviewed = this.viewed.reviewedHead(target);
    if (!reviewed)
      throw new Error(
        vscode.l10n.t(
          'You have not submitted a review of !{0} or approved it from this workspace yet.',
          target.mergeRequest.iid,
        ),
      );
    return this.since(target, reviewed, vscode.l10n.t('your last review'));
  }

  private async since(
    target: ReviewTarget,
    from: string,
    label: string,
    newest?: MergeRequestVersion,
  ): Promise<{ from: string; files: number } | undefined> {
    const { refs, source } = await this.prepare(target);
    const head = newest?.head_commit_sha ?? refs.headSha;
    const { iid } = target.mergeRequest;
    if (from === head) {
      void showInformation(vscode.l10n.t('Nothing was pushed to !{0} since {1}.', iid, label));
      return undefined;
    }
    const view = await withProgress(
      {
        location: vscode.ProgressLocation.Window,
        title: vscode.l10n.t('Comparing the versions of !{0}…', iid),
      },
      async () => {
        const client = await this.accounts.client(target.accountId);
        const compared = await client.compare(target.project.id, from, head, { straight: true });
        const each = { refs: { baseSha: from, startSha: from, headSha: head }, changes: compared.diffs };
        await this.comments.addView(target, each);
        return each;
      },
    );
    const title = vscode.l10n.t(
      '!{0} changes since {1} ({2} ↔ {3})',
      iid,
      label,
      from.slice(0, 8),
      head.slice(0, 8),
    );
    await openAllChanges(this.content, source, target, view.changes, view.refs, title);
    return { from, files: view.changes.length };
  }
}

export function versionCommands(compare: VersionCompare): CommandDeclaration[] {
  const folder = rowOf(ChangesFolderNode, vscode.l10n.t('a Changes folder'));
  return [
    defineCommand({
      id: 'forge.review.compareWithVersion',
      args: [folder],
      run: (row) => compare.pickAndCompare(row.target),
    }),
    defineCommand({
      id: 'forge.review.changesSinceLastReview',
      args: [folder],
      run: (row) => compare.sinceLastReview(row.target),
    }),
  ];
}
