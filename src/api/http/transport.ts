import type { Readable } from 'node:stream';
import { type Dispatcher, type FormData, type ResponseData, loadUndici } from './undici';
import {
  CancelledError,
  ForgeError,
  HttpError,
  type HttpMethod,
  MalformedReplyError,
  type MalformedReplyProblem,
  NetworkError,
  RedirectError,
  ReplyTooLargeError,
  TimeoutError,
  UncertainWriteError,
  httpErrorFor,
  readServerMessage,
  type ServerMessage,
} from './errors';
import { pathForDisplay, redact } from './redact';
import { linkedAbort } from './linkedAbort';
import { BodyCollector } from './bodyCollector';
import { trimEndOf } from './linearText';

export type Credentials =
  | { kind: 'none' }
  | { kind: 'private-token'; token: string }
  | { kind: 'oauth'; token: string }
  | { kind: 'basic'; username: string; password: string };

export interface RetryPolicy {
  /** Extra attempts after the first one. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for; the error goes to the caller. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 300,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

export interface HttpClientOptions {
  /** The server the user configured, e.g. `https://forge.example.com` or `https://host/forge`. */
  baseUrl: string;
  /** Prefix of the API under the server, e.g. `/api/v4`. */
  apiPrefix: string;
  credentials: Credentials;
  /** Administrators only: act as this user (id or username). */
  sudo?: string;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Connection pool, proxy or custom CA; built by the platform layer. */
  dispatcher?: Dispatcher;
  userAgent?: string;
  log?: (line: string) => void;
  /** Told of every request that failed for good (after retries): method, path, status, the server's message, redacted. */
  onFailure?: (line: string) => void;
  /** Injected in tests to make back-off instant. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The most a text reply (a job trace) may have; default 256 MB. */
  maxResponseBytes?: number;
  /** The most a JSON reply may have before it is refused unread; default 50 MB (`DEFAULT_MAX_JSON_BYTES`). */
  maxJsonBytes?: number;
  /** The most pages one listing reads before it stops with an error; default `DEFAULT_MAX_LIST_PAGES`. */
  maxListPages?: number;
}

/** 2,000 pages: 200,000 rows at 100 a page. A setting (`forge.maxListPages`) raises it. */
export const DEFAULT_MAX_LIST_PAGES = 2_000;

export const DEFAULT_MAX_JSON_BYTES = 50 * 1024 * 1024;

export type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | readonly QueryScalar[] | undefined | null;
export type Query = Readonly<Record<string, QueryValue>>;

export interface RequestOptions {
  method: HttpMethod;
  /** Relative to the API root and already percent-encoded, or an absolute URL (next-page links). */
  path: string;
  query?: Query;
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Query;
  /** Sent as `multipart/form-data` (file uploads). */
  multipart?: FormData;
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface HttpResponseInfo {
  status: number;
  headers: ResponseHeaders;
  url: URL;
  /** 304: the resource is already in the state asked for, or did not change. */
  notModified: boolean;
}

export interface TextResponse extends HttpResponseInfo {
  text: string;
}

export interface BytesResponse extends HttpResponseInfo {
  /** The body from `offset` on, as received, not decoded. */
  bytes: Buffer;
  /** Where `bytes` starts in the body: 0, or the `keepFrom` asked for (the whole size if shorter). */
  offset: number;
}

export interface JsonResponse extends HttpResponseInfo {
  /** `undefined` for empty bodies (204, 304). */
  data: unknown;
}

export interface StreamResponse extends HttpResponseInfo {
  body: Readable;
  contentLength: number | undefined;
  /** How long the body may go without a byte before the reader gives up. */
  idleTimeoutMs: number;
}

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
const CONNECTION_RESET_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ECONNABORTED',
]);
const NEVER_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** A path segment the URL parser treats as `.` or `..`. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

function hasDotSegment(path: string): boolean {
  const pathname = path.split(/[?#]/, 1)[0] ?? '';
  return pathname.split('/').some((segment) => DOT_SEGMENT.test(segment));
}
const MAX_REDIRECTS = 5;

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

const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
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

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The one place that talks to the network: keep-alive pool, timeouts, cancellation,
 * credentials for the configured origin only, redirects, and the retry rules.
 */
export class HttpTransport {
  readonly apiRoot: URL;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  /** Given, or made on first use (loading undici then, not at activation). */
  private dispatcher: Dispatcher | undefined;
  private readonly ownsDispatcher: boolean;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly maxResponseBytes: number;
  private readonly maxJsonBytes: number;
  /** Every listing over this transport stops with `RunawayListError` after this many pages. */
  readonly maxListPages: number;

  constructor(private readonly options: HttpClientOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new ForgeError(`The server address must start with http:// or https:// (got ${base.protocol})`);
    }
    const basePath = trimEndOf(base.pathname, '/');
    this.apiRoot = new URL(`${basePath}${trimEndOf(options.apiPrefix, '/')}/`, base.origin);
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher;
    this.sleep = options.sleep ?? defaultSleep;
    this.maxResponseBytes = options.maxResponseBytes ?? 256 * 1024 * 1024;
    this.maxJsonBytes = options.maxJsonBytes ?? DEFAULT_MAX_JSON_BYTES;
    this.maxListPages = Math.max(1, Math.floor(options.maxListPages ?? DEFAULT_MAX_LIST_PAGES));
  }

  get origin(): string {
    return this.apiRoot.origin;
  }

  private async ensureDispatcher(): Promise<Dispatcher> {
    if (!this.dispatcher) {
      const { Agent } = await loadUndici();
      this.dispatcher ??= new Agent({ keepAliveTimeout: 30_000, connections: 16 });
    }
    return this.dispatcher;
  }

  /** Builds the absolute URL for a path relative to the API root (or passes an absolute URL through). */
  urlFor(path: string, query?: Query): URL {
    if (!/^https?:\/\//i.test(path) && hasDotSegment(path)) {
      // `.`/`..` (also as %2e) would be resolved away by the URL parser and reach another endpoint.
      throw new ForgeError(
        `Refused to send a request for ${redact(path, this.secrets())}: a name in it is "." or "..", which would address a different endpoint`,
      );
    }
    const url = /^https?:\/\//i.test(path) ? new URL(path) : new URL(path.replace(/^\/+/, ''), this.apiRoot);
    appendQuery(url, query);
    return url;
  }

  displayPath(url: URL): string {
    return redact(pathForDisplay(url, this.apiRoot), this.secrets());
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher?.close();
  }

  async requestText(options: RequestOptions): Promise<TextResponse> {
    const { bytes, ...info } = await this.fetchBuffered(options, this.maxResponseBytes, 'text');
    return { ...info, text: bytes.toString('utf8') };
  }

  /**
   * Like `requestText`, without decoding, and keeping only the bytes from `keepFrom` on: for a trace,
   * of which only the new end is ever read.
   */
  async requestBytes(options: RequestOptions, body: BodyOptions = {}): Promise<BytesResponse> {
    return this.fetchBuffered(options, this.maxResponseBytes, 'text', body);
  }

  async requestJson(options: RequestOptions): Promise<JsonResponse> {
    const { bytes, ...info } = await this.fetchBuffered(options, this.maxJsonBytes, 'JSON');
    const text = bytes.toString('utf8');
    if (text.trim() === '') return { ...info, data: undefined };
    try {
      return { ...info, data: JSON.parse(text) as unknown };
    } catch (error) {
      // Never the raw SyntaxError: its message quotes the body.
      const contentType = headerValue(info.headers, 'content-type');
      throw new MalformedReplyError(
        options.method,
        this.displayPath(info.url),
        info.status,
        malformation(text, error, contentType),
        Buffer.byteLength(text),
        contentType,
      );
    }
  }

  /**
   * Sends the request and reads the whole body. A GET/HEAD whose connection broke while the body
   * was arriving is retried like one that broke before the answer (same budget); a write is not.
   */
  private async fetchBuffered(
    options: RequestOptions,
    limit: number,
    kind: string,
    bodyOptions: BodyOptions = {},
  ): Promise<BytesResponse> {
    const idempotent = options.method === 'GET' || options.method === 'HEAD';
    const budget = { attempt: 0 };
    for (;;) {
      const { info, body, timedOut, timeoutMs } = await this.send(options, 'buffered', budget);
      try {
        const { bytes, offset } = await this.readBody(body, info, {
          method: options.method,
          limit,
          kind,
          signal: options.signal,
          timedOut,
          timeoutMs,
          attempts: budget.attempt + 1,
          ...bodyOptions,
        });
        return { ...info, bytes, offset };
      } catch (error) {
        if (
          error instanceof NetworkError &&
          error.stage === 'reply' &&
          idempotent &&
          budget.attempt < this.retry.maxRetries
        ) {
          budget.attempt++;
          const delay = this.backoff(budget.attempt);
          this.log(`${error.message}; retry ${budget.attempt} in ${delay} ms`);
          await this.sleepOrCancel(delay, options, info.url);
          continue;
        }
        throw error;
      }
    }
  }

  /** The body is handed over unread; the caller must consume or destroy it. */
  async requestStream(options: RequestOptions): Promise<StreamResponse> {
    const { info, body, timeoutMs } = await this.send(options, 'stream');
    const length = headerValue(info.headers, 'content-length');
    return {
      ...info,
      body,
      contentLength: length !== undefined ? Number(length) : undefined,
      idleTimeoutMs: timeoutMs,
    };
  }

  private secrets(): string[] {
    const { credentials } = this.options;
    switch (credentials.kind) {
      case 'private-token':
      case 'oauth':
        return [credentials.token];
      case 'basic':
        return [
          credentials.password,
          Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64'),
        ];
      case 'none':
        return [];
    }
  }

  private credentialHeaders(): Record<string, string> {
    const { credentials, sudo } = this.options;
    const headers: Record<string, string> = {};
    switch (credentials.kind) {
      case 'private-token':
        headers['private-token'] = credentials.token;
        break;
      case 'oauth':
        headers['authorization'] = `Bearer ${credentials.token}`;
        break;
      case 'basic':
        headers['authorization'] =
          `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
        break;
      case 'none':
        break;
    }
    if (sudo) headers['sudo'] = sudo;
    return headers;
  }

  /** Reports a request that failed for good; a cancellation is no failure. */
  private failed<E extends Error>(error: E, url: URL): E {
    // The host too: a log shared by several accounts says which server failed.
    if (!(error instanceof CancelledError))
      this.options.onFailure?.(redact(`${url.host}: ${error.message}`, this.secrets()));
    return error;
  }

  private log(line: string): void {
    this.options.log?.(redact(line, this.secrets()));
  }

  private async send(
    options: RequestOptions,
    mode: 'buffered' | 'stream',
    /** Retries spent so far, shared with the caller's own retries of a broken body. */
    budget = { attempt: 0 },
  ): Promise<{ info: HttpResponseInfo; body: Readable; timedOut: () => boolean; timeoutMs: number }> {
    const { method } = options;
    const idempotent = method === 'GET' || method === 'HEAD';
    let url = this.urlFor(options.path, options.query);
    let attempt = budget.attempt;
    let redirects = 0;
    for (;;) {
      const started = Date.now();
      const timeoutMs = options.timeoutMs ?? this.timeoutMs;
      // One controller for the request, aborted by its timer or by the caller's signal (see linkedAbort).
      const request = linkedAbort(options.signal);
      let timerFired = false;
      const timer = setTimeout(() => {
        timerFired = true;
        request.controller.abort();
      }, timeoutMs);
      const release = (): void => {
        clearTimeout(timer);
        request.release();
      };
      const signal = request.signal;
      let response: ResponseData;
      try {
        response = await (
          await this.ensureDispatcher()
        ).request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method,
          headers: this.headersFor(url, options),
          body: this.bodyFor(options),
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
      } catch (error) {
        release();
        const failure = this.classifyFailure(error, options, url, timerFired, timeoutMs, attempt + 1);
        if (failure.retryable && idempotent && attempt < this.retry.maxRetries) {
          attempt++;
          const delay = this.backoff(attempt);
          this.log(
            `${method} ${this.displayPath(url)} ${failure.error.message}; retry ${attempt} in ${delay} ms`,
          );
          await this.sleepOrCancel(delay, options, url);
          continue;
        }
        throw this.failed(failure.error, url);
      }
      const { statusCode: status, headers } = response;
      this.log(`${method} ${this.displayPath(url)} → ${status} (${Date.now() - started} ms)`);

      if (REDIRECT_STATUSES.has(status) && idempotent) {
        release();
        await response.body.dump().catch(() => undefined);
        const location = headerValue(headers, 'location');
        if (location && redirects < MAX_REDIRECTS) {
          redirects++;
          // Credentials go only to the configured origin; headersFor checks the new URL.
          url = new URL(location, url);
          continue;
        }
      }
      if (REDIRECT_STATUSES.has(status)) {
        // A write is never followed (its body and credentials would go to wherever the server
        // says) and never read as a success; a read that redirects past the limit is an error,
        // not an empty reply.
        if (!idempotent) {
          release();
          await response.body.dump().catch(() => undefined);
        }
        throw this.failed(
          new RedirectError(
            method,
            this.displayPath(url),
            status,
            idempotent ? (redirects >= MAX_REDIRECTS ? 'too-many' : 'no-location') : 'write',
            redact(headerValue(headers, 'location') ?? '', this.secrets()),
          ),
          url,
        );
      }

      if (status >= 400) {
        const text = await this.readBody(
          response.body,
          { status, headers, url, notModified: false },
          {
            method,
            limit: 64 * 1024,
            kind: 'error',
            signal: options.signal,
            timedOut: () => timerFired,
            timeoutMs,
            attempts: attempt + 1,
          },
        )
          .then(({ bytes }) => bytes.toString('utf8'))
          .catch(() => '')
          .finally(() => release());
        const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'));
        const error = httpErrorFor(
          method,
          this.displayPath(url),
          status,
          this.redactedMessage(text, status),
          retryAfterMs !== undefined ? Math.ceil(retryAfterMs / 1000) : undefined,
          attempt + 1,
        );
        if (idempotent && RETRYABLE_STATUSES.has(status) && attempt < this.retry.maxRetries) {
          const delay = retryAfterMs ?? this.backoff(attempt + 1);
          if (delay <= this.retry.maxRetryAfterMs) {
            attempt++;
            this.log(`${method} ${this.displayPath(url)} ${status}; retry ${attempt} in ${delay} ms`);
            await this.sleepOrCancel(delay, options, url);
            continue;
          }
        }
        throw this.failed(error, url);
      }

      const info: HttpResponseInfo = { status, headers, url, notModified: status === 304 };
      if (mode === 'stream') {
        // Downloads can be long: from here on only the idle timeout of the body applies.
        release();
      } else {
        response.body.once('close', () => release());
        response.body.once('end', () => release());
      }
      budget.attempt = attempt;
      return { info, body: response.body, timedOut: () => timerFired, timeoutMs };
    }
  }

  /** The server's message with the secrets out, before parsing (raw and escaped) and after (decoded). */
  private redactedMessage(body: string, status: number): ServerMessage {
    const secrets = this.secrets();
    const message = readServerMessage(redact(body, secrets), status);
    const fieldErrors = message.fieldErrors
      ? Object.fromEntries(
          Object.entries(message.fieldErrors).map(([field, problems]) => [
            redact(field, secrets),
            problems.map((problem) => redact(problem, secrets)),
          ]),
        )
      : undefined;
    return { text: redact(message.text, secrets), ...(fieldErrors ? { fieldErrors } : {}) };
  }

  private headersFor(url: URL, options: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
      'user-agent': this.options.userAgent ?? 'forge-workbench',
      ...options.headers,
    };
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    else if (options.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (url.origin === this.apiRoot.origin) Object.assign(headers, this.credentialHeaders());
    return headers;
  }

  private bodyFor(options: RequestOptions): string | FormData | undefined {
    if (options.json !== undefined) return JSON.stringify(options.json);
    if (options.form !== undefined) return formBody(options.form);
    return options.multipart;
  }

  private backoff(attempt: number): number {
    const exponential = this.retry.baseDelayMs * 2 ** (attempt - 1);
    const jitter = 0.5 + Math.random() * 0.5;
    return Math.min(this.retry.maxDelayMs, Math.round(exponential * jitter));
  }

  private async sleepOrCancel(ms: number, options: RequestOptions, url: URL): Promise<void> {
    try {
      await this.sleep(ms, options.signal);
    } catch {
      throw new CancelledError(options.method, this.displayPath(url));
    }
  }

  private classifyFailure(
    error: unknown,
    options: RequestOptions,
    url: URL,
    timedOut: boolean,
    timeoutMs: number,
    attempts: number,
  ): { error: Error; retryable: boolean } {
    const path = this.displayPath(url);
    const { method } = options;
    if (options.signal?.aborted) return { error: new CancelledError(method, path), retryable: false };
    const code = errorCode(error) ?? 'UNKNOWN';
    const idempotent = method === 'GET' || method === 'HEAD';
    if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      // A write that got no answer in time may still have been carried out.
      if (!idempotent) {
        return { error: new UncertainWriteError(method, path, 'TIMEOUT', timeoutMs), retryable: false };
      }
      return { error: new TimeoutError(method, path, timeoutMs), retryable: false };
    }
    if (CONNECTION_RESET_CODES.has(code)) {
      if (!idempotent) return { error: new UncertainWriteError(method, path, code), retryable: false };
      return {
        error: new NetworkError(method, path, code, 'the connection was reset', attempts),
        retryable: true,
      };
    }
    if (CERTIFICATE_CODES.has(code)) {
      return {
        error: new NetworkError(
          method,
          path,
          code,
          "the server's certificate is not trusted. Check its fingerprint and trust that certificate, or add its CA file, in the account's network settings",
        ),
        retryable: false,
      };
    }
    const detail = redact(error instanceof Error ? error.message : String(error), this.secrets());
    return {
      error: new NetworkError(
        method,
        path,
        code,
        NEVER_CONNECTED_CODES.has(code) ? 'the server is unreachable' : detail,
        attempts,
      ),
      retryable: false,
    };
  }

  private async readBody(
    body: Readable,
    info: HttpResponseInfo,
    read: BodyRead,
  ): Promise<{ bytes: Buffer; offset: number }> {
    const path = (): string => this.displayPath(info.url);
    const declared = Number(headerValue(info.headers, 'content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > read.limit) {
      body.destroy();
      throw new ReplyTooLargeError(read.method, path(), read.limit, read.kind, declared);
    }
    // A body declared shorter than what the caller has is not the one it has: keep all of it.
    const keepFrom = Number.isFinite(declared) && declared < (read.keepFrom ?? 0) ? 0 : read.keepFrom;
    const collector = new BodyCollector(keepFrom);
    // The caller's own failure in `onChunk`: passed on as it is, neither a cut-off reply nor retried.
    let callerFailure: { error: unknown } | undefined;
    try {
      for await (const chunk of body) {
        const buffer = chunk as Buffer;
        if (collector.size + buffer.length > read.limit) {
          body.destroy();
          throw new ReplyTooLargeError(read.method, path(), read.limit, read.kind);
        }
        collector.add(buffer);
        try {
          read.onChunk?.(buffer, collector.size - buffer.length);
        } catch (error) {
          callerFailure = { error };
          break;
        }
      }
    } catch (error) {
      if (error instanceof ForgeError) throw error;
      if (read.signal?.aborted) throw new CancelledError(read.method, path());
      const code = errorCode(error) ?? 'UNKNOWN';
      // The request's own timer (a body that trickles forever) or undici's idle timer (a stall).
      const write = read.method !== 'GET' && read.method !== 'HEAD';
      if (read.timedOut() || code === 'UND_ERR_BODY_TIMEOUT') {
        if (write) throw new UncertainWriteError(read.method, path(), 'TIMEOUT', read.timeoutMs);
        throw new TimeoutError(read.method, path(), read.timeoutMs);
      }
      if (write) {
        // The server answered, so it acted; what it said is lost.
        throw new UncertainWriteError(read.method, path(), code);
      }
      throw new NetworkError(
        read.method,
        path(),
        code,
        `the reply was cut off after ${collector.size} bytes`,
        read.attempts,
        'reply',
      );
    }
    if (callerFailure) throw callerFailure.error;
    return collector.finish();
  }
}

/** How a successful reply's body is read (`requestBytes`). */
export interface BodyOptions {
  /** Bytes before this offset are dropped as they arrive. */
  keepFrom?: number;
  /**
   * Each chunk as it arrives, with where it starts in the body. A read cut off and retried starts
   * again from offset 0.
   */
  onChunk?: (chunk: Buffer, offset: number) => void;
}

interface BodyRead extends BodyOptions {
  method: HttpMethod;
  limit: number;
  /** Named in the size error: `JSON`, `text`. */
  kind: string;
  signal: AbortSignal | undefined;
  /** Whether the request's own timer fired. */
  timedOut: () => boolean;
  timeoutMs: number;
  attempts: number;
}

/** Why a body did not parse: an HTML page, JSON that stops part-way, or something else. */
function malformation(text: string, error: unknown, contentType: string | undefined): MalformedReplyProblem {
  const trimmed = text.trim();
  if (/html/i.test(contentType ?? '') || trimmed.startsWith('<')) return 'html';
  const message = error instanceof Error ? error.message : '';
  if (/end of JSON input|Unterminated string/i.test(message)) return 'cut-off';
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position !== undefined && Number(position) >= text.trimEnd().length) return 'cut-off';
  return 'not-json';
}

export { HttpError };
