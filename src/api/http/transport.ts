import type { Readable } from 'node:stream';
import { type Dispatcher, type FormData, type ResponseData, loadUndici } from './undici';
import {
  CancelledError,
  ForgeError,
  HttpError,
  type HttpMethod,
  NetworkError,
  TimeoutError,
  UncertainWriteError,
  httpErrorFor,
  readServerMessage,
} from './errors';
import { pathForDisplay, redact } from './redact';

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
  /** Injected in tests to make back-off instant. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  maxResponseBytes?: number;
}

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

export interface JsonResponse extends HttpResponseInfo {
  /** `undefined` for empty bodies (204, 304). */
  data: unknown;
}

export interface StreamResponse extends HttpResponseInfo {
  body: Readable;
  contentLength: number | undefined;
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
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
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

  constructor(private readonly options: HttpClientOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new ForgeError(`The server address must start with http:// or https:// (got ${base.protocol})`);
    }
    const basePath = base.pathname.replace(/\/+$/, '');
    this.apiRoot = new URL(`${basePath}${options.apiPrefix.replace(/\/+$/, '')}/`, base.origin);
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher;
    this.sleep = options.sleep ?? defaultSleep;
    this.maxResponseBytes = options.maxResponseBytes ?? 256 * 1024 * 1024;
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
    const { info, body } = await this.send(options, 'buffered');
    return { ...info, text: await this.readText(body, info, options.method) };
  }

  async requestJson(options: RequestOptions): Promise<JsonResponse> {
    const response = await this.requestText(options);
    const { text, ...info } = response;
    if (text.trim() === '') return { ...info, data: undefined };
    try {
      return { ...info, data: JSON.parse(text) as unknown };
    } catch {
      throw new ForgeError(
        `${options.method} ${this.displayPath(info.url)} answered ${info.status} with a body that is not JSON`,
      );
    }
  }

  /** The body is handed over unread; the caller must consume or destroy it. */
  async requestStream(options: RequestOptions): Promise<StreamResponse> {
    const { info, body } = await this.send(options, 'stream');
    const length = headerValue(info.headers, 'content-length');
    return { ...info, body, contentLength: length !== undefined ? Number(length) : undefined };
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

  private log(line: string): void {
    this.options.log?.(redact(line, this.secrets()));
  }

  private async send(
    options: RequestOptions,
    mode: 'buffered' | 'stream',
  ): Promise<{ info: HttpResponseInfo; body: Readable }> {
    const { method } = options;
    const idempotent = method === 'GET' || method === 'HEAD';
    let url = this.urlFor(options.path, options.query);
    let attempt = 0;
    let redirects = 0;
    for (;;) {
      const started = Date.now();
      const timeoutMs = options.timeoutMs ?? this.timeoutMs;
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
      let response: ResponseData;
      try {
        response = await (await this.ensureDispatcher()).request({
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
        clearTimeout(timer);
        const failure = this.classifyFailure(error, options, url, timeout.signal.aborted, timeoutMs);
        if (failure.retryable && idempotent && attempt < this.retry.maxRetries) {
          attempt++;
          const delay = this.backoff(attempt);
          this.log(
            `${method} ${this.displayPath(url)} ${failure.error.message}; retry ${attempt} in ${delay} ms`,
          );
          await this.sleepOrCancel(delay, options, url);
          continue;
        }
        throw failure.error;
      }
      const { statusCode: status, headers } = response;
      this.log(`${method} ${this.displayPath(url)} → ${status} (${Date.now() - started} ms)`);

      if (REDIRECT_STATUSES.has(status) && idempotent) {
        clearTimeout(timer);
        await response.body.dump().catch(() => undefined);
        const location = headerValue(headers, 'location');
        if (location && redirects < MAX_REDIRECTS) {
          redirects++;
          // Credentials go only to the configured origin; headersFor checks the new URL.
          url = new URL(location, url);
          continue;
        }
      }

      if (status >= 400) {
        const text = await this.readText(
          response.body,
          { status, headers, url, notModified: false },
          method,
          64 * 1024,
        )
          .catch(() => '')
          .finally(() => clearTimeout(timer));
        const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'));
        const error = httpErrorFor(
          method,
          this.displayPath(url),
          status,
          readServerMessage(redact(text, this.secrets()), status),
          retryAfterMs !== undefined ? Math.ceil(retryAfterMs / 1000) : undefined,
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
        throw error;
      }

      const info: HttpResponseInfo = { status, headers, url, notModified: status === 304 };
      if (mode === 'stream') {
        // Downloads can be long: from here on only the idle timeout of the body applies.
        clearTimeout(timer);
      } else {
        response.body.once('close', () => clearTimeout(timer));
        response.body.once('end', () => clearTimeout(timer));
      }
      return { info, body: response.body };
    }
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
  ): { error: Error; retryable: boolean } {
    const path = this.displayPath(url);
    const { method } = options;
    if (options.signal?.aborted) return { error: new CancelledError(method, path), retryable: false };
    const code = errorCode(error) ?? 'UNKNOWN';
    if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return { error: new TimeoutError(method, path, timeoutMs), retryable: false };
    }
    const idempotent = method === 'GET' || method === 'HEAD';
    if (CONNECTION_RESET_CODES.has(code)) {
      if (!idempotent) return { error: new UncertainWriteError(method, path, code), retryable: false };
      return { error: new NetworkError(method, path, code, 'the connection was reset'), retryable: true };
    }
    if (CERTIFICATE_CODES.has(code)) {
      return {
        error: new NetworkError(
          method,
          path,
          code,
          "the server's certificate is not trusted. Add its CA file to the account's network settings, or explicitly allow a self-signed certificate",
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
      ),
      retryable: false,
    };
  }

  private async readText(
    body: Readable,
    info: HttpResponseInfo,
    method: HttpMethod,
    limit = this.maxResponseBytes,
  ): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        const buffer = chunk as Buffer;
        size += buffer.length;
        if (size > limit) {
          body.destroy();
          throw new ForgeError(
            `${method} ${this.displayPath(info.url)}: the reply is larger than ${Math.round(limit / 1024 / 1024)} MB; stopped reading`,
          );
        }
        chunks.push(buffer);
      }
    } catch (error) {
      if (error instanceof ForgeError) throw error;
      const code = errorCode(error) ?? 'UNKNOWN';
      if (code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR') {
        throw new TimeoutError(method, this.displayPath(info.url), this.timeoutMs);
      }
      throw new NetworkError(method, this.displayPath(info.url), code, 'the reply was cut off');
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

export { HttpError };
