import type { Readable } from 'node:stream';
import { type Dispatcher, type ResponseData, loadUndici } from './undici';
import {
  CancelledError,
  ForgeError,
  HttpError,
  NetworkError,
  RedirectError,
  httpErrorFor,
  readServerMessage,
  type ServerMessage,
} from './errors';
import { pathForDisplay, redact } from './redact';
import { linkedAbort } from './linkedAbort';
import { trimEndOf } from '../../text/linearText';

import { classifyFailure } from './failureKinds';
import { readBody } from './bodyReader';
import { credentialHeaders, secretsOf } from './credentialHeaders';
import {
  MAX_REDIRECTS,
  appendQuery,
  headerValue,
  parseRetryAfter,
  REDIRECT_STATUSES,
  RETRYABLE_STATUSES,
  defaultSleep,
  requestBody,
  hasDotSegment,
  parseJsonBody,
} from './requestRules';
import {
  type BodyOptions,
  DEFAULT_MAX_JSON_BYTES,
  DEFAULT_MAX_LIST_PAGES,
  DEFAULT_RETRY_POLICY,
  type HttpClientOptions,
  type HttpResponseInfo,
  type JsonResponse,
  type ReceivedJson,
  type BytesResponse,
  type Query,
  type RequestOptions,
  type RetryPolicy,
  type StreamResponse,
  type TextResponse,
} from './transportTypes';
import * as l10n from '@vscode/l10n';

export * from './transportTypes';
export { appendQuery, headerValue, parseRetryAfter } from './requestRules';

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
  private closing: Promise<void> | undefined;
  private readonly ownsDispatcher: boolean;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly maxResponseBytes: number;
  private readonly maxJsonBytes: number;
  /** Every listing over this transport stops with `RunawayListError` after this many pages. */
  readonly maxListPages: number;

  constructor(private readonly options: HttpClientOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new ForgeError(
        l10n.t('The server address must start with http:// or https:// (got {0})', base.protocol),
      );
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
        l10n.t(
          'Refused to send a request for {0}: a name in it is "." or "..", which would address a different endpoint',
          redact(path, this.secrets()),
        ),
      );
    }
    const url = /^https?:\/\//i.test(path) ? new URL(path) : new URL(path.replace(/^\/+/, ''), this.apiRoot);
    appendQuery(url, query);
    return url;
  }

  displayPath(url: URL): string {
    return redact(pathForDisplay(url, this.apiRoot), this.secrets());
  }

  /** Closes the connections this transport opened; closing again does nothing. */
  close(): Promise<void> {
    if (!this.ownsDispatcher || !this.dispatcher) return Promise.resolve();
    this.closing ??= this.dispatcher.close();
    return this.closing;
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
    return (await this.receiveJson(options)).decode();
  }

  /**
   * `requestJson` in two steps: the reply once its body is in, and `decode()` to parse it. A caller
   * with more requests to make (the pages of a list) sends the next one between the two.
   */
  async receiveJson(options: RequestOptions): Promise<ReceivedJson> {
    const { bytes, offset: _offset, ...info } = await this.fetchBuffered(options, this.maxJsonBytes, 'JSON');
    const path = (): string => this.displayPath(info.url);
    return { ...info, decode: () => ({ ...info, data: parseJsonBody(options.method, path, info, bytes) }) };
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
        const { bytes, offset } = await readBody(
          body,
          info,
          {
            method: options.method,
            limit,
            kind,
            signal: options.signal,
            timedOut,
            timeoutMs,
            attempts: budget.attempt + 1,
            ...bodyOptions,
          },
          () => this.displayPath(info.url),
        );
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
    return secretsOf(this.options.credentials);
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

  /**
   * One request over the wire, under its own timer (and the caller's signal, see linkedAbort):
   * the response, or the failure classified.
   */
  private async dispatch(
    url: URL,
    options: RequestOptions,
    attempts: number,
  ): Promise<
    | { response: ResponseData; release: () => void; timedOut: () => boolean; timeoutMs: number }
    | { failure: { error: Error; retryable: boolean } }
  > {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
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
    try {
      const response = await (
        await this.ensureDispatcher()
      ).request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: options.method,
        headers: this.headersFor(url, options),
        body: requestBody(options),
        signal: request.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      return { response, release, timedOut: () => timerFired, timeoutMs };
    } catch (error) {
      release();
      const path = this.displayPath(url);
      return {
        failure: classifyFailure(error, options, path, timerFired, timeoutMs, attempts, this.secrets()),
      };
    }
  }

  /**
   * A redirect: the URL to follow for a read within the limit; otherwise an error. A write is never
   * followed (its body and credentials would go to wherever the server says) and never read as a
   * success; a read that redirects past the limit is an error, not an empty reply.
   */
  private async redirect(
    response: ResponseData,
    url: URL,
    method: RequestOptions['method'],
    redirects: number,
    release: () => void,
  ): Promise<URL> {
    const idempotent = method === 'GET' || method === 'HEAD';
    const location = headerValue(response.headers, 'location');
    release();
    await response.body.dump().catch(() => undefined);
    // Credentials go only to the configured origin; headersFor checks the new URL.
    if (idempotent && location && redirects < MAX_REDIRECTS) return new URL(location, url);
    throw this.failed(
      new RedirectError(
        method,
        this.displayPath(url),
        response.statusCode,
        idempotent ? (redirects >= MAX_REDIRECTS ? 'too-many' : 'no-location') : 'write',
        redact(location ?? '', this.secrets()),
      ),
      url,
    );
  }

  /** An error reply: the delay before trying a read again, or the error (the server's message in it). */
  private async errorReply(
    response: ResponseData,
    url: URL,
    options: RequestOptions,
    sent: { attempt: number; release: () => void; timedOut: () => boolean; timeoutMs: number },
  ): Promise<number> {
    const { method } = options;
    const { statusCode: status, headers } = response;
    const text = await readBody(
      response.body,
      { status, headers, url, notModified: false },
      {
        method,
        limit: 64 * 1024,
        kind: 'error',
        signal: options.signal,
        timedOut: sent.timedOut,
        timeoutMs: sent.timeoutMs,
        attempts: sent.attempt + 1,
      },
      () => this.displayPath(url),
    )
      .then(({ bytes }) => bytes.toString('utf8'))
      .catch(() => '')
      .finally(() => sent.release());
    const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'));
    const error = httpErrorFor(
      method,
      this.displayPath(url),
      status,
      this.redactedMessage(text, status),
      retryAfterMs !== undefined ? Math.ceil(retryAfterMs / 1000) : undefined,
      sent.attempt + 1,
    );
    const idempotent = method === 'GET' || method === 'HEAD';
    if (idempotent && RETRYABLE_STATUSES.has(status) && sent.attempt < this.retry.maxRetries) {
      const delay = retryAfterMs ?? this.backoff(sent.attempt + 1);
      if (delay <= this.retry.maxRetryAfterMs) return delay;
    }
    throw this.failed(error, url);
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
      const sent = await this.dispatch(url, options, attempt + 1);
      if ('failure' in sent) {
        const { failure } = sent;
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
      const { response, release, timedOut, timeoutMs } = sent;
      const { statusCode: status, headers } = response;
      this.log(`${method} ${this.displayPath(url)} → ${status} (${Date.now() - started} ms)`);
      if (REDIRECT_STATUSES.has(status)) {
        url = await this.redirect(response, url, method, redirects, release);
        redirects++;
        continue;
      }
      if (status >= 400) {
        const delay = await this.errorReply(response, url, options, {
          attempt,
          release,
          timedOut,
          timeoutMs,
        });
        attempt++;
        this.log(`${method} ${this.displayPath(url)} ${status}; retry ${attempt} in ${delay} ms`);
        await this.sleepOrCancel(delay, options, url);
        continue;
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
      return { info, body: response.body, timedOut, timeoutMs };
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
    if (url.origin === this.apiRoot.origin)
      Object.assign(headers, credentialHeaders(this.options.credentials, this.options.sudo));
    return headers;
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
}

export { HttpError };
