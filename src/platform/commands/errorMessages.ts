import {
  ConflictError,
  ForbiddenError,
  ForgeError,
  MalformedReplyError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ReplyTooLargeError,
  SchemaMismatchError,
  TimeoutError,
  UnauthorizedError,
  UncertainWriteError,
} from '../../api/http';
import { type Checked } from '../../domain/inputValidation';
import * as l10n from '@vscode/l10n';

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
    return l10n.t(
      'The server rejected the token ({0}). Run "Forge: Update Token" with a valid token.',
      error.serverMessage,
    );
  }
  if (error instanceof ForbiddenError) return l10n.t('Not allowed: {0}', error.serverMessage);
  if (error instanceof NotFoundError)
    return l10n.t('Not found: {0}. It may have been deleted; refresh the view.', error.serverMessage);
  if (error instanceof ConflictError) return l10n.t('Conflict: {0}', error.serverMessage);
  if (error instanceof RateLimitedError) {
    return error.retryAfterSeconds
      ? l10n.t('The server is rate limiting requests; try again in {0} s.', error.retryAfterSeconds)
      : l10n.t('The server is rate limiting requests.');
  }
  if (error instanceof UncertainWriteError) {
    // Never "try again" alone: the write may have happened, and sending it twice would repeat it.
    return l10n.t(
      '{0}. The server may have done it; check before trying again.',
      stripFinalAdvice(error.message),
    );
  }
  if (error instanceof MalformedReplyError) {
    return error.method !== 'GET' && error.method !== 'HEAD' && error.status < 300
      ? `${error.message}.`
      : l10n.t(
          '{0}. Check the server address (it must point at the server, not a sign-in page or proxy), then refresh.',
          error.message,
        );
  }
  if (error instanceof ReplyTooLargeError) return `${error.message}.`;
  if (error instanceof TimeoutError) {
    return l10n.t(
      '{0}. The server is slow or unreachable; try again, or raise "forge.requestTimeoutSeconds".',
      error.message,
    );
  }
  if (error instanceof NetworkError) {
    return CERTIFICATE_PROBLEM.test(error.message)
      ? l10n.t(
          '{0}. Run "Forge: Configure Account Network Settings" to see the certificate and trust it, or to choose the CA file.',
          error.message,
        )
      : l10n.t('{0}. Check the address and your network or proxy settings.', error.message);
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
    return l10n.t(
      '{0} rejected the token ({1}). Check that you copied the whole token, that it has not expired or been revoked, and that it has the api scope; then add the account again.',
      host,
      error.serverMessage,
    );
  }
  if (error instanceof NetworkError && !CERTIFICATE_PROBLEM.test(error.message)) {
    return l10n.t(
      '{0} could not be reached ({1}). Check the address, that the server is up, and your network or proxy settings ("http.proxy").',
      host,
      error.code,
    );
  }
  if (error instanceof TimeoutError) {
    return l10n.t(
      '{0} did not answer within the time allowed. Check the address, or raise "forge.requestTimeoutSeconds" for a slow server.',
      host,
    );
  }
  return describeError(error);
}

/** `UncertainWriteError` messages end with their own advice; describeError words it once. */
function stripFinalAdvice(message: string): string {
  return message.replace(/,? so the server may have acted\.?\s*Check before trying again\.?$/, '');
}

/**
 * Whether a failed write may have reached the server: the user must look before sending it again.
 * So it did when the server accepted it (2xx) with a reply that could not be read or did not fit.
 */
export function mayHaveActed(error: unknown): boolean {
  if (error instanceof UncertainWriteError) return true;
  if (error instanceof MalformedReplyError)
    return error.method !== 'GET' && error.method !== 'HEAD' && error.status < 300;
  return error instanceof SchemaMismatchError && /^(POST|PUT|PATCH|DELETE) /.test(error.endpoint);
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
    return l10n.t(
      '{0} {1}; look at {2} before sending it, it may already be there.',
      describeError(error),
      what.kept,
      what.where,
    );
  }
  return l10n.t('{0} {1}: {2} to send it.', describeError(error), what.kept, what.resend);
}
