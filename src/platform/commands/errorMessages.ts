import {
  ConflictError,
  ForbiddenError,
  ForgeError,
  MalformedReplyError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ReplyTooLargeError,
  TimeoutError,
  UnauthorizedError,
  UncertainWriteError,
} from '../../api/http';
import { type Checked } from '../../domain/inputValidation';

/*
 * What a command says when something fails. No vscode import, so the wording is unit-tested in plain
 * Node (test/unit/platform/errorMessages.test.ts); registerCommand.ts shows it.
 */

/** Input a person (or automation's options) gave that was refused before any request was sent. */
export class InvalidInputError extends Error {
  override name = 'InvalidInputError';
}

/** The checked value, or an `InvalidInputError` carrying the checker's sentence. */
export function valueOrThrow<T>(checked: Checked<T>): T {
  if (!checked.ok) throw new InvalidInputError(checked.problem);
  return checked.value;
}

const CERTIFICATE_PROBLEM = /certificate is not trusted/;

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
  if (error instanceof UncertainWriteError) {
    // Never "try again" alone: the write may have happened, and sending it twice would repeat it.
    return `${stripFinalAdvice(error.message)}. The server may have done it; check before trying again.`;
  }
  if (error instanceof MalformedReplyError) {
    return error.method !== 'GET' && error.method !== 'HEAD' && error.status < 300
      ? `${error.message}.`
      : `${error.message}. Check the server address (it must point at the server, not a sign-in page or proxy), then refresh.`;
  }
  if (error instanceof ReplyTooLargeError) return `${error.message}.`;
  if (error instanceof TimeoutError) {
    return `${error.message}. The server is slow or unreachable; try again, or raise "forge.requestTimeoutSeconds".`;
  }
  if (error instanceof NetworkError) {
    return CERTIFICATE_PROBLEM.test(error.message)
      ? `${error.message}. Run "Forge: Configure Account Network Settings" to see the certificate and trust it, or to choose the CA file.`
      : `${error.message}. Check the address and your network or proxy settings.`;
  }
  if (error instanceof ForgeError || error instanceof Error) return error.message;
  return String(error);
}

/**
 * Why adding an account failed, in words that fit: there is no account yet to update the token of,
 * and the check the sign-in makes (which endpoint it asks) is not the person's concern.
 */
export function describeSignInError(error: unknown, serverUrl: string): string {
  const host = new URL(serverUrl).host;
  if (error instanceof UnauthorizedError) {
    return `${host} rejected the token (${error.serverMessage}). Check that you copied the whole token, that it has not expired or been revoked, and that it has the api scope; then add the account again.`;
  }
  if (error instanceof NetworkError && !CERTIFICATE_PROBLEM.test(error.message)) {
    return `${host} could not be reached (${error.code}). Check the address, that the server is up, and your network or proxy settings ("http.proxy").`;
  }
  if (error instanceof TimeoutError) {
    return `${host} did not answer within the time allowed. Check the address, or raise "forge.requestTimeoutSeconds" for a slow server.`;
  }
  return describeError(error);
}

/** `UncertainWriteError` messages end with their own advice; describeError words it once. */
function stripFinalAdvice(message: string): string {
  return message.replace(/,? so the server may have acted\.?\s*Check before trying again\.?$/, '');
}

/** Whether a failed write may have reached the server: the user must look before sending it again. */
export function mayHaveActed(error: unknown): boolean {
  return error instanceof UncertainWriteError;
}

/**
 * What to tell the user after sending `what` (kept as a draft) failed: resend when it surely did not
 * arrive; look first when it may have (`where` names what to check).
 */
export function draftKeptMessage(
  error: unknown,
  what: { kept: string; where: string; resend: string },
): string {
  if (mayHaveActed(error)) {
    return `${describeError(error)} ${what.kept}; look at ${what.where} before sending it, it may already be there.`;
  }
  return `${describeError(error)} ${what.kept}: ${what.resend} to send it.`;
}
