import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { ChannelClient } from '../../../src/api/channel';
import { HostingClient } from '../../../src/api/hosting';
import type { Credentials, HttpClientOptions } from '../../../src/api/http';
import type { FakeForge, FaultHandle, FaultRule } from '../../server';
import { describeFault } from '../../server/faults';

/*
 * Shared by the reliability suites: clients with short timeouts and a fast back-off, a tally of the
 * faults injected and the retries seen (printed with FORGE_RELIABILITY_SUMMARY=1), a guard against
 * unhandled rejections, and a check that no secret appears in an error or a log line.
 */

/** Every fault is bounded in time: no client waits longer than this for an answer. */
export const TEST_TIMEOUT_MS = 1_500;
/** Instant-ish back-off so that a retry budget is spent in milliseconds. */
export const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 4 } as const;

const RETRY_LINE = /; retry \d+ in \d+ ms$/;

interface Ledger {
  /** Rules added, per fault label. */
  cases: Map<string, number>;
  /** Requests a fault hit, per fault label. */
  hits: Map<string, number>;
  retries: number;
  logLines: number;
}

const ledger: Ledger = { cases: new Map(), hits: new Map(), retries: 0, logLines: 0 };

function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/** Adds a fault to the fake forge and counts it for the summary. */
export function inject(forge: FakeForge, rule: FaultRule): FaultHandle {
  bump(ledger.cases, describeFault(rule.fault));
  return forge.faults.add(rule);
}

/** Counts the requests of this test that a fault hit (call before clearing the request log). */
export function countHits(forge: FakeForge): void {
  for (const request of forge.requests) if (request.fault) bump(ledger.hits, request.fault);
}

/** A log sink that also counts the retries the transport reports. */
export class LogSink {
  readonly lines: string[] = [];
  readonly log = (line: string): void => {
    this.lines.push(line);
    ledger.logLines++;
    if (RETRY_LINE.test(line)) ledger.retries++;
  };

  retries(): number {
    return this.lines.filter((line) => RETRY_LINE.test(line)).length;
  }

  clear(): void {
    this.lines.length = 0;
  }
}

type ClientOptions = Partial<Omit<HttpClientOptions, 'baseUrl' | 'apiPrefix' | 'credentials'>>;

/** The clients one suite made, closed together. */
export class Clients {
  private readonly open: { close(): Promise<void> }[] = [];

  constructor(
    private readonly forge: () => FakeForge,
    readonly sink: LogSink,
  ) {}

  hosting(credentials: Credentials, options: ClientOptions = {}): HostingClient {
    const client = HostingClient.create({
      baseUrl: this.forge().url,
      credentials,
      timeoutMs: TEST_TIMEOUT_MS,
      retry: FAST_RETRY,
      log: this.sink.log,
      ...options,
    });
    this.open.push(client);
    return client;
  }

  channel(options: ClientOptions = {}): ChannelClient {
    const { channel, url } = this.forge();
    const client = ChannelClient.create({
      baseUrl: url,
      login: channel.nickname,
      password: channel.password,
      timeoutMs: TEST_TIMEOUT_MS,
      retry: FAST_RETRY,
      log: this.sink.log,
      ...options,
    });
    this.open.push(client);
    return client;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.open.splice(0).map((client) => client.close()));
  }
}

/**
 * Fails the suite when a promise rejection went unhandled while it ran (including a little after
 * its last test, so that late ones surface).
 */
export function forbidUnhandledRejections(): { seen: unknown[] } {
  const seen: unknown[] = [];
  const listener = (reason: unknown): void => {
    seen.push(reason);
  };
  before(() => {
    process.on('unhandledRejection', listener);
  });
  after(async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.off('unhandledRejection', listener);
    assert.deepEqual(
      seen.map((reason) => (reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason))),
      [],
      'no promise rejection may go unhandled',
    );
  });
  return { seen };
}

/** Awaits a rejection and returns the error (fails when the promise resolves). */
export async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error, `rejected with a non-Error: ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail, but it succeeded');
}

/** Everything about an error a person or a log could see: message, stack, and the same for its causes. */
export function visibleText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      parts.push(current.message, current.stack ?? '', String(current));
      parts.push(JSON.stringify(Object.entries(current)));
      current = current.cause;
    } else {
      parts.push(typeof current === 'string' ? current : JSON.stringify(current));
      break;
    }
  }
  return parts.join('\n');
}

/** Asserts that none of the secrets occurs in any of the texts. */
export function assertNoSecrets(texts: readonly string[], secrets: readonly string[], where: string): void {
  for (const secret of secrets) {
    assert.ok(secret.length >= 6, 'a secret this short cannot be checked');
    for (const text of texts) {
      assert.ok(!text.includes(secret), `${where}: a secret appeared in: ${text.slice(0, 300)}`);
    }
  }
}

/** The secrets of the fake forge's accounts as they travel: tokens, the password and its Basic header. */
export function forgeSecrets(forge: FakeForge): string[] {
  const { nickname, email, password } = forge.channel;
  return [
    forge.userToken,
    forge.adminToken,
    forge.oauthToken,
    password,
    Buffer.from(`${nickname}:${password}`).toString('base64'),
    Buffer.from(`${email}:${password}`).toString('base64'),
  ];
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds a call took. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

// The figures for docs/security.md: `FORGE_RELIABILITY_SUMMARY=1 npx mocha test/unit/reliability`.
after(() => {
  if (!process.env['FORGE_RELIABILITY_SUMMARY']) return;
  const labels = [...new Set([...ledger.cases.keys(), ...ledger.hits.keys()])].sort();
  console.log('\nreliability summary');
  console.table(
    labels.map((fault) => ({
      fault,
      cases: ledger.cases.get(fault) ?? 0,
      requestsHit: ledger.hits.get(fault) ?? 0,
    })),
  );
  console.log(`retries logged by the transport: ${ledger.retries}; log lines: ${ledger.logLines}`);
});

/** Between tests: count what the faults hit, then remove them and forget the requests. */
export function resetForge(forge: FakeForge): void {
  countHits(forge);
  forge.faults.clear();
  forge.onRequest(undefined);
  forge.linkOrigin = undefined;
  forge.setLatency(0);
  forge.clearRequests();
}

/**
 * Loads the HTTP stack (undici is imported on first use) with a patient client, so that the short
 * timeouts of the cases never include it.
 */
export async function warmUp(forge: FakeForge): Promise<void> {
  const client = HostingClient.create({
    baseUrl: forge.url,
    credentials: { kind: 'private-token', token: forge.userToken },
  });
  try {
    await client.getProject('acme/web');
  } finally {
    await client.close();
    forge.clearRequests();
  }
}

/**
 * Runs every clean-up step, even after one failed or when its object was never made (a `before`
 * that failed half-way), then throws the first failure. A hook that stopped at the first error
 * left servers listening, and mocha waiting for them instead of ending.
 */
export async function cleanUp(...steps: (() => Promise<unknown> | undefined)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}
