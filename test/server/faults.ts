import type http from 'node:http';
import { Readable } from 'node:stream';

/*
 * Fault injection for the fake forge, per route and per test:
 *
 *   const handle = forge.faults.add({ method: 'POST', path: '/projects/:id/jobs/:job_id/retry', times: 1,
 *                                     fault: { kind: 'reset-after' } });
 *   ...
 *   handle.remove();   // or forge.faults.clear() in afterEach
 *
 * A string path is a template: `:name` matches one segment (still percent-encoded, so `acme%2Fweb` is one),
 * `*` matches the rest. Templates starting with `/api/` match the whole path; others match the path under
 * either API (`/api/v4` or `/api/z/1.0`), so `/filedata` and `/projects/:id` both work. The first matching
 * rule that is not spent applies. Every request a fault hits is still recorded in `forge.requests`, with
 * `fault` naming what was done to it.
 *
 * What the server does with each fault:
 * - latency:       waits, then answers normally (the handler runs even when the client gave up meanwhile).
 * - reset-before:  destroys the connection before the handler runs (nothing happened on the server).
 * - reset-after:   runs the handler (its state change happens), then destroys the connection without
 *                  sending a byte of the answer.
 * - status:        answers 500/502/503/504 instead of running the handler (5xx from a proxy: an HTML page
 *                  by default, like nginx; 500 as the JSON real servers send).
 * - rate-limited:  429 with a plain-text body, with `Retry-After` in seconds, as an HTTP date, or without.
 * - truncated:     runs the handler, then sends only the first part of its body. `contentLength`: 'full'
 *                  announces the whole length and then drops the connection; 'cut' announces the length
 *                  of the part sent; 'none' sends no length (chunked) and ends the body cleanly, as a proxy
 *                  that cut it would.
 * - invalid-json:  200 `application/json` whose body starts well and then is not JSON.
 * - html:          200 `text/html`: a sign-in page, as a captive portal or SSO proxy answers.
 * - never-ending:  200 with headers sent and `[`, then `trickle` bytes every so often, or nothing (a stall),
 *                  until the client gives up.
 * - enormous:      200 `application/json`: a JSON array of about `bytes` (default 200 MB), generated as it
 *                  is sent (never held in memory), with or without `Content-Length`.
 * - redirect:      30x to `location` (another origin, for the credential tests).
 *
 * `echoCredentials` (status, rate-limited, invalid-json, html) puts the credentials the request carried into
 * the body, as a hostile server or a debugging proxy might: the client must never repeat them.
 */

export type RetryAfter = { seconds: number } | { date: Date } | { raw: string };

export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'reset-before' }
  | { kind: 'reset-after' }
  | { kind: 'status'; status: 500 | 502 | 503 | 504; body?: string; echoCredentials?: boolean }
  | { kind: 'rate-limited'; retryAfter?: RetryAfter; echoCredentials?: boolean }
  | {
      kind: 'truncated';
      contentLength: 'full' | 'cut' | 'none';
      /** Part of the body sent (default 0.5). */ keep?: number;
    }
  | { kind: 'invalid-json'; echoCredentials?: boolean }
  | { kind: 'html'; echoCredentials?: boolean }
  | { kind: 'never-ending'; trickle?: { bytes: number; everyMs: number } }
  | { kind: 'enormous'; bytes?: number; declareLength?: boolean }
  | {
      kind: 'redirect';
      location: string | ((request: FaultRequest) => string);
      status?: 301 | 302 | 303 | 307 | 308;
    };

export type FaultKind = Fault['kind'];

/** What a rule can look at to decide whether it applies. */
export interface FaultRequest {
  method: string;
  /** Pathname as received, still percent-encoded. */
  path: string;
  query: Record<string, string | string[]>;
  headers: http.IncomingHttpHeaders;
}

export interface FaultRule {
  /** One method or several; any method when left out. HEAD matches GET. */
  method?: string | readonly string[];
  path: RegExp | string;
  /** A further condition, e.g. on a query parameter. */
  when?: (request: FaultRequest) => boolean;
  /** How many requests it hits before it is spent; unlimited when left out. */
  times?: number;
  fault: Fault;
}

export interface FaultHandle {
  /** Requests this rule has hit so far. */
  readonly hits: number;
  /** True once `times` requests were hit. */
  readonly spent: boolean;
  remove(): void;
}

export interface FaultInjector {
  add(rule: FaultRule): FaultHandle;
  /** Removes every rule. */
  clear(): void;
  /** Rules that are neither removed nor spent. */
  readonly active: number;
}

/** A response as the fake forge would send it, before it is written. */
export interface EncodedResponse {
  status: number;
  headers: Record<string, string | number>;
  /** undefined for 204 and 304. */
  body: Buffer | undefined;
}

/** One fault applied to one request, used by the fake forge's request handling. */
export interface ActiveFault {
  /** What the request log records, e.g. `reset-after` or `status 503`. */
  readonly label: string;
  /** Before the handler runs. True when the fault answered or dropped the connection itself. */
  before(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean>;
  /** Instead of writing the handler's answer. True when the fault took over. */
  respond(req: http.IncomingMessage, res: http.ServerResponse, response: EncodedResponse): boolean;
}

const API_PREFIXES = ['/api/v4', '/api/z/1.0'];

export const DEFAULT_ENORMOUS_BYTES = 200 * 1024 * 1024;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `/projects/:id/jobs/*` as a regular expression over one encoded path. */
export function templateToRegExp(template: string): RegExp {
  const source = template
    .split('/')
    .map((segment) => {
      if (segment === '*' || segment.startsWith('*')) return '.+';
      if (segment.startsWith(':')) return '[^/]+';
      return escapeRegExp(segment);
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

function pathMatches(pattern: RegExp | string, path: string): boolean {
  if (pattern instanceof RegExp) return pattern.test(path);
  const regex = templateToRegExp(pattern);
  if (pattern.startsWith('/api/')) return regex.test(path);
  return API_PREFIXES.some(
    (prefix) => path.startsWith(`${prefix}/`) && regex.test(path.slice(prefix.length)),
  );
}

function methodMatches(expected: FaultRule['method'], actual: string): boolean {
  if (expected === undefined) return true;
  const wanted = (typeof expected === 'string' ? [expected] : expected).map((each) => each.toUpperCase());
  return wanted.includes(actual) || (actual === 'HEAD' && wanted.includes('GET'));
}

/** How the request log names a fault, e.g. `status 503` or `truncated (content-length full)`. */
export function describeFault(fault: Fault): string {
  switch (fault.kind) {
    case 'status':
      return `status ${fault.status}`;
    case 'rate-limited': {
      const after = fault.retryAfter;
      if (!after) return 'rate-limited (no Retry-After)';
      if ('seconds' in after) return `rate-limited (Retry-After ${after.seconds} s)`;
      return `rate-limited (Retry-After ${'date' in after ? 'date' : 'raw'})`;
    }
    case 'truncated':
      return `truncated (content-length ${fault.contentLength})`;
    case 'latency':
      return `latency ${fault.ms} ms`;
    case 'never-ending':
      return fault.trickle ? 'never-ending (trickle)' : 'never-ending (stall)';
    case 'enormous':
      return `enormous (${fault.declareLength ? 'with' : 'without'} content-length)`;
    default:
      return fault.kind;
  }
}

function retryAfterValue(after: RetryAfter): string {
  if ('seconds' in after) return String(after.seconds);
  if ('date' in after) return after.date.toUTCString();
  return after.raw;
}

function credentialsOf(req: http.IncomingMessage): string {
  const values = [req.headers['private-token'], req.headers['authorization']].flat();
  return values.filter((value): value is string => typeof value === 'string').join(' ');
}

function writeWhole(
  res: http.ServerResponse,
  status: number,
  contentType: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': bytes.length, ...extra });
  res.end(bytes);
}

const REASONS: Record<number, string> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable',
  504: 'Gateway Time-out',
};

/** nginx's own error page, as a proxy in front of the server sends it. */
export function nginxErrorPage(status: number, extra = ''): string {
  const title = `${status} ${REASONS[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>${extra}\r\n</body>\r\n</html>\r\n`;
}

export const SIGN_IN_PAGE_TITLE = 'Sign in · Corporate SSO';

function signInPage(extra: string): string {
  return `<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${SIGN_IN_PAGE_TITLE}</title></head>\n<body><form method="post" action="/sso/login"><input name="user"><input name="password" type="password"><button>Sign in</button></form>${extra}</body>\n</html>\n`;
}

/** `[{"id":1,"name":"xxxx"},…]` of about `bytes` bytes, made as it is read. Returns the stream and its exact length. */
export function enormousJsonArray(bytes: number): { stream: Readable; length: number } {
  const item = `{"id":1,"name":"${'x'.repeat(1000)}","description":null}`;
  const count = Math.max(1, Math.floor((bytes - 2 + 1) / (item.length + 1)));
  const length = 2 + count * item.length + (count - 1);
  const perBlock = 64;
  const block = Buffer.from(`${item},`.repeat(perBlock), 'utf8');
  function* generate(): Generator<Buffer> {
    yield Buffer.from('[', 'utf8');
    let left = count;
    while (left > perBlock) {
      yield block;
      left -= perBlock;
    }
    yield Buffer.from(`${`${item},`.repeat(left - 1)}${item}]`, 'utf8');
  }
  return { stream: Readable.from(generate(), { objectMode: false }), length };
}

class Rule implements FaultHandle {
  hits = 0;
  removed = false;

  constructor(readonly rule: FaultRule) {
    if (rule.times !== undefined && (!Number.isInteger(rule.times) || rule.times < 1)) {
      throw new RangeError(`times must be a positive integer (got ${rule.times})`);
    }
  }

  get spent(): boolean {
    return this.rule.times !== undefined && this.hits >= this.rule.times;
  }

  get live(): boolean {
    return !this.removed && !this.spent;
  }

  matches(request: FaultRequest): boolean {
    return (
      this.live &&
      methodMatches(this.rule.method, request.method) &&
      pathMatches(this.rule.path, request.path) &&
      (this.rule.when?.(request) ?? true)
    );
  }

  remove(): void {
    this.removed = true;
  }
}

/** The rules of one fake forge. */
export class FaultSet implements FaultInjector {
  private rules: Rule[] = [];

  add(rule: FaultRule): FaultHandle {
    const added = new Rule(rule);
    this.rules.push(added);
    return added;
  }

  clear(): void {
    for (const rule of this.rules) rule.remove();
    this.rules = [];
  }

  get active(): number {
    return this.rules.filter((rule) => rule.live).length;
  }

  /** The fault for this request, if a rule matches; counts the hit. */
  take(request: FaultRequest): ActiveFault | undefined {
    const rule = this.rules.find((each) => each.matches(request));
    if (!rule) return undefined;
    rule.hits++;
    this.rules = this.rules.filter((each) => each.live);
    return activate(rule.rule.fault, request);
  }
}

function activate(fault: Fault, request: FaultRequest): ActiveFault {
  const label = describeFault(fault);
  const passThrough = (): boolean => false;
  switch (fault.kind) {
    case 'latency':
      return {
        label,
        // Like a real server, the handler still runs when the client gave up meanwhile.
        before: () =>
          new Promise<boolean>((resolve) => {
            setTimeout(() => resolve(false), fault.ms).unref();
          }),
        respond: passThrough,
      };
    case 'reset-before':
      return {
        label,
        before: (req) => {
          req.socket.destroy();
          return Promise.resolve(true);
        },
        respond: passThrough,
      };
    case 'reset-after':
      return {
        label,
        before: () => Promise.resolve(false),
        respond: (req) => {
          req.socket.destroy();
          return true;
        },
      };
    case 'truncated':
      return {
        label,
        before: () => Promise.resolve(false),
        respond: (req, res, response) => {
          const body = response.body;
          if (req.method === 'HEAD' || body === undefined || body.length === 0) {
            // Nothing to cut: the connection drops instead.
            req.socket.destroy();
            return true;
          }
          const kept = Math.min(body.length - 1, Math.max(1, Math.floor(body.length * (fault.keep ?? 0.5))));
          const part = body.subarray(0, kept);
          const headers = { ...response.headers };
          delete headers['Content-Length'];
          if (fault.contentLength === 'full') {
            res.writeHead(response.status, { ...headers, 'Content-Length': body.length });
            res.write(part, () => req.socket.destroy());
          } else if (fault.contentLength === 'cut') {
            res.writeHead(response.status, { ...headers, 'Content-Length': part.length });
            res.end(part);
          } else {
            res.writeHead(response.status, headers);
            res.end(part);
          }
          return true;
        },
      };
    case 'status':
    case 'rate-limited':
    case 'invalid-json':
    case 'html':
    case 'redirect':
      return {
        label,
        before: (req, res) => {
          answerWhole(fault, req, res, request);
          return Promise.resolve(true);
        },
        respond: passThrough,
      };
    case 'never-ending':
      return {
        label,
        before: (_req, res) => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.write('[');
          if (fault.trickle) {
            const piece = ' '.repeat(Math.max(1, fault.trickle.bytes));
            const timer = setInterval(() => res.write(piece), fault.trickle.everyMs);
            timer.unref();
            res.once('close', () => clearInterval(timer));
          }
          return Promise.resolve(true);
        },
        respond: passThrough,
      };
    case 'enormous':
      return {
        label,
        before: (_req, res) => {
          const { stream, length } = enormousJsonArray(fault.bytes ?? DEFAULT_ENORMOUS_BYTES);
          res.writeHead(200, {
            'Content-Type': 'application/json',
            ...(fault.declareLength ? { 'Content-Length': length } : {}),
          });
          res.once('close', () => stream.destroy());
          stream.pipe(res);
          return Promise.resolve(true);
        },
        respond: passThrough,
      };
  }
}

function answerWhole(
  fault: Extract<Fault, { kind: 'status' | 'rate-limited' | 'invalid-json' | 'html' | 'redirect' }>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  request: FaultRequest,
): void {
  const echoed = 'echoCredentials' in fault && fault.echoCredentials ? credentialsOf(req) : '';
  switch (fault.kind) {
    case 'status':
      if (fault.body !== undefined) writeWhole(res, fault.status, 'text/plain', fault.body + echoed);
      else if (fault.status === 500)
        writeWhole(
          res,
          500,
          'application/json',
          JSON.stringify({ message: `500 Internal Server Error${echoed ? ` ${echoed}` : ''}` }),
        );
      else writeWhole(res, fault.status, 'text/html', nginxErrorPage(fault.status, echoed));
      return;
    case 'rate-limited':
      writeWhole(
        res,
        429,
        'text/plain',
        `Retry later${echoed ? ` ${echoed}` : ''}\n`,
        fault.retryAfter ? { 'Retry-After': retryAfterValue(fault.retryAfter) } : {},
      );
      return;
    case 'invalid-json':
      writeWhole(
        res,
        200,
        'application/json',
        `[{"id": 1, "name": "fine"}, {"id": 2, name: 'not json' ${JSON.stringify(echoed)}}]`,
      );
      return;
    case 'html':
      writeWhole(res, 200, 'text/html; charset=utf-8', signInPage(echoed));
      return;
    case 'redirect': {
      const location = typeof fault.location === 'function' ? fault.location(request) : fault.location;
      res.writeHead(fault.status ?? 302, { Location: location, 'Content-Length': 0 });
      res.end();
      return;
    }
  }
}
