/** "Review Changes": a merge request's changed files in the multi-file diff editor, from a row or the palette. */
import * as vscode from 'vscode';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import { MergeRequestArgumentSchema } from './commandArguments';
import { CANCELLED, type MergeRequestCommandContext, pickMergeRequest } from './mergeRequestTargets';

export function changesCommand(context: MergeRequestCommandContext): CommandDeclaration {
  return defineCommand({
    id: 'forge.mergeRequest.openChanges',
    args: [MergeRequestArgumentSchema],
    run: async (arg) => {
      const { review, services } = context;
      if (!review) throw new Error(vscode.l10n.t('Reviewing in the diff editor is not available.'));
      const target = await pickMergeRequest(
        services,
        arg,
        vscode.l10n.t('Review the changes of which merge request?'),
        'all',
      );
      if (!target) return { opened: 0, ...CANCELLED };
      const { account, project, mergeRequest } = target;
      return { opened: await review.openAllChanges({ accountId: account.id, project, mergeRequest }) };
    },
  });
}
