import { trimBothOf, trimEndOf } from '../text/linearText';
/**
 * Which local clone belongs to which project: remote URLs compared with a project's clone URLs.
 * Pure string work, so the matching rules are tested in plain Node.
 */

export interface RemoteLocation {
  /** Lower-cased host name, without user or port. */
  host: string;
  /** Lower-cased path without leading or trailing slashes and without `.git`. */
  path: string;
}

export interface GitRemote {
  name: string;
  url: string;
}

/** The clone URLs of a project, as the API reports them. */
export interface ProjectCloneUrls {
  ssh_url_to_repo?: string | null;
  http_url_to_repo?: string | null;
  web_url?: string | null;
}

function cleanPath(path: string): string {
  return trimEndOf(trimBothOf(path, '/').replace(/\.git$/i, ''), '/').toLowerCase();
}

/** A URL's host as remotes are compared: lower case, an IPv6 address without its brackets. */
function hostName(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
}

/**
 * Host and path of a remote URL in any of git's spellings: `https://host/group/project.git`,
 * `ssh://git@host:2222/group/project.git`, the scp-like `git@host:group/project.git`, with or
 * without `.git`, user, port or a trailing slash. Undefined for local paths and unknown forms.
 */
export function parseRemoteUrl(url: string): RemoteLocation | undefined {
  const trimmed = url.trim();
  if (trimmed === '') return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    let parsed: URL;
    try {
      parsed = new URL(trimmed);
    } catch {
      return undefined;
    }
    if (parsed.protocol === 'file:' || parsed.hostname === '') return undefined;
    const path = cleanPath(decodeURIComponent(parsed.pathname));
    return path ? { host: hostName(parsed), path } : undefined;
  }
  // scp-like: [user@]host:path (no slash before the colon; a drive letter is not a host).
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(trimmed);
  if (scp?.[1] && scp[2] && scp[1].length > 1) {
    const path = cleanPath(scp[2]);
    return path ? { host: scp[1].toLowerCase(), path } : undefined;
  }
  return undefined;
}

function sameLocation(a: RemoteLocation, b: RemoteLocation): boolean {
  if (a.host !== b.host) return false;
  if (a.path === b.path) return true;
  // A server under a sub-path (`https://host/gitlab/group/project`) is reached over ssh as
  // `git@host:group/project`: accept one path ending with the other at a segment boundary.
  return a.path.endsWith(`/${b.path}`) || b.path.endsWith(`/${a.path}`);
}

/** The account's server host, or a name under it (`ssh.forge.example` for `forge.example`). */
function onServer(host: string, serverUrl: string): boolean {
  let serverHost: string;
  try {
    serverHost = hostName(new URL(serverUrl));
  } catch {
    return false;
  }
  return serverHost !== '' && (host === serverHost || host.endsWith(`.${serverHost}`));
}

/**
 * Whether a remote URL points at the project (ssh or https form, `.git` or not, any case). The
 * project's clone URLs come from the server: only those on the account's own host count, so a
 * hostile server cannot point reads and check-outs at a clone of another server's repository.
 */
export function remoteMatchesProject(
  remoteUrl: string,
  project: ProjectCloneUrls,
  serverUrl: string,
): boolean {
  const remote = parseRemoteUrl(remoteUrl);
  if (!remote || !onServer(remote.host, serverUrl)) return false;
  return [project.ssh_url_to_repo, project.http_url_to_repo, project.web_url].some((candidate) => {
    const location = candidate ? parseRemoteUrl(candidate) : undefined;
    return location !== undefined && sameLocation(remote, location);
  });
}

/** The remote of a clone that points at the project on the account's server; `origin` wins when several do. */
export function matchingRemote(
  remotes: readonly GitRemote[],
  project: ProjectCloneUrls,
  serverUrl: string,
): GitRemote | undefined {
  const matches = remotes.filter((remote) => remoteMatchesProject(remote.url, project, serverUrl));
  return matches.find((remote) => remote.name === 'origin') ?? matches[0];
}

/**
 * Remotes from `git config --get-regexp ^remote\..+\.url$`: one `remote.<name>.url <url>` a line.
 * The configured URL is read, not `git remote -v`, which shows URLs after `insteadOf` rewriting.
 */
export function parseRemoteConfig(output: string): GitRemote[] {
  const remotes: GitRemote[] = [];
  for (const line of output.split(/\r?\n/)) {
    const match = /^remote\.(.+)\.url\s+(\S.*)$/.exec(line.trim());
    if (match?.[1] && match[2]) remotes.push({ name: match[1], url: match[2].trim() });
  }
  return remotes;
}

/** A branch name git accepts as an argument: no option-like or ref-breaking spelling. */
export function isSafeBranchName(name: string): boolean {
  return (
    name.length > 0 &&
    // `+` first forces a refspec (`git fetch origin +main` overwrites), `-` makes an option.
    !/^[-+]/.test(name) &&
    !name.startsWith('/') &&
    !name.endsWith('/') &&
    !name.endsWith('.lock') &&
    !name.includes('..') &&
    !name.includes('@{') &&
    !/[\s~^:?*[\\]/.test(name) &&
    ![...name].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)
  );
}
