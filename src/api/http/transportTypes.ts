/** What the transport takes and gives: options, requests, replies. */
import type { Readable } from 'node:stream';
import { type Dispatcher, type FormData } from './undici';
import { type HttpMethod } from './errors';

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

/** A JSON reply whose body is in but not yet parsed. */
export interface ReceivedJson extends HttpResponseInfo {
  /** Parses the body; throws `MalformedReplyError` when it is not JSON. */
  decode(): JsonResponse;
}

export interface StreamResponse extends HttpResponseInfo {
  body: Readable;
  contentLength: number | undefined;
  /** How long the body may go without a byte before the reader gives up. */
  idleTimeoutMs: number;
}

/** How a successful reply's body is read (`requestBytes`). */
export interface BodyOptions {
  /** Bytes before this offset are dropped as they arrive. */
  keepFrom?: number;
  /**
   * Each chunk as it arrives, with where it starts in the body. A read cut off and retried starts
   * again from offset 0. A promise returned pauses the read until it settles (the server is not
   * read meanwhile, so it waits too).
   */
  onChunk?: (chunk: Buffer, offset: number) => void | Promise<void>;
}

export interface BodyRead extends BodyOptions {
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
