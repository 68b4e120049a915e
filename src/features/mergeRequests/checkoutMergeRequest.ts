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
  const clone = await findLocalClone(project, target.account.serverUrl);
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
  // Which folder changes branch is the user's to see first: a project can match a clone they did not expect.
  const checkOut = vscode.l10n.t('Check Out');
  const answer = await showInformation(
    vscode.l10n.t('Check out {0} of !{1} in {2}?', branch, mr.iid, root),
    {
      modal: true,
      detail: vscode.l10n.t(
        'The folder {0} is a clone of {1} (remote "{2}", {3}). Its current branch changes to {4}.',
        root,
        projectPath(project),
        remote,
        clone.remote.url,
        branch,
      ),
    },
    checkOut,
  );
  if (answer !== checkOut) return { checkedOut: undefined, ...CANCELLED };
  const client = await context.services.accounts.client(target.account.id);
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
        // The head as it is now: the list the command started from may be older than the branch.
        const { sha } = await client.getMergeRequest(project.id, mr.iid, { signal });
        progress.report({ message: vscode.l10n.t('git fetch {0}', remote) });
        return await fetchAndCheckOut(
          { root, remote, branch, iid: mr.iid, fromFork, sha: sha ?? undefined },
          signal,
          progress,
        );
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
    sha,
  }: {
    root: string;
    remote: string;
    branch: string;
    iid: number;
    fromFork: boolean;
    sha: string | undefined;
  },
  signal: AbortSignal,
  progress: ProgressReporter,
): Promise<{ created: boolean; updated: boolean }> {
  // A fork's branch is not on this remote; the target project keeps every merge request's head. The
  // full ref name, so a tag of the same name or a refspec's own syntax cannot pick another ref.
  const ref = fromFork ? `refs/merge-requests/${iid}/head` : `refs/heads/${branch}`;
  await runGit(root, ['fetch', remote, ref], signal);
  const fetched = (
    await runGit(root, ['rev-parse', '--verify', '--quiet', 'FETCH_HEAD^{commit}'], signal)
  ).trim();
  if (sha && fetched !== sha) {
    throw new Error(
      vscode.l10n.t(
        "The fetched commit {0} is not the head of !{1} ({2}): the branch may have moved, or the remote is not the project's. Nothing was switched; refresh and try again.",
        fetched.slice(0, 8),
        iid,
        sha.slice(0, 8),
      ),
    );
  }
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
