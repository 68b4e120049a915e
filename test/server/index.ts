import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { advancePipelines } from './pipelines';
import { mountChannelApi, type FakeChannel, type MountedChannelApi } from './channel';
import { RequestContext, type Handler } from './context';
import { type ActiveFault, type EncodedResponse, FaultSet, type FaultInjector } from './faults';
import { appendToRecord, errors, HttpError, Params, parseBody, type ApiResponse } from './http';
import type { Router } from './router';
import { buildRouter } from './routes';
import { seedState, type SeededAccount } from './seed';
import { ForgeState, type SeedFixtures, type User } from './state';

/*
 * The fake forge: an in-memory implementation of the project-hosting API v4 (spec/project-hosting-api-v4.md)
 * on a plain node:http server bound to 127.0.0.1. Tests start one per suite with startFakeForge(); the demo
 * runs one with `npm run demo-server`.
 */

export { ForgeState } from './state';
export { hostileCorpus, hostileTrace, seedHostileCorpus } from './hostile';
export type { HostileCase, HostilePlace, SeededHostile } from './hostile';
export type { Fault, FaultHandle, FaultInjector, FaultRule } from './faults';
export type { SeedFixtures, JobStatus, Job, Project, MergeRequest, Todo, User } from './state';

export interface FakeForgeOptions {
  seed?: 'small' | 'large';
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Added to every request. */
  latencyMs?: number;
  /** How running traces grow (default: every 500 ms by 1 to 4 KB). */
  traceGrowth?: { intervalMs: number; bytesPerStep: number };
  /**
   * Simulated runners: on every growth tick, pending jobs (retried, played, seeded) start running with a
   * growing trace. Off by default so that tests see exactly the statuses they set; the demo turns it on.
   */
  simulateRunners?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** Pathname as received, still percent-encoded. */
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, a form as a record, or the raw text; undefined when there was no body. */
  body: unknown;
  /** 0 until the response has been sent. */
  status: number;
  at: number;
  /** The fault injected into this request (`forge.faults`), e.g. `reset-after` or `status 503`. */
  fault?: string;
}

export type RequestHook = (req: http.IncomingMessage, res: http.ServerResponse) => boolean | Promise<boolean>;

export interface FakeForge {
  /** e.g. http://127.0.0.1:41234 (the API is under url + '/api/v4'). */
  url: string;
  /** root's personal access token (PRIVATE-TOKEN). */
  adminToken: string;
  /** alice's personal access token. */
  userToken: string;
  /** alice's OAuth bearer token. */
  oauthToken: string;
  users: { admin: SeededAccount; user: SeededAccount; bob: SeededAccount; carol: SeededAccount };
  /** Personal access tokens by username: root, alice, bob (carol is blocked and has none). */
  tokens: Record<string, string>;
  /** Ids of notable seeded records (see SeedFixtures). */
  fixtures: SeedFixtures;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  clearRequests(): void;
  /**
   * Marks the connections open now; the function returned waits until every connection opened
   * since has closed. A client closed first (its requests done or cancelled) then has nothing left
   * that could still reach the record (a request the client gave up on may arrive after its test).
   */
  connectionsFromNow(): () => Promise<void>;
  /** The in-memory data, for tests to inspect and change (appendTrace, setJobStatus, ...). */
  state: ForgeState;
  setLatency(ms: number): void;
  /** When set, Link headers point at this origin instead of the one the client used. */
  linkOrigin?: string;
  /** Route-level hook for fault injection: called before the handler; returning true means handled. */
  onRequest(hook: RequestHook | undefined): void;
  /** Faults per route and per test, for both APIs (see faults.ts); clear them in afterEach. */
  readonly faults: FaultInjector;
  /** "METHOD /template" of every route served. */
  readonly routes: readonly string[];
  /** The channel API under url + '/api/z/1.0': credentials, notable records and its in-memory state. */
  readonly channel: FakeChannel;
  close(): Promise<void>;
}

const API_PREFIX = '/api/v4/';
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const DEFAULT_GROWTH_INTERVAL_MS = 500;

export async function startFakeForge(options: FakeForgeOptions = {}): Promise<FakeForge> {
  const forge = new FakeForgeServer(options);
  await forge.listen(options.port ?? 0);
  return forge;
}

class FakeForgeServer implements FakeForge {
  url = '';
  readonly adminToken: string;
  readonly userToken: string;
  readonly oauthToken: string;
  readonly users: FakeForge['users'];
  readonly tokens: Record<string, string>;
  readonly fixtures: SeedFixtures;
  readonly requests: RecordedRequest[] = [];
  readonly state: ForgeState;
  readonly channel: FakeChannel;
  readonly faults = new FaultSet();
  linkOrigin?: string;

  private latencyMs: number;
  private hook: RequestHook | undefined;
  private readonly router: Router<Handler>;
  private readonly channelApi: MountedChannelApi;
  private readonly server: http.Server;
  private growthTimer: NodeJS.Timeout | undefined;
  private readonly pendingDelays = new Set<NodeJS.Timeout>();
  private requestCounter = 0;
  private readonly sockets = new Set<Socket>();
  private readonly socketClosed = new Set<() => void>();

  constructor(private readonly options: FakeForgeOptions) {
    const size = options.seed ?? 'small';
    this.state = new ForgeState(`forge-workbench/${size}`);
    const seeded = seedState(this.state, size);
    this.adminToken = seeded.adminToken;
    this.userToken = seeded.userToken;
    this.oauthToken = seeded.oauthToken;
    this.users = seeded.users;
    this.tokens = seeded.tokens;
    this.fixtures = seeded.fixtures;
    this.latencyMs = options.latencyMs ?? 0;
    this.router = buildRouter();
    this.channelApi = mountChannelApi();
    this.channel = this.channelApi.channel;
    this.server = http.createServer((req, res) => {
      void this.handle(req, res);
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => {
        this.sockets.delete(socket);
        for (const listener of [...this.socketClosed]) listener();
      });
    });
  }

  connectionsFromNow(): () => Promise<void> {
    const before = new Set(this.sockets);
    const newer = (): boolean => [...this.sockets].some((socket) => !before.has(socket));
    return () =>
      new Promise<void>((resolve) => {
        if (!newer()) return resolve();
        const listener = (): void => {
          if (newer()) return;
          this.socketClosed.delete(listener);
          resolve();
        };
        this.socketClosed.add(listener);
      });
  }

  get routes(): readonly string[] {
    return this.router.list().map((route) => `${route.method} ${route.template}`);
  }

  async listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${address.port}`;
    this.state.webOrigin = this.url;

    const growth = this.options.traceGrowth;
    const stepChars = (): number => growth?.bytesPerStep ?? this.state.random.int(1024, 4096);
    this.growthTimer = setInterval(() => {
      if (this.options.simulateRunners) {
        advancePipelines(this.state);
        this.state.startPendingJobs();
      }
      this.state.growTraces(stepChars);
    }, growth?.intervalMs ?? DEFAULT_GROWTH_INTERVAL_MS);
    // Never keep a test process alive just for trace growth.
    this.growthTimer.unref();
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  onRequest(hook: RequestHook | undefined): void {
    this.hook = hook;
  }

  async close(): Promise<void> {
    clearInterval(this.growthTimer);
    for (const timer of this.pendingDelays) clearTimeout(timer);
    this.pendingDelays.clear();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  // ---- request handling --------------------------------------------------------------------------

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const queryStart = rawUrl.indexOf('?');
    const rawPath = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
    const queryPairs = [...new URLSearchParams(queryStart === -1 ? '' : rawUrl.slice(queryStart + 1))];
    const query: Record<string, string | string[]> = {};
    for (const [key, value] of queryPairs) appendToRecord(query, key, value);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: rawPath,
      query,
      headers: { ...req.headers },
      body: undefined,
      status: 0,
      at: Date.now(),
    };
    this.requests.push(record);
    res.on('finish', () => {
      record.status = res.statusCode;
    });

    let fault: ActiveFault | undefined;
    try {
      const raw = await readBody(req);
      if (raw === 'too-large') {
        this.send(req, res, { status: 413, json: { message: '413 Request Entity Too Large' } });
        return;
      }
      // Recorded as text first, so that a body that fails to parse is still on the record.
      record.body = raw.length > 0 ? raw.toString('utf8') : undefined;
      const body = parseBody(header(req, 'content-type'), raw);
      record.body = body.recorded;
      if (this.latencyMs > 0) await this.delay(this.latencyMs);
      fault = this.faults.take(record);
      record.fault = fault?.label;
      if (fault && (await fault.before(req, res))) return;
      if (this.hook && (await this.hook(req, res))) return;
      const channel = this.channelApi.handle({
        method: record.method,
        rawPath,
        queryPairs,
        headers: req.headers,
        body: raw,
      });
      if (channel?.recordedBody !== undefined) record.body = channel.recordedBody;
      const response = channel?.response ?? (await this.dispatch(req, rawPath, queryPairs, body));
      this.send(req, res, response, fault);
    } catch (error) {
      if (error instanceof HttpError) {
        this.send(req, res, { status: error.status, json: error.body }, fault);
      } else {
        console.error('fake forge: handler failed', error);
        this.send(req, res, { status: 500, json: { message: '500 Internal Server Error' } }, fault);
      }
    }
  }

  private async dispatch(
    req: http.IncomingMessage,
    rawPath: string,
    queryPairs: [string, string][],
    body: ReturnType<typeof parseBody>,
  ): Promise<ApiResponse> {
    if (!rawPath.startsWith(API_PREFIX)) throw errors.noRoute();
    const segments = rawPath
      .slice(API_PREFIX.length)
      .split('/')
      .filter((segment) => segment.length > 0);
    // HEAD is answered like GET, without the body.
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const match = this.router.match(method, segments);
    if (!match) throw errors.noRoute();

    const params = Params.fromPairs(queryPairs);
    if (body.pairs) params.addPairs(body.pairs);
    if (body.object) params.addObject(body.object);
    const caller = this.authenticate(req, params);
    if (!match.route.options.public && !caller) throw errors.unauthorized();

    const linkOrigin = this.linkOrigin ?? (req.headers.host ? `http://${req.headers.host}` : this.url);
    const ctx = new RequestContext(this.state, params, match.params, caller, req.headers, {
      linkBase: `${linkOrigin}${rawPath}`,
      queryPairs,
    });
    return match.route.handler(ctx);
  }

  /**
   * PRIVATE-TOKEN / private_token (personal access tokens), Authorization: Bearer / access_token (OAuth
   * tokens, and personal access tokens as real servers also accept). A token that is sent but unknown is
   * 401 even on public routes. Then sudo: administrators only.
   */
  private authenticate(req: http.IncomingMessage, params: Params): User | undefined {
    const { state } = this;
    let userId: number | undefined;
    let presented = false;
    const privateToken = header(req, 'private-token') ?? params.string('private_token');
    const bearer =
      /^Bearer\s+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '')?.[1] ?? params.string('access_token');
    if (privateToken !== undefined) {
      presented = true;
      userId = state.personalAccessTokens.get(privateToken);
    } else if (bearer !== undefined) {
      presented = true;
      userId = state.oauthTokens.get(bearer) ?? state.personalAccessTokens.get(bearer);
    }
    if (presented && userId === undefined) throw errors.unauthorized();
    let user = userId === undefined ? undefined : state.users.get(userId);
    if (user?.state === 'blocked') throw errors.forbidden('Your account has been blocked.');

    const sudo = header(req, 'sudo') ?? params.string('sudo');
    if (sudo !== undefined) {
      if (!user) throw errors.unauthorized();
      if (!user.isAdmin) throw errors.forbidden('Must be admin to use sudo');
      user = state.findUser(sudo);
      if (!user) throw new HttpError(404, { message: `404 User with ID or username '${sudo}' Not Found` });
    }
    return user;
  }

  private send(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    response: ApiResponse,
    fault?: ActiveFault,
  ): void {
    if (res.headersSent) {
      res.end();
      return;
    }
    this.requestCounter += 1;
    const headers: Record<string, string | number> = {
      'X-Request-Id': `fake-${this.requestCounter.toString(16).padStart(8, '0')}`,
      ...response.headers,
    };
    let body: Buffer | undefined;
    if (response.status !== 204 && response.status !== 304) {
      if (response.body !== undefined) {
        body =
          typeof response.body === 'string'
            ? Buffer.from(response.body, 'utf8')
            : Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
        headers['Content-Type'] = response.contentType ?? 'application/octet-stream';
      } else if (response.json !== undefined) {
        body = Buffer.from(JSON.stringify(response.json), 'utf8');
        headers['Content-Type'] = 'application/json';
      } else {
        body = Buffer.alloc(0);
      }
      headers['Content-Length'] = body.length;
    }
    if (response.status === 413) headers['Connection'] = 'close';
    const encoded: EncodedResponse = { status: response.status, headers, body };
    if (fault?.respond(req, res, encoded)) return;
    res.writeHead(response.status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pendingDelays.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      this.pendingDelays.add(timer);
    });
  }
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The whole body, or 'too-large' past 10 MB (the rest is drained so the client can read the 413). */
function readBody(req: http.IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
