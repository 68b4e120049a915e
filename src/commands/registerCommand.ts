import * as vscode from 'vscode';
import {
  CancelledError,
  ConflictError,
  ForbiddenError,
  ForgeError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  TimeoutError,
  UnauthorizedError,
} from '../api/http';

/** A sentence that says what happened and what to do, for any error a command may meet. */
export function describeError(error: unknown): string {
  if (error instanceof UnauthorizedError) {
    return `The server rejected the token (${error.serverMessage}). Run "Forge: Update Token" with a valid token.`;
  }
  if (error instanceof ForbiddenError) return `Not allowed: ${error.serverMessage}`;
  if (error instanceof NotFoundError)
    return `Not found: ${error.serverMessage}. It may have been deleted; refresh the view.`;
  if (error instanceof ConflictError) return `Conflict: ${error.serverMessage}`;
  if (error instanceof RateLimitedError) {
    return `The server is rate limiting requests${error.retryAfterSeconds ? `; try again in ${error.retryAfterSeconds} s` : ''}.`;
  }
  if (error instanceof TimeoutError) {
    return `${error.message}. The server is slow or unreachable; try again, or raise "forge.requestTimeoutSeconds".`;
  }
  if (error instanceof NetworkError)
    return `${error.message}. Check the address and your network or proxy settings.`;
  if (error instanceof ForgeError || error instanceof Error) return error.message;
  return String(error);
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
        log.error(`${id}: ${error instanceof Error ? error.message : String(error)}`);
        void vscode.window.showErrorMessage(describeError(error));
        return undefined;
      }
    }),
  );
}
