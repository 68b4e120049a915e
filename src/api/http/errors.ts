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
  ) {
    super(`${method} ${path} failed with ${status}: ${serverMessage}`);
  }
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
): HttpError {
  const ErrorClass = errorClassByStatus.get(status) ?? (status >= 500 ? ServerError : ClientError);
  return new ErrorClass(method, path, status, message.text, message.fieldErrors, retryAfterSeconds);
}

/** The request never got an HTTP answer: refused, reset, DNS, TLS. */
export class NetworkError extends ForgeError {
  override name = 'NetworkError';
  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    readonly code: string,
    detail: string,
  ) {
    super(`${method} ${path} could not reach the server (${code}): ${detail}`);
  }
}

export class TimeoutError extends ForgeError {
  override name = 'TimeoutError';
  constructor(
    readonly method: HttpMethod,
    readonly path: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} ${path} timed out after ${Math.round(timeoutMs / 1000)} s`);
  }
}

/** The caller cancelled (user pressed cancel, view closed). */
export class CancelledError extends ForgeError {
  override name = 'CancelledError';
  constructor(
    readonly method: HttpMethod,
    readonly path: string,
  ) {
    super(`${method} ${path} was cancelled`);
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
  ) {
    super(
      `${method} ${path}: the connection broke (${code}) after the request was sent, so the server may have acted. Check before trying again.`,
    );
  }
}

/** A reply whose body does not fit the schema the code relies on. */
export class SchemaMismatchError extends ForgeError {
  override name = 'SchemaMismatchError';
  constructor(
    readonly endpoint: string,
    readonly fieldPath: string,
    readonly problem: string,
  ) {
    super(`Unexpected reply from ${endpoint}: field "${fieldPath}" ${problem}`);
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
      `${context}: the server pointed to another site (${foreignOrigin}); not followed, so your token stays with your server`,
    );
  }
}

/**
 * Reads the server's message from every body shape the servers use:
 * `{message: string}`, `{message: {field: [..]}}`, `{error: string}`, `{error_description}`, plain text.
 */
export function readServerMessage(body: string, status: number, statusText = ''): ServerMessage {
  const trimmed = body.trim();
  if (trimmed === '') return { text: statusText || `HTTP ${status}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { text: firstLine(trimmed) };
  }
  if (typeof parsed === 'string') return { text: parsed };
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { text: statusText || `HTTP ${status}` };
  }
  const record = parsed as Record<string, unknown>;
  const { message, error } = record;
  if (typeof message === 'string') return { text: message };
  if (message !== null && typeof message === 'object' && !Array.isArray(message)) {
    const fieldErrors = flattenFieldErrors(message as Record<string, unknown>);
    const text = Object.entries(fieldErrors)
      .map(([field, problems]) => `${field} ${problems.join(', ')}`)
      .join('; ');
    return { text: text || statusText || `HTTP ${status}`, fieldErrors };
  }
  if (Array.isArray(message)) return { text: message.map(String).join('; ') };
  if (typeof error === 'string') {
    const description = record['error_description'];
    return { text: typeof description === 'string' ? `${error}: ${description}` : error };
  }
  return { text: statusText || `HTTP ${status}` };
}

/** `{name: ['x'], project: {path: ['y']}}` becomes `{name: ['x'], 'project.path': ['y']}`. */
function flattenFieldErrors(source: Record<string, unknown>, prefix = ''): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, value] of Object.entries(source)) {
    const field = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(value)) out[field] = value.map(String);
    else if (typeof value === 'string') out[field] = [value];
    else if (value !== null && typeof value === 'object') {
      Object.assign(out, flattenFieldErrors(value as Record<string, unknown>, field));
    }
  }
  return out;
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
