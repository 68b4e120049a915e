import type * as vscode from 'vscode';
import * as z from 'zod';
import { defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import { pickOne } from '../../platform/userMessages';
import { MergeRequestsFolder, type MergeRequestStateFilter } from './nodes/mergeRequestNodes';
import * as l10n from '@vscode/l10n';

const STATES = ['opened', 'merged', 'closed', 'all'] as const satisfies readonly MergeRequestStateFilter[];

/** `forge.mergeRequests.selectState`: which merge requests a project's folder shows. */
export function registerStateFilterCommand(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
): void {
  registerCommands(context, log, [
    defineCommand({
      id: 'forge.mergeRequests.selectState',
      // `options.state` is for tests and automation.
      args: [
        rowOf(MergeRequestsFolder, l10n.t("a project's Merge Requests folder")),
        z.strictObject({ state: z.enum(STATES).optional() }).optional(),
      ],
      run: async (folder, options) => {
        if (options?.state) {
          folder.setState(options.state);
          return;
        }
        const choice = await pickOne(
          STATES.map((state) => ({ label: state, picked: state === folder.state })),
          { placeHolder: l10n.t('Show merge requests that are…') },
        );
        if (choice) folder.setState(choice.label);
      },
    }),
  ]);
}
