/**
 * The checked-out branch's commands: "Suggest Changes from My Edits", and turning the threads on the
 * working files off and on (`forge.review.threadsOnCheckedOutBranch`, per workspace when one is open).
 */
import * as vscode from 'vscode';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import { type BranchThreads, THREADS_ON_BRANCH_SETTING } from './branchThreads';
import type { EditSuggestions } from './editSuggestions';

async function setThreadsOnBranch(shown: boolean): Promise<{ shown: boolean }> {
  const target = vscode.workspace.workspaceFolders
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration('forge').update(THREADS_ON_BRANCH_SETTING, shown, target);
  return { shown };
}

export function branchCommands(branch: BranchThreads, suggestions: EditSuggestions): CommandDeclaration[] {
  return [
    defineCommand({ id: 'forge.review.suggestFromEdits', args: [], run: () => suggestions.suggest() }),
    defineCommand({
      id: 'forge.review.hideBranchThreads',
      args: [],
      run: () => setThreadsOnBranch(false),
    }),
    defineCommand({
      id: 'forge.review.showBranchThreads',
      args: [],
      run: async () => {
        const shown = await setThreadsOnBranch(true);
        return { ...shown, mergeRequest: branch.current?.mergeRequest.iid };
      },
    }),
  ];
}
