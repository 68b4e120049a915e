import assert from 'node:assert/strict';
import type { ChannelClient } from '../../../src/api/channel';
import type { HostingClient } from '../../../src/api/hosting';
import {
  CancelledError,
  type Credentials,
  NetworkError,
  RateLimitedError,
  ServerError,
  TimeoutError,
} from '../../../src/api/http';
import { type FakeForge, type Fault, startFakeForge } from '../../server';
import { describeFault } from '../../server/faults';
import {
  Clients,
  LogSink,
  failureOf,
  forbidUnhandledRejections,
  inject,
  resetForge,
  timed,
  warmUp,
  cleanUp,
} from './harness';

/*
 * Reads (GET) recover through the retry rules: 429/502/503/504 and broken connections are retried with
 * back-off (Retry-After honoured up to 60 s), a 500 and a timeout are not, and when the budget (3 retries)
 * is spent the error says so. Both APIs, through their real clients, against the fake forge with faults.
 */

const WEB = 'acme/web';
const WEB_PATH = '/api/v4/projects/acme%2Fweb';

interface Recoverable {
  fault: Fault;
  /** What the client reports once the budget is spent. */
  gaveUp: abstract new (...args: never[]) => Error;
  message: RegExp;
}

const RECOVERABLE: Recoverable[] = [
  { fault: { kind: 'reset-before' }, gaveUp: NetworkError, message: /connection was reset/ },
  { fault: { kind: 'reset-after' }, gaveUp: NetworkError, message: /connection was reset/ },
  {
    fault: { kind: 'status', status: 502 },
    gaveUp: ServerError,
    message: /502 Bad Gateway \(an HTML error page\)/,
  },
  {
    fault: { kind: 'status', status: 503 },
    gaveUp: ServerError,
    message: /503 Service Temporarily Unavailable/,
  },
  { fault: { kind: 'status', status: 504 }, gaveUp: ServerError, message: /504 Gateway Time-out/ },
  { fault: { kind: 'rate-limited' }, gaveUp: RateLimitedError, message: /429: Retry later/ },
  { fault: { kind: 'rate-limited', retryAfter: { seconds: 0 } }, gaveUp: RateLimitedError, message: /429/ },
  {
    fault: { kind: 'truncated', contentLength: 'full' },
    gaveUp: NetworkError,
    message: /connection broke while the reply was being read .*cut off after \d+ bytes/,
  },
];

describe('reliability: reads recover through the retry rules', function () {
  this.timeout(10_000);
  let forge: FakeForge;
  let clients: Clients;
  let alice: HostingClient;
  let channel: ChannelClient;
  let credentials: Credentials;
  const sink = new LogSink();

  forbidUnhandledRejections();

  before(async () => {
    forge = await startFakeForge();
    await warmUp(forge);
    clients = new Clients(() => forge, sink);
    credentials = { kind: 'private-token', token: forge.userToken };
    alice = clients.hosting(credentials);
    channel = clients.channel();
  });

  after(async () => {
    await cleanUp(
      () => clients?.closeAll(),
      () => forge?.close(),
    );
  });

  afterEach(() => {
    resetForge(forge);
    sink.clear();
  });

  for (const { fault, gaveUp, message } of RECOVERABLE) {
    describe(describeFault(fault), () => {
      it('a project read succeeds after two faulty answers', async () => {
        inject(forge, { method: 'GET', path: '/projects/:id', times: 2, fault });
        const project = await alice.getProject(WEB);
        assert.equal(project.path_with_namespace, WEB);
        assert.deepEqual(
          forge.requests.map((request) => [request.path, request.fault !== undefined]),
          [
            [WEB_PATH, true],
            [WEB_PATH, true],
            [WEB_PATH, false],
          ],
        );
        assert.equal(sink.retries(), 2);
      });

      it('a channel read succeeds after two faulty answers', async () => {
        inject(forge, { path: '/albums', times: 2, fault });
        const albums = await channel.listAlbums();
        assert.ok(albums.length > 0);
        assert.equal(forge.requests.length, 3);
        assert.equal(sink.retries(), 2);
      });

      it('gives up after one attempt and three retries with an error that says so', async () => {
        inject(forge, { method: 'GET', path: '/projects/:id', fault });
        const error = await failureOf(alice.getProject(WEB));
        assert.ok(error instanceof gaveUp, `${error.name}: ${error.message}`);
        assert.match(error.message, message);
        assert.match(error.message, /^GET \/projects\/acme%2Fweb\b/);
        assert.match(error.message, /\(tried 4 times\)$/);
        assert.equal(forge.requests.length, 4);
      });
    });
  }

  it('does not retry a 500 (the server failed, a repeat would too)', async () => {
    inject(forge, { path: '/projects/:id', fault: { kind: 'status', status: 500 } });
    const error = await failureOf(alice.getProject(WEB));
    assert.ok(error instanceof ServerError);
    assert.equal(error.message, 'GET /projects/acme%2Fweb failed with 500: 500 Internal Server Error');
    assert.equal(forge.requests.length, 1);
  });

  it('reads every page of a list when one page fails once on the way', async () => {
    const expected = (await alice.listJobs(WEB).toArray({ perPage: 3 })).map((job) => job.id);
    assert.ok(expected.length > 6, 'needs at least three pages');
    forge.clearRequests();
    inject(forge, {
      path: '/projects/:id/jobs',
      when: (request) => request.query['page'] === '2',
      times: 1,
      fault: { kind: 'truncated', contentLength: 'full' },
    });
    inject(forge, {
      path: '/projects/:id/jobs',
      when: (request) => request.query['page'] === '3',
      times: 1,
      fault: { kind: 'status', status: 503 },
    });
    const jobs = await alice.listJobs(WEB).toArray({ perPage: 3 });
    assert.deepEqual(
      jobs.map((job) => job.id),
      expected,
    );
    assert.equal(forge.requests.filter((request) => request.fault).length, 2);
  });

  it('reads a job trace (text) again when its body was cut off', async () => {
    const whole = await alice.getTrace(WEB, forge.fixtures.jobs.failed);
    inject(forge, {
      path: '/projects/:id/jobs/:job_id/trace',
      times: 1,
      fault: { kind: 'truncated', contentLength: 'full' },
    });
    const again = await alice.getTrace(WEB, forge.fixtures.jobs.failed);
    assert.deepEqual(again, whole);
  });

  describe('latency', () => {
    it('a slow answer within the timeout is simply waited for', async () => {
      inject(forge, { path: '/projects/:id', fault: { kind: 'latency', ms: 150 } });
      const { ms } = await timed(() => alice.getProject(WEB));
      assert.ok(ms >= 140, `took ${ms} ms`);
    });

    it('an answer slower than the timeout is a TimeoutError, not retried', async () => {
      const impatient = clients.hosting(credentials, { timeoutMs: 200 });
      inject(forge, { path: '/projects/:id', fault: { kind: 'latency', ms: 5_000 } });
      const { ms, result } = await timed(() => failureOf(impatient.getProject(WEB)));
      assert.ok(result instanceof TimeoutError, String(result));
      // Long before the answer would have come: room for a busy machine.
      assert.ok(ms < 3_000, `gave up after ${ms} ms`);
      assert.equal(forge.requests.length, 1);
    });
  });

  describe('429 and Retry-After', () => {
    let sleeps: number[];
    let recorded: HostingClient;

    beforeEach(() => {
      sleeps = [];
      recorded = clients.hosting(credentials, {
        sleep: (ms) => {
          sleeps.push(ms);
          return Promise.resolve();
        },
      });
    });

    it('waits the seconds Retry-After gives', async () => {
      inject(forge, {
        path: '/projects/:id',
        times: 1,
        fault: { kind: 'rate-limited', retryAfter: { seconds: 2 } },
      });
      await recorded.getProject(WEB);
      assert.deepEqual(sleeps, [2_000]);
    });

    it('waits until the HTTP date Retry-After gives', async () => {
      const date = new Date(Date.now() + 3_000);
      inject(forge, {
        path: '/projects/:id',
        times: 1,
        fault: { kind: 'rate-limited', retryAfter: { date } },
      });
      await recorded.getProject(WEB);
      assert.equal(sleeps.length, 1);
      // HTTP dates have whole seconds.
      assert.ok((sleeps[0] ?? 0) > 1_000 && (sleeps[0] ?? 0) <= 3_000, `slept ${sleeps[0]} ms`);
    });

    it('backs off with jitter when there is no Retry-After', async () => {
      inject(forge, { path: '/projects/:id', times: 3, fault: { kind: 'rate-limited' } });
      await recorded.getProject(WEB);
      assert.equal(sleeps.length, 3);
      assert.ok(
        sleeps.every((ms) => ms > 0 && ms <= 4),
        `sleeps ${sleeps.join(', ')}`,
      );
    });

    it('does not wait for a Retry-After beyond 60 s (seconds or date) and says when to try', async () => {
      inject(forge, {
        path: '/projects/:id',
        times: 1,
        fault: { kind: 'rate-limited', retryAfter: { seconds: 3_600 } },
      });
      const inSeconds = await failureOf(recorded.getProject(WEB));
      inject(forge, {
        path: '/projects/:id',
        times: 1,
        fault: { kind: 'rate-limited', retryAfter: { date: new Date(Date.now() + 2 * 3_600_000) } },
      });
      const asDate = await failureOf(recorded.getProject(WEB));
      for (const error of [inSeconds, asDate]) {
        assert.ok(error instanceof RateLimitedError);
        assert.ok((error.retryAfterSeconds ?? 0) >= 3_599, String(error.retryAfterSeconds));
      }
      assert.deepEqual(sleeps, []);
      assert.equal(forge.requests.length, 2);
    });

    it('honours Retry-After on the real clock', async () => {
      const real = clients.hosting(credentials);
      inject(forge, {
        path: '/projects/:id',
        times: 1,
        fault: { kind: 'rate-limited', retryAfter: { seconds: 1 } },
      });
      const { ms } = await timed(() => real.getProject(WEB));
      assert.ok(ms >= 950, `retried after ${ms} ms`);
    });

    it('never retries a write on 429, even with a short Retry-After', async () => {
      inject(forge, {
        method: 'POST',
        path: '/projects/:id/star',
        fault: { kind: 'rate-limited', retryAfter: { seconds: 1 } },
      });
      const error = await failureOf(recorded.starProject(WEB));
      assert.ok(error instanceof RateLimitedError);
      assert.deepEqual(sleeps, []);
      assert.equal(forge.requests.length, 1);
    });

    it('is cancelled while waiting out a Retry-After', async () => {
      const real = clients.hosting(credentials);
      inject(forge, { path: '/projects/:id', fault: { kind: 'rate-limited', retryAfter: { seconds: 30 } } });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const { ms, result } = await timed(() =>
        failureOf(real.getProject(WEB, { signal: controller.signal })),
      );
      assert.ok(result instanceof CancelledError, String(result));
      // Long before the 30 s the server asked for: room for a busy machine.
      assert.ok(ms < 10_000, `cancelled after ${ms} ms`);
      assert.equal(forge.requests.length, 1);
    });
  });
});
