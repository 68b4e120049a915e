/**
 * The "Viewed" commands: a changed file's row (its context menu, for the keyboard as well as the
 * checkbox), a Changes folder ("Mark All as Viewed", "Mark All as Not Viewed"), and "Hide Viewed
 * Files" / "Show Viewed Files", which hold for every Changes folder.
 */
import * as vscode from 'vscode';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { withProgress } from '../../platform/userMessages';
import { ChangedFileNode, ChangesFolderNode } from './changesNodes';
import type { ViewedFiles } from './viewedFiles';

export function viewedCommands(viewed: ViewedFiles): CommandDeclaration[] {
  const file = rowOf(ChangedFileNode, vscode.l10n.t('a changed file'));
  const folder = rowOf(ChangesFolderNode, vscode.l10n.t('a Changes folder'));
  const markAll = async (row: ChangesFolderNode, mark: boolean) => {
    const changes = await withProgress(
      {
        location: { viewId: 'forge.mergeRequests' },
        title: vscode.l10n.t('Reading the changes of !{0}…', row.target.mergeRequest.iid),
      },
      () => row.changes(),
    );
    await viewed.setViewed(row.target, changes, mark);
    return viewed.count(row.target, changes);
  };
  return [
    defineCommand({
      id: 'forge.review.markFileViewed',
      args: [file],
      run: async (row) => {
        await viewed.setViewed(row.folder.target, [row.change], true);
        return { viewed: true };
      },
    }),
    defineCommand({
      id: 'forge.review.markFileNotViewed',
      args: [file],
      run: async (row) => {
        await viewed.setViewed(row.folder.target, [row.change], false);
        return { viewed: false };
      },
    }),
    defineCommand({ id: 'forge.review.markAllViewed', args: [folder], run: (row) => markAll(row, true) }),
    defineCommand({ id: 'forge.review.markAllNotViewed', args: [folder], run: (row) => markAll(row, false) }),
    defineCommand({
      id: 'forge.review.hideViewedFiles',
      args: [],
      run: async () => {
        await viewed.setHiding(true);
        return { hiding: true };
      },
    }),
    defineCommand({
      id: 'forge.review.showViewedFiles',
      args: [],
      run: async () => {
        await viewed.setHiding(false);
        return { hiding: false };
      },
    }),
  ];
}
