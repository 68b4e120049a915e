/** The transport's rules: which replies and errors are retried, redirects, queries, back-off. */
import { type HttpMethod, MalformedReplyError, type MalformedReplyProblem } from './errors';
import type { HttpResponseInfo, Query, QueryScalar, RequestOptions, ResponseHeaders } from './transportTypes';
import type { FormData } from './undici';

export const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
export const CONNECTION_RESET_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ECONNABORTED',
]);
export const NEVER_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
export const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** A path segment the URL parser treats as `.` or `..`. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

export function hasDotSegment(path: string): boolean {
  const pathname = path.split(/[?#]/, 1)[0] ?? '';
  return pathname.split('/').some((segment) => DOT_SEGMENT.test(segment));
}
export const MAX_REDIRECTS = 5;

export function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function appendQuery(url: URL, query: Query | undefined): void {
  if (!query) return;
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      const arrayKey = key.endsWith('[]') ? key : `${key}[]`;
      for (const item of value as readonly QueryScalar[]) url.searchParams.append(arrayKey, String(item));
    } else {
      url.searchParams.set(key, String(value));
    }
  }
}

function formBody(form: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly QueryScalar[]) params.append(key, String(item));
    } else params.set(key, String(value));
  }
  return params.toString();
}

export const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Parses `Retry-After` as seconds or as an HTTP date; returns milliseconds. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A JSON body parsed, `undefined` when empty; never the raw SyntaxError, whose message quotes the body. */
export function parseJsonBody(
  method: HttpMethod,
  displayPath: () => string,
  info: HttpResponseInfo,
  bytes: Buffer,
): unknown {
  const text = bytes.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const contentType = headerValue(info.headers, 'content-type');
    throw new MalformedReplyError(
      method,
      displayPath(),
      info.status,
      malformation(text, error, contentType),
      Buffer.byteLength(text),
      contentType,
    );
  }
}

/** Why a body did not parse: an HTML page, JSON that stops part-way, or something else. */
export function malformation(
  text: string,
  error: unknown,
  contentType: string | undefined,
): MalformedReplyProblem {
  const trimmed = text.trim();
  if (/html/i.test(contentType ?? '') || trimmed.startsWith('<')) return 'html';
  const message = error instanceof Error ? error.message : '';
  if (/end of JSON input|Unterminated string/i.test(message)) return 'cut-off';
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position !== undefined && Number(position) >= text.trimEnd().length) return 'cut-off';
  return 'not-json';
}

/** The request's body: JSON, a form, or multipart (undici's `FormData` writes its own boundary). */
export function requestBody(options: RequestOptions): string | FormData | undefined {
  if (options.json !== undefined) return JSON.stringify(options.json);
  if (options.form !== undefined) return formBody(options.form);
  return options.multipart;
}
