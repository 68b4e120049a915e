/*
 * The CI file in the editor (issue 38): its references checked as the user types, and the server's
 * CI lint on the file's lines when it is saved and on command. This file is the feature's only
 * public face.
 */
import * as vscode from 'vscode';
import * as z from 'zod';
import { defineCommand } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import { showInformation, showWarning } from '../../platform/userMessages';
import type { Services } from '../../services';
import { activeYamlFile, type CiCheckOutcome, CiLintChecks } from './ciLintChecks';
import { CiCheckThread } from './ciCheckThread';
import { CiLocalDiagnostics } from './ciLocalDiagnostics';
import { CiFileNames, CI_FILE_SELECTOR, registerCiCompletion } from './ciCompletionProvider';
import { registerCiHover } from './ciHoverProvider';
import { CiProjectVariables } from './ciProjectVariables';
import { CiSchemaSource } from './ciSchemaSource';
import { registerMergedConfiguration } from './ciMergedView';
import { registerRunLocally } from './ciRunLocally';

export type { CiCheckOutcome, CiLintChecks } from './ciLintChecks';
export type { LocalRunOutcome } from './ciRunLocally';

export function createCiConfigFeature(services: Services): CiLintChecks {
  const schemaSource = new CiSchemaSource(services.context.extensionUri, services.log);
  const thread = new CiCheckThread(services.context.extensionUri, services.log);
  const local = new CiLocalDiagnostics(schemaSource, thread);
  const checks = new CiLintChecks(services, local);
  const projectVariables = new CiProjectVariables(services, (document) => checks.projectOf(document));
  const names = new CiFileNames();
  services.context.subscriptions.push(
    thread,
    projectVariables,
    local,
    checks,
    registerCiCompletion(names, schemaSource, projectVariables),
    registerCiHover(names, schemaSource, projectVariables),
    registerMergedConfiguration(services, checks),
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (vscode.languages.match(CI_FILE_SELECTOR, document) > 0) projectVariables.prefetch(document);
    }),
  );
  registerRunLocally(services);
  registerCommands(services.context, services.log, [
    defineCommand({
      id: 'forge.ciConfig.check',
      args: [z.unknown()],
      run: async (): Promise<CiCheckOutcome | undefined> => {
        const document = activeYamlFile(
          vscode.l10n.t('Open the CI file (.gitlab-ci.yml) in the editor first, then check it.'),
        );
        const outcome = await checks.check(document);
        if (!outcome) return undefined;
        const problems = outcome.errors.length + outcome.warnings.length;
        if (outcome.valid && problems === 0) void showInformation(vscode.l10n.t('The CI file is valid.'));
        else
          void showWarning(
            problems === 1
              ? vscode.l10n.t('The CI file has 1 problem: it is in the Problems view.')
              : vscode.l10n.t('The CI file has {0} problems: they are in the Problems view.', problems),
          );
        return outcome;
      },
    }),
  ]);
  return checks;
}
