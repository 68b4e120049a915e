import {
  ConflictError,
  ForbiddenError,
  ForgeError,
  HttpError,
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
import { capitalised, requestInWords } from '../../domain/requestWords';

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

type RequestError = Error & { method: Parameters<typeof requestInWords>[0]; path: string };

function isRequestError(error: unknown): error is RequestError {
  return (
    error instanceof ForgeError &&
    typeof (error as Partial<RequestError>).method === 'string' &&
    typeof (error as Partial<RequestError>).path === 'string'
  );
}

/**
 * The error's own message with its request (`POST /projects/1/repository/branches`) said in words
 * ("Creating the branch"): methods, routes and ids are for the log, which has them.
 */
function inWords(error: Error): string {
  if (isRequestError(error)) {
    const request = `${error.method} ${error.path}`;
    if (error.message.startsWith(request))
      return `${capitalised(requestInWords(error.method, error.path))}${error.message.slice(request.length)}`;
  }
  // Listing and redirect errors name what was fetched as `GET /projects/:id/jobs`.
  const context = (error as { context?: unknown }).context;
  const named = typeof context === 'string' ? REQUEST.exec(context) : null;
  if (named && error.message.startsWith(named[0])) {
    const words = requestInWords(named[1] as RequestError['method'], named[2] ?? '');
    return `${capitalised(words)}${error.message.slice(named[0].length)}`;
  }
  return error.message;
}

const REQUEST = /^(GET|HEAD|POST|PUT|PATCH|DELETE) (\S+)/;

/** Words for a refusal the server explained (status and its message), by what the status means. */
function describeHttpError(error: HttpError): string {
  const words = requestInWords(error.method, error.path);
  const said = error.serverMessage;
  if (error instanceof UnauthorizedError)
    return l10n.t('The server rejected the token ({0}). Run "Forge: Update Token" with a valid token.', said);
  if (error instanceof ForbiddenError)
    return l10n.t('{0} is not allowed for your account ({1}).', capitalised(words), said);
  if (error instanceof NotFoundError)
    return l10n.t(
      '{0} failed: not found ({1}). It may have been deleted; refresh the view.',
      capitalised(words),
      said,
    );
  if (error instanceof ConflictError)
    return l10n.t('{0} failed: {1}. Refresh and try again.', capitalised(words), said);
  if (error instanceof RateLimitedError) {
    return error.retryAfterSeconds
      ? l10n.t('The server is rate limiting requests; try again in {0} s.', error.retryAfterSeconds)
      : l10n.t('The server is rate limiting requests.');
  }
  if (error.status >= 500)
    return l10n.t(
      'The server failed while {0} ({1}). Try again later; "Forge: Show Log" has the details.',
      words,
      said,
    );
  return l10n.t('The server refused {0}: {1}', words, said);
}

/** A sentence that says what happened and what to do, for any error a command may meet. */
export function describeError(error: unknown): string {
  if (error instanceof HttpError) return describeHttpError(error);
  if (error instanceof UncertainWriteError) {
    // Never "try again" alone: the write may have happened, and sending it twice would repeat it.
    return l10n.t(
      '{0}. The server may have done it; check before trying again.',
      stripFinalAdvice(inWords(error)),
    );
  }
  if (error instanceof MalformedReplyError) {
    return error.method !== 'GET' && error.method !== 'HEAD' && error.status < 300
      ? `${inWords(error)}.`
      : l10n.t(
          '{0}. Check the server address (it must point at the server, not a sign-in page or proxy), then refresh.',
          inWords(error),
        );
  }
  if (error instanceof SchemaMismatchError) {
    const [method = 'GET', ...route] = error.endpoint.split(' ');
    return l10n.t(
      'The server answered {0} in a form Forge Workbench does not read (this server version may not be supported). "Forge: Show Log" has the details.',
      requestInWords(method as RequestError['method'], route.join(' ')),
    );
  }
  if (error instanceof ReplyTooLargeError) return `${inWords(error)}.`;
  if (error instanceof TimeoutError) {
    return l10n.t(
      '{0}. The server is slow or unreachable; try again, or raise "forge.requestTimeoutSeconds".',
      inWords(error),
    );
  }
  if (error instanceof NetworkError) {
    return CERTIFICATE_PROBLEM.test(error.message)
      ? l10n.t(
          '{0}. Run "Forge: Configure Account Network Settings" to see the certificate and trust it, or to choose the CA file.',
          inWords(error),
        )
      : l10n.t('{0}. Check the address and your network or proxy settings.', inWords(error));
  }
  if (error instanceof Error) return inWords(error);
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
