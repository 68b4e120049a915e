import type * as vscode from 'vscode';
import { registerCommand } from '../../platform/commands/registerCommand';
import { pickOne } from '../../platform/userMessages';
import { MergeRequestsFolder, type MergeRequestStateFilter } from './nodes/mergeRequestNodes';

/** `forge.mergeRequests.selectState`: which merge requests a project's folder shows. */
export function registerStateFilterCommand(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
): void {
  // `options.state` is for tests and automation.
  registerCommand(
    context,
    log,
    'forge.mergeRequests.selectState',
    async (folder: MergeRequestsFolder, options?: { state?: MergeRequestStateFilter }) => {
      if (!(folder instanceof MergeRequestsFolder)) return;
      if (options?.state) {
        folder.setState(options.state);
        return;
      }
      const states: MergeRequestStateFilter[] = ['opened', 'merged', 'closed', 'all'];
      const choice = await pickOne(
        states.map((state) => ({ label: state, picked: state === folder.state })),
        { placeHolder: 'Show merge requests that are…' },
      );
      if (choice) folder.setState(choice.label);
    },
  );

  // `options` is for tests and automation: the states (none: all) and the branch (none: every branch).
}
