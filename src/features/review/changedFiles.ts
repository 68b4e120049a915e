/**
 * A merge request's changed files, and opening them in VS Code's diff editor: one file side by
 * side, or all of them in the multi-file diff editor (`vscode.changes`).
 */
import * as vscode from 'vscode';
import { NotFoundError } from '../../api/http';
import type { HostingClient, MergeRequest, MergeRequestDiff, Project } from '../../api/hosting';
import { type DiffRefs, diffRefs } from '../../domain/mergeRequestView';
import { changeSides, diffTitle, refsFromVersion } from '../../domain/reviewFiles';
import { findLocalClone } from '../../platform/localGit';
import type { ReviewContentProvider, SideSource } from './reviewContent';

/** A merge request to review: where it lives and who reads it. */
export interface ReviewTarget {
  accountId: string;
  project: Project;
  mergeRequest: MergeRequest;
}

/** The changed files: `.../diffs` a page at a time (GitLab 15.7+), else `.../changes` (older servers). */
export async function loadChangedFiles(
  client: HostingClient,
  target: ReviewTarget,
): Promise<MergeRequestDiff[]> {
  const { project, mergeRequest } = target;
  try {
    return await client.listDiffs(project.id, mergeRequest.iid).toArray();
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return (await client.getMergeRequestChanges(project.id, mergeRequest.iid)).changes ?? [];
  }
}

/** The commits compared: the merge request's `diff_refs`, else its newest version. */
export async function loadDiffRefs(client: HostingClient, target: ReviewTarget): Promise<DiffRefs> {
  const refs = diffRefs(target.mergeRequest);
  if (refs) return refs;
  const [newest] = await client
    .listVersions(target.project.id, target.mergeRequest.iid)
    .page({ perPage: 1 })
    .then(
      (page) => page.items,
      (error: unknown) => {
        if (error instanceof NotFoundError) return [];
        throw error;
      },
    );
  if (!newest) {
    throw new Error(
      vscode.l10n.t(
        'The server does not say which commits !{0} compares (no diff_refs, no versions): open it in the browser.',
        target.mergeRequest.iid,
      ),
    );
  }
  return refsFromVersion(newest);
}

/** Where the sides are read: the local clone of the project on the account's server first, when the workspace has one. */
export async function sideSource(target: ReviewTarget, serverUrl: string | undefined): Promise<SideSource> {
  const clone =
    serverUrl === undefined
      ? undefined
      : await findLocalClone(target.project, serverUrl).catch(() => undefined);
  return {
    accountId: target.accountId,
    project: target.project.id,
    mergeRequestIid: target.mergeRequest.iid,
    ...(clone ? { cloneRoot: clone.root } : {}),
  };
}

export async function openChangedFile(
  content: ReviewContentProvider,
  source: SideSource,
  target: ReviewTarget,
  change: MergeRequestDiff,
  refs: DiffRefs,
): Promise<void> {
  const { base, head } = changeSides(change, refs);
  const left = content.uri(source, base);
  const right = content.uri(source, head);
  // Both sides read at once, before the editor asks for them one after the other.
  await Promise.all([content.prefetch(left), content.prefetch(right)]);
  await vscode.commands.executeCommand(
    'vscode.diff',
    left,
    right,
    diffTitle(change, target.mergeRequest.iid, refs),
    { preview: true },
  );
}

/**
 * Every changed file in one multi-file diff editor, next and previous file included; `title` names a
 * commit or a comparison opened instead of the merge request's whole diff.
 */
export async function openAllChanges(
  content: ReviewContentProvider,
  source: SideSource,
  target: ReviewTarget,
  changes: readonly MergeRequestDiff[],
  refs: DiffRefs,
  title?: string,
): Promise<void> {
  const resources = changes.map((change) => {
    const { base, head } = changeSides(change, refs);
    const right = content.uri(source, head);
    return [right, content.uri(source, base), right] as const;
  });
  const { mergeRequest } = target;
  await vscode.commands.executeCommand(
    'vscode.changes',
    title ??
      vscode.l10n.t(
        '!{0} {1} ({2} ↔ {3})',
        mergeRequest.iid,
        mergeRequest.title,
        refs.baseSha.slice(0, 8),
        refs.headSha.slice(0, 8),
      ),
    resources,
  );
}
