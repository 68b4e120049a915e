import { execFile } from 'node:child_process';
import * as vscode from 'vscode';
import {
  type GitRemote,
  type ProjectCloneUrls,
  matchingRemote,
  parseRemoteConfig,
} from '../domain/gitRemote';

/**
 * Local clones in the workspace: which folder is a clone of a project, its current branch, and
 * running git there. The built-in git extension is asked first; without it (disabled, or the folder
 * not opened as a repository yet) git itself is run with an argument array, never a shell string.
 */

export interface LocalClone {
  /** Absolute path of the repository root. */
  root: string;
  /** The remote that points at the project. */
  remote: GitRemote;
  /** The checked-out branch; undefined when HEAD is detached or unknown. */
  currentBranch: string | undefined;
  /** Where the facts came from. */
  via: 'git-extension' | 'git-cli';
}

/** The slice of the git extension's API (version 1) used here. */
interface GitExtensionApi {
  repositories: readonly GitExtensionRepository[];
}
interface GitExtensionRepository {
  rootUri: vscode.Uri;
  state: {
    HEAD?: { name?: string; type?: number };
    remotes: readonly { name: string; fetchUrl?: string; pushUrl?: string }[];
  };
}
interface GitExtensionExports {
  getAPI(version: 1): GitExtensionApi;
}

const GIT_TIMEOUT_MS = 120_000;
const EXTENSION_ACTIVATION_TIMEOUT_MS = 3_000;

export class GitCommandError extends Error {
  override name = 'GitCommandError';
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
    readonly exitCode: number | string | undefined,
  ) {
    super(
      vscode.l10n.t(
        'git {0} failed{1}',
        args.join(' '),
        stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : '',
      ),
    );
  }
}

/** Runs git in `cwd` with an argument array (no shell); resolves with stdout. */
export function runGit(cwd: string, args: readonly string[], signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      {
        cwd,
        signal,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
        windowsHide: true,
        // Never wait for a password prompt nobody can see.
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never' },
      },
      (error, stdout, stderr) => {
        if (error) {
          if (signal?.aborted) {
            reject(new vscode.CancellationError());
            return;
          }
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') {
            reject(new Error(vscode.l10n.t('git was not found. Install git or add it to PATH.')));
            return;
          }
          reject(new GitCommandError(args, String(stderr), code));
          return;
        }
        resolve(String(stdout));
      },
    );
  });
}

async function gitExtensionApi(): Promise<GitExtensionApi | undefined> {
  const extension = vscode.extensions.getExtension<GitExtensionExports>('vscode.git');
  if (!extension) return undefined;
  try {
    const exports = extension.isActive
      ? extension.exports
      : await Promise.race([
          extension.activate(),
          new Promise<undefined>((resolve) =>
            setTimeout(() => resolve(undefined), EXTENSION_ACTIVATION_TIMEOUT_MS),
          ),
        ]);
    return exports?.getAPI(1);
  } catch {
    return undefined;
  }
}

async function cliClone(
  folder: string,
  project: ProjectCloneUrls,
  serverUrl: string,
): Promise<LocalClone | undefined> {
  let root: string;
  try {
    root = (await runGit(folder, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    return undefined;
  }
  let remotes: GitRemote[];
  try {
    // The configured URL, not `git remote -v`: that one shows URLs after `insteadOf` rewriting.
    remotes = parseRemoteConfig(await runGit(root, ['config', '--get-regexp', '^remote\\..+\\.url$']));
  } catch {
    return undefined;
  }
  const remote = matchingRemote(remotes, project, serverUrl);
  if (!remote) return undefined;
  let currentBranch: string | undefined;
  try {
    // `symbolic-ref` also names a branch without commits yet; it fails on a detached HEAD.
    currentBranch = (await runGit(root, ['symbolic-ref', '--short', '-q', 'HEAD'])).trim() || undefined;
  } catch {
    currentBranch = undefined;
  }
  return { root, remote, currentBranch, via: 'git-cli' };
}

function extensionClone(
  repository: GitExtensionRepository,
  project: ProjectCloneUrls,
  serverUrl: string,
): LocalClone | undefined {
  const remotes: GitRemote[] = repository.state.remotes.flatMap((remote) =>
    remote.fetchUrl ? [{ name: remote.name, url: remote.fetchUrl }] : [],
  );
  const remote = matchingRemote(remotes, project, serverUrl);
  if (!remote) return undefined;
  return {
    root: repository.rootUri.fsPath,
    remote,
    currentBranch: repository.state.HEAD?.name,
    via: 'git-extension',
  };
}

/** The first clone of the project among the workspace's repositories, or undefined. */
export async function findLocalClone(
  project: ProjectCloneUrls,
  serverUrl: string,
): Promise<LocalClone | undefined> {
  const api = await gitExtensionApi();
  const repositories = api?.repositories ?? [];
  for (const repository of repositories) {
    const clone = extensionClone(repository, project, serverUrl);
    if (clone) return clone;
  }
  // Folders the git extension has not opened (or shows with rewritten remote URLs): ask git.
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    const clone = await cliClone(folder.uri.fsPath, project, serverUrl);
    if (clone) return clone;
  }
  return undefined;
}
