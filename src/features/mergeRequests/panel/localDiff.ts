/**
 * A merge request's files in VS Code's diff editor, from the local clone: `git show SHA:path`
 * through a read-only document provider, never touching the working tree.
 */
import * as vscode from 'vscode';
import type { MergeRequest, MergeRequestDiff } from '../../../api/hosting';
import { isSafeBranchName } from '../../../domain/gitRemote';
import { diffRefs, displayPath, isCommitSha } from '../../../domain/mergeRequestView';
import { type LocalClone, runGit } from '../../../platform/localGit';
import { withProgress } from '../../../platform/userMessages';

export const GIT_SHOW_SCHEME = 'forge-mr-git';

/**
 * Serves `git show <sha>:<path>` from a local clone, for the diff editor's two sides. Only clones the
 * panel resolved are served; a side without a sha (the base of an added file) is empty.
 */
export class GitShowContentProvider implements vscode.TextDocumentContentProvider {
  private readonly roots = new Set<string>();

  allow(root: string): void {
    this.roots.add(root);
  }

  uri(root: string, sha: string | undefined, path: string, side: 'base' | 'head'): vscode.Uri {
    const query = new URLSearchParams({ root, sha: sha ?? '', side }).toString();
    return vscode.Uri.from({ scheme: GIT_SHOW_SCHEME, path: `/${path}`, query });
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const query = new URLSearchParams(uri.query);
    const root = query.get('root') ?? '';
    const sha = query.get('sha') ?? '';
    if (sha === '') return '';
    if (!this.roots.has(root))
      throw new Error(vscode.l10n.t('{0} is not a clone the merge request panel opened.', root));
    if (!isCommitSha(sha)) throw new Error(vscode.l10n.t('The diff side does not name a commit.'));
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      return await runGit(root, ['show', `${sha}:${uri.path.replace(/^\/+/, '')}`], controller.signal);
    } finally {
      subscription.dispose();
    }
  }
}

/**
 * The base and head commits in the local clone: the merge request's `diff_refs` when the server sent
 * them and the clone has both; otherwise the branches are fetched from the project's remote (with a
 * progress message saying so) and the base is where the head left the target branch.
 */
export async function resolveShas(
  clone: LocalClone,
  mr: MergeRequest,
): Promise<{ base: string; head: string }> {
  const { root } = clone;
  const has = (sha: string | undefined): Promise<boolean> =>
    sha && isCommitSha(sha)
      ? runGit(root, ['cat-file', '-e', `${sha}^{commit}`]).then(
          () => true,
          () => false,
        )
      : Promise.resolve(false);
  const refs = diffRefs(mr);
  let head = refs?.headSha ?? mr.sha ?? undefined;
  let base = refs?.baseSha;
  if (head && base && (await has(head)) && (await has(base))) return { base, head };

  const remote = clone.remote.name;
  const fromFork = mr.source_project_id !== undefined && mr.source_project_id !== mr.project_id;
  const source = fromFork ? `refs/merge-requests/${mr.iid}/head` : mr.source_branch;
  if (!isSafeBranchName(remote) || !isSafeBranchName(mr.target_branch) || !isSafeBranchName(source)) {
    throw new Error(vscode.l10n.t('The branches of !{0} cannot be fetched safely.', mr.iid));
  }
  const fetched = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t(
        'Fetching {0} and {1} of !{2} from {3} to compare the files…',
        mr.source_branch,
        mr.target_branch,
        mr.iid,
        remote,
      ),
    },
    async () => {
      const fetch = async (ref: string): Promise<string> => {
        await runGit(root, ['fetch', '--no-tags', remote, ref]);
        return (await runGit(root, ['rev-parse', 'FETCH_HEAD^{commit}'])).trim();
      };
      try {
        return { target: await fetch(mr.target_branch), source: await fetch(source) };
      } catch (error) {
        throw new Error(
          vscode.l10n.t(
            "Could not fetch !{0}'s branches from {1} in {2} ({3}). The diff editor needs both versions locally.",
            mr.iid,
            remote,
            root,
            error instanceof Error ? error.message : String(error),
          ),
          { cause: error },
        );
      }
    },
  );
  if (!(await has(head))) head = fetched.source;
  if (!head) throw new Error(vscode.l10n.t('The head of !{0} is not known.', mr.iid));
  if (!(await has(base))) {
    base = (await runGit(root, ['merge-base', fetched.target, head])).trim();
  }
  if (!base)
    throw new Error(vscode.l10n.t('{0} and {1} have no common commit.', mr.source_branch, mr.target_branch));
  return { base, head };
}

/** Opens one changed file side by side, base on the left, head on the right. */
export async function openLocalDiff(
  gitShow: GitShowContentProvider,
  clone: LocalClone,
  change: MergeRequestDiff,
  mr: MergeRequest,
): Promise<void> {
  const { base, head } = await resolveShas(clone, mr);
  gitShow.allow(clone.root);
  const left = gitShow.uri(clone.root, change.new_file ? undefined : base, change.old_path, 'base');
  const right = gitShow.uri(clone.root, change.deleted_file ? undefined : head, change.new_path, 'head');
  const name = displayPath(change).split('/').pop() ?? displayPath(change);
  await vscode.commands.executeCommand(
    'vscode.diff',
    left,
    right,
    `${name} (!${mr.iid} ${base.slice(0, 8)} ↔ ${head.slice(0, 8)})`,
    { preview: true },
  );
}
