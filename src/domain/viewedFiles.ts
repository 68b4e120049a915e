/**
 * Which changed files of a merge request a reviewer has marked as viewed. GitLab's API does not
 * keep it, so the extension does, per merge request and per file's content: a file is viewed for
 * the diff it had when it was ticked, and a later push that changes its diff makes it unviewed
 * again (as GitLab's web page does).
 */
import { createHash } from 'node:crypto';

/** What the key of a changed file is read from. */
export interface ViewedFileFacts {
  old_path: string;
  new_path: string;
  diff: string;
  new_file: boolean;
  deleted_file: boolean;
  renamed_file: boolean;
}

/** A changed file as the viewed state knows it: its path and the key of its content. */
export interface ViewedFile {
  path: string;
  key: string;
}

/**
 * The key of a file's change: a hash of its paths and diff. A file the server sends without a diff
 * (too large, binary, collapsed) is keyed by the head commit instead, so any push unmarks it: the
 * extension cannot tell whether that file changed.
 */
export function viewedFileKey(change: ViewedFileFacts, headSha: string): string {
  const hash = createHash('sha256');
  const kind = change.new_file ? 'A' : change.deleted_file ? 'D' : change.renamed_file ? 'R' : 'M';
  hash.update(`${kind}\0${change.old_path}\0${change.new_path}\0`);
  hash.update(change.diff === '' ? `head:${headSha}` : change.diff);
  return hash.digest('hex').slice(0, 24);
}

/** The path a changed file is known by: its new path (its old one when it was deleted). */
export function viewedFilePath(change: ViewedFileFacts): string {
  return change.deleted_file ? change.old_path : change.new_path;
}

export function viewedFileOf(change: ViewedFileFacts, headSha: string): ViewedFile {
  return { path: viewedFilePath(change), key: viewedFileKey(change, headSha) };
}

/** The key a merge request's viewed files are kept under: one per account, project and iid. */
export function viewedMergeRequestKey(accountId: string, project: number | string, iid: number): string {
  return `${accountId}|${String(project)}|${iid}`;
}

/** A sentence of the folder's count: "3 of 12 viewed". */
export interface ViewedCount {
  viewed: number;
  total: number;
}

export function countViewed(
  files: readonly ViewedFile[],
  isViewed: (file: ViewedFile) => boolean,
): ViewedCount {
  return { viewed: files.filter(isViewed).length, total: files.length };
}
