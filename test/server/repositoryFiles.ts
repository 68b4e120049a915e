/**
 * Whole files at a commit, as `GET /projects/:id/repository/files/:file_path/raw?ref=` serves them.
 * The seed writes history as diffs; a commit's tree is its first parent's tree with the commit's
 * changes applied (a merge commit without changes of its own brings in the changes of the commits
 * it merges, oldest first). A seed diff that does not apply is a broken seed: it throws.
 */
import { applyPatch, structuredPatch } from 'diff';
import type { Commit, FileChange, ForgeState } from './state';

const trees = new WeakMap<ForgeState, Map<string, ReadonlyMap<string, string>>>();

function applyChange(tree: Map<string, string>, change: FileChange, sha: string): void {
  if (change.deletedFile) {
    tree.delete(change.oldPath);
    return;
  }
  const before = change.newFile ? '' : (tree.get(change.oldPath) ?? '');
  if (change.renamedFile) tree.delete(change.oldPath);
  if (change.diff === '') {
    tree.set(change.newPath, before);
    return;
  }
  let after: string | false;
  try {
    after = applyPatch(before, change.diff);
  } catch (error) {
    throw new Error(`the seed's diff of ${change.newPath} in ${sha} is not a diff: ${String(error)}`, {
      cause: error,
    });
  }
  if (after === false) throw new Error(`the seed's diff of ${change.newPath} in ${sha} does not apply`);
  tree.set(change.newPath, after);
}

function changesOf(state: ForgeState, commit: Commit): FileChange[] {
  const [first, ...merged] = commit.parentIds;
  if (commit.changes.length > 0 || first === undefined || merged.length === 0) return commit.changes;
  return merged
    .flatMap((parent) => state.commitsBetween(first, parent))
    .sort((a, b) => a.committedDate.localeCompare(b.committedDate))
    .flatMap((each) => each.changes);
}

/** The files of commit `sha` (path → text), or undefined when there is no such commit. */
export function treeAt(state: ForgeState, sha: string): ReadonlyMap<string, string> | undefined {
  let known = trees.get(state);
  if (!known) trees.set(state, (known = new Map<string, ReadonlyMap<string, string>>()));
  // Back along first parents to a commit whose tree is known (or the first commit), then forward.
  const chain: Commit[] = [];
  let cursor: string | undefined = sha;
  while (cursor !== undefined && !known.has(cursor)) {
    const commit = state.commits.get(cursor);
    if (!commit) return chain.length === 0 ? undefined : new Map();
    chain.push(commit);
    cursor = commit.parentIds[0];
  }
  let tree =
    cursor === undefined ? new Map<string, string>() : (known.get(cursor) ?? new Map<string, string>());
  for (const commit of chain.reverse()) {
    const next = new Map(tree);
    for (const change of changesOf(state, commit)) applyChange(next, change, commit.id);
    known.set(commit.id, next);
    tree = next;
  }
  return tree;
}

/** A unified diff's hunks, as the seed writes them. */
export function hunksBetween(before: string, after: string): string {
  const patch = structuredPatch('a', 'b', before, after, '', '', { context: 3 });
  return patch.hunks
    .map(
      (hunk) =>
        `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@\n${hunk.lines.join('\n')}\n`,
    )
    .join('');
}
