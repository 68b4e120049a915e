/** "Check Out Merge Request": its source branch fetched and checked out in the workspace clone. */
import { CANCELLED } from './mergeRequestTargets';
import * as vscode from 'vscode';
import { isSafeBranchName } from '../../domain/gitRemote';
import { findLocalClone, runGit } from '../../platform/localGit';
import { type MergeRequestCommandContext, pickMergeRequest, projectPath } from './mergeRequestTargets';
import {
  type ProgressReporter,
  showInformation,
  showWarning,
  withProgress,
} from '../../platform/userMessages';

export async function checkoutMergeRequest(context: MergeRequestCommandContext, arg: unknown) {
  const target = await pickMergeRequest(
    context.services,
    arg,
    vscode.l10n.t('Check out which merge request?'),
  );
  if (!target) return { checkedOut: undefined, ...CANCELLED };
  const { mergeRequest: mr, project } = target;
  const clone = await findLocalClone(project);
  if (!clone) {
    const message = vscode.l10n.t(
      'No folder in this workspace is a clone of {0}. Open a clone of it (remote {1}) and try again.',
      projectPath(project),
      project.http_url_to_repo ?? project.ssh_url_to_repo ?? projectPath(project),
    );
    void showWarning(message);
    return { checkedOut: undefined, reason: 'no-repository', message };
  }
  const branch = mr.source_branch;
  if (!isSafeBranchName(branch) || !isSafeBranchName(clone.remote.name)) {
    throw new Error(vscode.l10n.t('The branch name "{0}" cannot be checked out safely.', branch));
  }
  const fromFork = mr.source_project_id !== undefined && mr.source_project_id !== mr.project_id;
  const { root } = clone;
  const remote = clone.remote.name;
  const result = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Checking out {0} of !{1}', branch, mr.iid),
      cancellable: true,
    },
    async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        const { signal } = controller;
        progress.report({ message: vscode.l10n.t('git fetch {0}', remote) });
        return await fetchAndCheckOut({ root, remote, branch, iid: mr.iid, fromFork }, signal, progress);
      } finally {
        subscription.dispose();
      }
    },
  );
  void showInformation(
    result.updated
      ? vscode.l10n.t('Checked out {0} (!{1}) in {2}, fast-forwarded.', branch, mr.iid, clone.root)
      : vscode.l10n.t('Checked out {0} (!{1}) in {2}.', branch, mr.iid, clone.root),
  );
  return { checkedOut: branch, root: clone.root, remote, createdBranch: result.created };
}

/** Fetches the merge request's branch and checks it out, fast-forwarding a local branch that tracks it. */
async function fetchAndCheckOut(
  {
    root,
    remote,
    branch,
    iid,
    fromFork,
  }: { root: string; remote: string; branch: string; iid: number; fromFork: boolean },
  signal: AbortSignal,
  progress: ProgressReporter,
): Promise<{ created: boolean; updated: boolean }> {
  // A fork's branch is not on this remote; the target project keeps every merge request's head.
  await runGit(root, ['fetch', remote, fromFork ? `refs/merge-requests/${iid}/head` : branch], signal);
  const exists = await runGit(
    root,
    ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`],
    signal,
  ).then(
    () => true,
    () => false,
  );
  const tracking = `refs/remotes/${remote}/${branch}`;
  const hasTracking =
    !fromFork &&
    (await runGit(root, ['rev-parse', '--verify', '--quiet', tracking], signal).then(
      () => true,
      () => false,
    ));
  progress.report({ message: vscode.l10n.t('git checkout {0}', branch) });
  let updated = false;
  if (exists) {
    await runGit(root, ['checkout', branch], signal);
    if (hasTracking) {
      updated = await runGit(root, ['merge', '--ff-only', `${remote}/${branch}`], signal).then(
        () => true,
        () => false,
      );
    }
  } else if (hasTracking) {
    await runGit(root, ['checkout', '-b', branch, '--track', `${remote}/${branch}`], signal);
  } else {
    await runGit(root, ['checkout', '-b', branch, 'FETCH_HEAD'], signal);
  }
  return { created: !exists, updated };
}
