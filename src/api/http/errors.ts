import { firstTagText } from '../../text/linearText';
import * as l10n from '@vscode/l10n';
/**
 * Errors raised by the HTTP core. One class per status class so callers can `instanceof` on what
 * they can act on (an expired token, a conflict, a rate limit) without reading numbers.
 */

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** Field-level validation messages, e.g. `{ name: ['has already been taken'] }`. */
export type FieldErrors = Record<string, string[]>;

export interface ServerMessage {
  /** One line a person can read. */
  text: string;
  fieldErrors?: FieldErrors;
}

export class ForgeError extends Error {
  override name = 'ForgeError';
}

/** The server answered with a status that is not a success. */
export class HttpError extends ForgeError {
  override name = 'HttpError';
  constructor(
    readonly method: HttpMethod,
    /** Path without query string and without secrets. */
    readonly path: string,
    readonly status: number,
    readonly serverMessage: string,
    readonly fieldErrors?: FieldErrors,
    readonly retryAfterSeconds?: number,
    /** How many times the request was sent (more than 1 when it was retried before giving up). */
    readonly attempts = 1,
  ) {
    super(
      l10n.t('{0} {1} failed with {2}: {3}{4}', method, path, status, serverMessage, triedTimes(attempts)),
    );
  }
}

/** `30 s`, or `250 ms` below a second. */
function duration(ms: number): string {
  return ms < 1000 ? l10n.t('{0} ms', Math.round(ms)) : `${Math.round(ms / 1000)} s`;
}

function triedTimes(attempts: number): string {
  return attempts > 1 ? l10n.t(' (tried {0} times)', attempts) : '';
}

export class BadRequestError extends HttpError {
  override name = 'BadRequestError';
}
export class UnauthorizedError extends HttpError {
  override name = 'UnauthorizedError';
}
export class ForbiddenError extends HttpError {
  override name = 'ForbiddenError';
}
export class NotFoundError extends HttpError {
  override name = 'NotFoundError';
}
export class MethodNotAllowedError extends HttpError {
  override name = 'MethodNotAllowedError';
}
export class NotAcceptableError extends HttpError {
  override name = 'NotAcceptableError';
}
export class ConflictError extends HttpError {
  override name = 'ConflictError';
}
export class UnprocessableEntityError extends HttpError {
  override name = 'UnprocessableEntityError';
}
export class RateLimitedError extends HttpError {
  override name = 'RateLimitedError';
}
/** Any other 4xx. */
export class ClientError extends HttpError {
  override name = 'ClientError';
}
/** Any 5xx. */
export class ServerError extends HttpError {
  override name = 'ServerError';
}

type HttpErrorClass = new (...args: ConstructorParameters<typeof HttpError>) => HttpError;

const errorClassByStatus: ReadonlyMap<number, HttpErrorClass> = new Map<number, HttpErrorClass>([
  [400, BadRequestError],
  [401, UnauthorizedError],
  [403, ForbiddenError],
  [404, NotFoundError],
  [405, MethodNotAllowedError],
  [406, NotAcceptableError],
  [409, ConflictError],
  [422, UnprocessableEntityError],
  [429, RateLimitedError],
]);

export function httpErrorFor(
  method: HttpMethod,
  path: string,
  status: number,
  message: ServerMessage,
  retryAfterSeconds?: number,
  attempts = 1,
): HttpError {
  const ErrorClass = errorClassByStatus.get(status) ?? (status >= 500 ? ServerError : ClientError);
  return new ErrorClass(method, path, status, message.text, message.fieldErrors, retryAfterSeconds, attempts);
}

/**
 * The request never got an HTTP answer (refused, reset, DNS, TLS: `stage` 'connect'), or the
 * connection broke while the answer was being read (`stage` 'reply').
 */
export class NetworkError extends ForgeError {
  override name = 'NetworkError';
  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    readonly code: string,
    detail: string,
    /** How many times the request was sent before giving up. */
    readonly attempts = 1,
    readonly stage: 'connect' | 'reply' = 'connect',
  ) {
    super(
      stage === 'reply'
        ? l10n.t(
            '{0} {1}: the connection broke while the reply was being read ({2}): {3}{4}',
            method,
            path,
            code,
            detail,
            triedTimes(attempts),
          )
        : l10n.t(
            '{0} {1} could not reach the server ({2}): {3}{4}',
            method,
            path,
            code,
            detail,
            triedTimes(attempts),
          ),
    );
  }
}

export class TimeoutError extends ForgeError {
  override name = 'TimeoutError';
  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    readonly timeoutMs: number,
  ) {
    super(l10n.t('{0} {1} timed out after {2}', method, path, duration(timeoutMs)));
  }
}

/** The caller cancelled (user pressed cancel, view closed). */
export class CancelledError extends ForgeError {
  override name = 'CancelledError';
  constructor(
    readonly method: HttpMethod,
    readonly path: string,
  ) {
    super(l10n.t('{0} {1} was cancelled', method, path));
  }
}

/**
 * A write whose connection broke after it was sent: the server may or may not have acted.
 * Never retried silently; the user decides after checking.
 */
export class UncertainWriteError extends ForgeError {
  override name = 'UncertainWriteError';
  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    readonly code: string,
    /** Set when no answer came in time (code `TIMEOUT`) rather than the connection breaking. */
    readonly timeoutMs?: number,
  ) {
    super(
      timeoutMs === undefined
        ? l10n.t(
            '{0} {1}: the connection broke ({2}) after the request was sent, so the server may have acted. Check before trying again.',
            method,
            path,
            code,
          )
        : l10n.t(
            '{0} {1}: no answer within {2} after the request was sent, so the server may have acted. Check before trying again.',
            method,
            path,
            duration(timeoutMs),
          ),
    );
  }
}

export type MalformedReplyProblem = 'not-json' | 'cut-off' | 'html';

/**
 * A success status whose body is not the JSON asked for: not JSON at all, JSON that stops part-way
 * (cut off by a proxy), or an HTML page (a sign-in page or proxy in the way). Never a raw SyntaxError.
 */
export class MalformedReplyError extends ForgeError {
  override name = 'MalformedReplyError';
  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    readonly status: number,
    readonly problem: MalformedReplyProblem,
    readonly bytes: number,
    readonly contentType: string | undefined,
  ) {
    const accepted =
      method !== 'GET' && method !== 'HEAD' && status < 300
        ? l10n.t(
            '. The server did accept the request: refresh to see the result rather than sending it again',
          )
        : '';
    super(
      l10n.t(
        '{0} {1} answered {2} with {3}{4}',
        method,
        path,
        status,
        describeMalformation(problem, bytes, contentType),
        accepted,
      ),
    );
  }
}

function describeMalformation(problem: MalformedReplyProblem, bytes: number, contentType?: string): string {
  switch (problem) {
    case 'html':
      return l10n.t(
        'an HTML page instead of JSON: a proxy or sign-in page may be in the way, or the server address does not point at the API',
      );
    case 'cut-off':
      return l10n.t('JSON that stops part-way ({0} bytes): the reply was cut off, perhaps by a proxy', bytes);
    case 'not-json':
      return contentType === undefined
        ? l10n.t('a body that is not valid JSON (no content type, {0} bytes)', bytes)
        : l10n.t('a body that is not valid JSON ({0}, {1} bytes)', contentType, bytes);
  }
}

/** A reply larger than the transport reads into memory (JSON 50 MB by default); it was not read. */
export class ReplyTooLargeError extends ForgeError {
  override name = 'ReplyTooLargeError';
  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    readonly limitBytes: number,
    /** `JSON` or `text`. */
    readonly kind: string,
    /** From `Content-Length`, when the server announced the size. */
    readonly declaredBytes?: number,
  ) {
    super(
      declaredBytes !== undefined
        ? l10n.t(
            '{0} {1}: the reply is larger than the {2} limit for {3} replies (the server announced {4}); it was not read. A reply this large is not a normal answer: check the server address, or narrow the request',
            method,
            path,
            megabytes(limitBytes),
            kind,
            megabytes(declaredBytes),
          )
        : l10n.t(
            '{0} {1}: the reply is larger than the {2} limit for {3} replies; reading stopped at the limit. A reply this large is not a normal answer: check the server address, or narrow the request',
            method,
            path,
            megabytes(limitBytes),
            kind,
          ),
    );
  }
}

function megabytes(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return mb >= 10 ? l10n.t('{0} MB', Math.round(mb)) : l10n.t('{0} MB', Math.round(mb * 10) / 10);
}

/** A reply whose body does not fit the schema the code relies on. */
export class SchemaMismatchError extends ForgeError {
  override name = 'SchemaMismatchError';
  constructor(
    readonly endpoint: string,
    readonly fieldPath: string,
    readonly problem: string,
  ) {
    super(l10n.t('Unexpected reply from {0}: field "{1}" {2}', endpoint, fieldPath, problem));
  }
}

/** A next-page link or redirect that points at a different origin than the configured server. */
export class CrossOriginError extends ForgeError {
  override name = 'CrossOriginError';
  constructor(
    /** What was being fetched, e.g. `GET /projects/:id/jobs`. */
    readonly context: string,
    readonly foreignOrigin: string,
  ) {
    super(
      l10n.t(
        '{0}: the server pointed to another site ({1}); not followed, so your token stays with your server',
        context,
        foreignOrigin,
      ),
    );
  }
}

/** A redirect the client does not follow: one for a write, or a read past the redirect limit. */
export class RedirectError extends ForgeError {
  override name = 'RedirectError';
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly reason: 'write' | 'too-many' | 'no-location',
    location: string,
  ) {
    const where = location ? l10n.t(' to {0}', location.split('?')[0] ?? '') : '';
    super(
      reason === 'write'
        ? l10n.t(
            "{0} {1}: the server redirected this change{2} (HTTP {3}) instead of making it; it was not sent again. Check the account's server address (http or https, the path)",
            method,
            path,
            where,
            status,
          )
        : reason === 'too-many'
          ? l10n.t('{0} {1}: too many redirects (the server kept redirecting{2})', method, path, where)
          : l10n.t('{0} {1}: the server redirected (HTTP {2}) without saying where', method, path, status),
    );
  }
}

/** A list the server would never let end: a page repeated, pages past the announced total, or past the cap. */
export class RunawayListError extends ForgeError {
  override name = 'RunawayListError';
  constructor(
    /** What was being listed, e.g. `GET /projects/:id/branches`. */
    readonly context: string,
    readonly reason: 'repeated-page' | 'past-total' | 'cap',
    detail: string,
  ) {
    super(l10n.t('{0}: {1}; listing stopped', context, detail));
  }
}

/**
 * Reads the server's message from every body shape the servers use:
 * `{message: string}`, `{message: {field: [..]}}`, `{error: string}`, `{error_description}`, plain text.
 */
export function readServerMessage(body: string, status: number, statusText = ''): ServerMessage {
  try {
    return readMessage(body, status, statusText);
  } catch (error) {
    // A body nested deeper than anything can walk (a hostile server's 10,000 levels) says no more
    // than its status; never a RangeError in place of the error the status means.
    if (error instanceof RangeError) return { text: statusText || l10n.t('HTTP {0}', status) };
    throw error;
  }
}

function readMessage(body: string, status: number, statusText: string): ServerMessage {
  const trimmed = body.trim();
  if (trimmed === '') return { text: statusText || l10n.t('HTTP {0}', status) };
  if (/^<(?:!doctype|html|head|body)\b/i.test(trimmed))
    return { text: htmlHeadline(trimmed, status, statusText) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { text: firstLine(trimmed) };
  }
  if (typeof parsed === 'string') return { text: parsed };
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { text: statusText || l10n.t('HTTP {0}', status) };
  }
  const record = parsed as Record<string, unknown>;
  const { message, error } = record;
  if (typeof message === 'string') return { text: message };
  if (message !== null && typeof message === 'object' && !Array.isArray(message)) {
    const fieldErrors = flattenFieldErrors(message as Record<string, unknown>);
    const text = Object.entries(fieldErrors)
      .map(([field, problems]) => `${field} ${problems.join(', ')}`)
      .join('; ');
    return { text: text || statusText || l10n.t('HTTP {0}', status), fieldErrors };
  }
  if (Array.isArray(message)) return { text: message.map(plainValue).join('; ') };
  if (typeof error === 'string') {
    const description = record['error_description'];
    return { text: typeof description === 'string' ? `${error}: ${description}` : error };
  }
  return { text: statusText || l10n.t('HTTP {0}', status) };
}

/** Field errors are read this deep at most; real servers nest two or three levels. */
const MAX_FIELD_DEPTH = 8;

/** A value in a message list as text: strings and numbers as they are, anything nested elided. */
function plainValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null || value === undefined ? '' : '…';
}

/** `{name: ['x'], project: {path: ['y']}}` becomes `{name: ['x'], 'project.path': ['y']}`. */
function flattenFieldErrors(source: Record<string, unknown>, prefix = '', depth = 0): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, value] of Object.entries(source)) {
    const field = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(value)) out[field] = value.map(plainValue);
    else if (typeof value === 'string') out[field] = [value];
    else if (value !== null && typeof value === 'object' && depth < MAX_FIELD_DEPTH) {
      Object.assign(out, flattenFieldErrors(value as Record<string, unknown>, field, depth + 1));
    }
  }
  return out;
}

/** An HTML error page (a proxy's 502, a maintenance page) said in one line: its title or first heading. */
function htmlHeadline(html: string, status: number, statusText: string): string {
  const found = firstTagText(html, 'title') ?? firstTagText(html, 'h1');
  const text = found?.replace(/\s+/g, ' ').trim();
  return text
    ? l10n.t('{0} (an HTML error page)', text)
    : statusText
      ? l10n.t('{0} (an HTML error page)', statusText)
      : l10n.t('HTTP {0} (an HTML error page)', status);
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
