import * as vscode from 'vscode';
import { CancelledError } from '../../api/http';
import { InvalidInputError, describeError } from './errorMessages';
import type { CommandHandler } from '../../shell';
import { showError } from '../userMessages';
import { runAsCommandSteps } from '../quickSteps';
import type { CommandDeclaration } from './defineCommand';

export { InvalidInputError, describeError, valueOrThrow } from './errorMessages';

/** What a command returns when its input was refused before any request (tests assert on it). */
export interface InvalidInputResult {
  invalidInput: true;
  message: string;
}

/**
 * The core's command handlers by id. VS Code knows the commands through the entry's stand-ins
 * (extension.ts registers one per command in package.json at activation), which call these.
 */
export const commandHandlers = new Map<string, CommandHandler>();

/** Commands the views run by themselves (refreshes, paging): not logged as the user's actions. */
const QUIET_COMMANDS = /\.(refresh\w*|loadMore|showActions)$|^forge\.log\.show$/;

/** " on <row label>" for a command run on a tree row; nothing for the palette. */
function describeTarget(arg: unknown): string {
  if (typeof arg !== 'object' || arg === null || !('getTreeItem' in arg)) return '';
  try {
    const item = (arg as { getTreeItem(): vscode.TreeItem }).getTreeItem();
    const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
    return label ? vscode.l10n.t(' on {0}', label) : '';
  } catch {
    return '';
  }
}

/**
 * Registers a command whose errors become a clear notification and a log line, never a silent
 * failure. Private: commands are declarations (`defineCommand`), registered with `registerCommands`,
 * so that every argument is checked before the handler runs.
 */
function registerCommand(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  id: string,
  handler: (...args: never[]) => unknown,
): void {
  if (commandHandlers.has(id)) throw new Error(vscode.l10n.t('The command {0} is registered twice.', id));
  const quiet = QUIET_COMMANDS.test(id);
  commandHandlers.set(id, async (...args: unknown[]) => {
    if (!quiet) log.info(`${id}${describeTarget(args[0])}`);
    try {
      return await runAsCommandSteps(() => Promise.resolve(handler(...(args as never[]))));
    } catch (error) {
      if (error instanceof CancelledError) return undefined;
      if (error instanceof InvalidInputError) {
        log.warn(`${id}: input refused: ${error.message}`);
        void showError(error.message);
        return { invalidInput: true, message: error.message } satisfies InvalidInputResult;
      }
      log.error(`${id}: ${error instanceof Error ? error.message : String(error)}`);
      void showError(describeError(error));
      return undefined;
    }
  });
  context.subscriptions.push({ dispose: () => commandHandlers.delete(id) });
}

/** Registers declared commands through the one error wrapper. */
export function registerCommands(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  declarations: readonly CommandDeclaration[],
): void {
  for (const declaration of declarations) registerCommand(context, log, declaration.id, declaration.handle);
}
