/*
 * Review: a merge request's changed files in VS Code's own diff editor (one side by side, or all in
 * the multi-file diff editor), their two sides read from the local clone or the server. The
 * Merge Requests view and the merge request panel reach it through `ReviewFeature`. This file is
 * its only public face.
 */
import * as vscode from 'vscode';
import type { MergeRequestDiff } from '../../api/hosting';
import { registerCommands } from '../../platform/commands/registerCommand';
import { defineCommand, rowOf } from '../../platform/commands/defineCommand';
import type { TreeNode } from '../../platform/tree/treeNode';
import { withProgress } from '../../platform/userMessages';
import type { Services } from '../../services';
import { type ReviewTarget, loadDiffRefs, openAllChanges, openChangedFile } from './changedFiles';
import { ChangedFileNode, ChangesFolderNode } from './changesNodes';
import { REVIEW_SCHEME, ReviewContentProvider } from './reviewContent';

export type { ReviewTarget } from './changedFiles';

export interface ReviewFeature {
  /** The "Changes" folder for a merge request in a tree; `changed` redraws a node of that tree. */
  changesFolder(target: ReviewTarget, changed: (node: TreeNode) => void): TreeNode;
  /** Opens one changed file side by side (base ↔ head). */
  openChangedFile(target: ReviewTarget, change: MergeRequestDiff): Promise<void>;
  /** The documents' provider (host tests read what was asked of the server). */
  readonly content: ReviewContentProvider;
}

export function createReviewFeature(services: Services): ReviewFeature {
  const { context, accounts } = services;
  const content = new ReviewContentProvider(accounts);
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, content));

  const refsOf = async (target: ReviewTarget) =>
    loadDiffRefs(await accounts.client(target.accountId), target);
  const openOne = async (target: ReviewTarget, change: MergeRequestDiff): Promise<void> =>
    openChangedFile(content, target, change, await refsOf(target));

  registerCommands(context, services.log, [
    defineCommand({
      id: 'forge.review.openChangedFile',
      args: [rowOf(ChangedFileNode, vscode.l10n.t('a changed file'))],
      run: async (row) => {
        await openOne(row.folder.target, row.change);
        return { opened: row.change.new_path };
      },
    }),
    defineCommand({
      id: 'forge.review.openAllChanges',
      args: [rowOf(ChangesFolderNode, vscode.l10n.t('a Changes folder'))],
      run: async (folder) => {
        const { target } = folder;
        const [changes, refs] = await withProgress(
          {
            location: { viewId: 'forge.mergeRequests' },
            title: vscode.l10n.t('Reading the changes of !{0}…', target.mergeRequest.iid),
          },
          () => Promise.all([folder.changes(), refsOf(target)]),
        );
        await openAllChanges(content, target, changes, refs);
        return { opened: changes.length };
      },
    }),
  ]);

  return {
    changesFolder: (target, changed) => new ChangesFolderNode(target, accounts, changed),
    openChangedFile: openOne,
    content,
  };
}
