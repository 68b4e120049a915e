/** "Check Out Merge Request": its source branch fetched and checked out in the workspace clone. */
import { CANCELLED } from './mergeRequestTargets';
import * as vscode from 'vscode';
import { isSafeBranchName } from '../../domain/gitRemote';
import { findLocalClone, runGit } from '../../platform/localGit';
import { type MergeRequestCommandContext, pickMergeRequest, projectPath } from './mergeRequestTargets';
import { showInformation, showWarning, withProgress } from '../../platform/userMessages';

export async function checkoutMergeRequest(context: MergeRequestCommandContext, arg: unknown) {
  const target = await pickMergeRequest(context.services, arg, 'Check out which merge request?');
  if (!target) return { checkedOut: undefined, ...CANCELLED };
  const { mergeRequest: mr, project } = target;
  const clone = await findLocalClone(project);
  if (!clone) {
    const message = `No folder in this workspace is a clone of ${projectPath(project)}. Open a clone of it (remote ${project.http_url_to_repo ?? project.ssh_url_to_repo ?? projectPath(project)}) and try again.`;
    void showWarning(message);
    return { checkedOut: undefined, reason: 'no-repository', message };
  }
  const branch = mr.source_branch;
  if (!isSafeBranchName(branch) || !isSafeBranchName(clone.remote.name)) {
    throw new Error(`The branch name "${branch}" cannot be checked out safely.`);
  }
  const fromFork = mr.source_project_id !== undefined && mr.source_project_id !== mr.project_id;
  const { root } = clone;
  const remote = clone.remote.name;
  const result = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Checking out ${branch} of !${mr.iid}`,
      cancellable: true,
    },
    async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        const { signal } = controller;
        progress.report({ message: `git fetch ${remote}` });
        // A fork's branch is not on this remote; the target project keeps every merge request's head.
        await runGit(
          root,
          ['fetch', remote, fromFork ? `refs/merge-requests/${mr.iid}/head` : branch],
          signal,
        );
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
        progress.report({ message: `git checkout ${branch}` });
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
      } finally {
        subscription.dispose();
      }
    },
  );
  void showInformation(
    `Checked out ${branch} (!${mr.iid}) in ${clone.root}${result.created ? '' : result.updated ? ', fast-forwarded' : ''}.`,
  );
  return { checkedOut: branch, root: clone.root, remote, createdBranch: result.created };
}
