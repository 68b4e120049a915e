import * as vscode from 'vscode';
import { CancelledError } from '../api/http';
import { InvalidInputError, describeError } from './errorMessages';
import { inertNotificationText } from '../domain/inertText';

export { InvalidInputError, describeError, valueOrThrow } from './errorMessages';

/** What a command returns when its input was refused before any request (tests assert on it). */
export interface InvalidInputResult {
  invalidInput: true;
  message: string;
}

/** Registers a command whose errors become a clear notification and a log line, never a silent failure. */
export function registerCommand(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  id: string,
  handler: (...args: never[]) => unknown,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(id, async (...args: never[]) => {
      try {
        return await handler(...args);
      } catch (error) {
        if (error instanceof CancelledError) return undefined;
        if (error instanceof InvalidInputError) {
          log.warn(`${id}: input refused: ${error.message}`);
          void vscode.window.showErrorMessage(inertNotificationText(error.message));
          return { invalidInput: true, message: error.message } satisfies InvalidInputResult;
        }
        log.error(`${id}: ${error instanceof Error ? error.message : String(error)}`);
        void vscode.window.showErrorMessage(inertNotificationText(describeError(error)));
        return undefined;
      }
    }),
  );
}
