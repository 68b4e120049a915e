/*
 * The project a folder on disk is a clone of: its git remotes read, each matched against the
 * accounts on the remote's host (the very same origin first), the first project a server knows
 * wins. The status bar and the CI file checks find their project this way.
 */
import type { Project } from '../../api/hosting';
import { parseRemoteConfig, parseRemoteUrl } from '../../domain/gitRemote';
import { checkProjectPath } from '../../domain/inputValidation';
import type { AccountInfo } from '../../platform/accounts';
import { runGit } from '../../platform/localGit';
import type { Services } from '../../services';

export interface LocalRepository {
  root: string;
  branch: string;
  remoteUrls: string[];
}

/** The repository `folder` is in, its branch and remotes; undefined outside one (or without git). */
export async function localRepository(folder: string): Promise<LocalRepository | undefined> {
  try {
    const root = (await runGit(folder, ['rev-parse', '--show-toplevel'])).trim();
    // symbolic-ref also names the branch of a repository without commits yet.
    const branch = (await runGit(root, ['symbolic-ref', '--short', 'HEAD'])).trim();
    const remotes = parseRemoteConfig(await runGit(root, ['config', '--get-regexp', '^remote\\..+\\.url$']));
    if (!branch || branch === 'HEAD') return undefined;
    return { root, branch, remoteUrls: remotes.map((remote) => remote.url) };
  } catch {
    // Not a repository, no remote, no commits yet, or no git: nothing to show.
    return undefined;
  }
}

/**
 * Accounts on the remote's host, those on the very same origin first (an HTTP remote names the
 * port; an SSH remote's port is not the web server's, so only the host can be compared).
 */
export function candidateAccounts(
  accounts: readonly AccountInfo[],
  remoteUrl: string,
  host: string,
): AccountInfo[] {
  const remoteOrigin = /^https?:\/\//i.test(remoteUrl) ? new URL(remoteUrl).origin : undefined;
  const onHost = accounts.filter((account) => new URL(account.serverUrl).hostname.toLowerCase() === host);
  return [
    ...onHost.filter((account) => new URL(account.serverUrl).origin === remoteOrigin),
    ...onHost.filter((account) => new URL(account.serverUrl).origin !== remoteOrigin),
  ];
}

export interface FolderProject {
  account: AccountInfo;
  project: Project;
  repository: LocalRepository;
}

/** The project of one of the accounts that `repository`'s remotes name, or undefined. */
export async function projectOfRepository(
  services: Services,
  repository: LocalRepository,
): Promise<FolderProject | undefined> {
  for (const remoteUrl of repository.remoteUrls) {
    const location = parseRemoteUrl(remoteUrl);
    // A remote whose path no server would accept is not ours to ask about.
    if (!location || !checkProjectPath(location.path).ok) continue;
    for (const account of candidateAccounts(services.accounts.list(), remoteUrl, location.host)) {
      const client = await services.accounts.client(account.id);
      const project = await client.getProject(location.path).catch(() => undefined);
      if (project) return { account, project, repository };
    }
  }
  return undefined;
}
