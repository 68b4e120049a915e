/**
 * The two sides of a changed file as the diff editor shows them: which path at which commit on the
 * left (the base) and on the right (the head), for added, deleted, renamed and modified files; and
 * what a side's bytes can be shown as.
 */
import * as l10n from '@vscode/l10n';
import { type ChangeFacts, type DiffRefs, displayPath } from './mergeRequestView';

export interface FileSide {
  path: string;
  /** Undefined for the side that does not exist: the base of an added file, the head of a deleted one. */
  sha: string | undefined;
}

export function changeSides(change: ChangeFacts, refs: DiffRefs): { base: FileSide; head: FileSide } {
  return {
    base: { path: change.old_path, sha: change.new_file ? undefined : refs.baseSha },
    head: { path: change.new_path, sha: change.deleted_file ? undefined : refs.headSha },
  };
}

/** The diff editor's title: the file's name, the merge request and the two commits. */
export function diffTitle(change: ChangeFacts, iid: number, refs: DiffRefs): string {
  const path = displayPath(change);
  const name = path.split('/').pop() || path;
  return l10n.t('{0} (!{1} {2} ↔ {3})', name, iid, refs.baseSha.slice(0, 8), refs.headSha.slice(0, 8));
}

/** Larger sides are not put in an editor: VS Code slows down, and a review does not need them whole. */
export const MAX_SHOWN_BYTES = 20 * 1024 * 1024;

/** As git decides: a NUL byte in the first 8,000 bytes makes a file binary. */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8000).includes(0);
}

/** The sentence a side too large to compare shows instead of its text. */
export function tooLargeText(path: string, bytes: number): string {
  return l10n.t(
    '{0} is {1} MB, too large to compare here. Open it in the browser.',
    path,
    Math.round(bytes / 1048576),
  );
}

/** The text a side shows: the file decoded as UTF-8, or a sentence saying why it is not shown. */
export function shownText(path: string, bytes: Uint8Array): string {
  if (bytes.length > MAX_SHOWN_BYTES) return tooLargeText(path, bytes.length);
  if (isBinary(bytes))
    return l10n.t('{0} is a binary file ({1} bytes); it cannot be compared as text.', path, bytes.length);
  return new TextDecoder('utf-8').decode(bytes);
}

/** The commits the review compares, from `diff_refs`, else from the newest version. */
export function refsFromVersion(version: {
  base_commit_sha: string;
  head_commit_sha: string;
  start_commit_sha?: string;
}): DiffRefs {
  return {
    baseSha: version.base_commit_sha,
    headSha: version.head_commit_sha,
    ...(version.start_commit_sha ? { startSha: version.start_commit_sha } : {}),
  };
}

/**
 * The commit a merge request's commit is compared with: its first parent as the server names it;
 * from a server that does not send parents, the commit before it in the list (oldest first), and
 * for the first one the merge request's start (where its branch left the target).
 */
export function commitBase(
  commits: readonly { id: string; parent_ids?: readonly string[] | undefined }[],
  index: number,
  refs: DiffRefs,
): string | undefined {
  const commit = commits[index];
  if (!commit) return undefined;
  if (commit.parent_ids) return commit.parent_ids[0];
  return index > 0 ? commits[index - 1]?.id : (refs.startSha ?? refs.baseSha);
}
