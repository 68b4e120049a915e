import assert from 'node:assert/strict';
import type { ChannelClient } from '../../../src/api/channel';
import type { HostingClient } from '../../../src/api/hosting';
import {
  type Credentials,
  DEFAULT_MAX_JSON_BYTES,
  ForgeError,
  MalformedReplyError,
  type MalformedReplyProblem,
  ReplyTooLargeError,
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
 * A success status with a bad body gives a clear error naming the endpoint, never a raw SyntaxError and
 * never an unbounded wait or read: a cut JSON reply, invalid JSON, an HTML page where JSON was asked for, a
 * body that never ends (stalled or trickling: the request timeout covers the whole body, not just gaps),
 * and an enormous body (refused unread when its length is announced, read only up to the limit otherwise).
 */

const WEB = 'acme/web';
const BODY_TIMEOUT_MS = 250;

interface BadBody {
  fault: Fault;
  problem: MalformedReplyProblem;
  message: RegExp;
}

const MALFORMED: BadBody[] = [
  {
    fault: { kind: 'truncated', contentLength: 'cut' },
    problem: 'cut-off',
    message:
      /answered 200 with JSON that stops part-way \(\d+ bytes\): the reply was cut off, perhaps by a proxy$/,
  },
  {
    fault: { kind: 'truncated', contentLength: 'none' },
    problem: 'cut-off',
    message: /answered 200 with JSON that stops part-way/,
  },
  {
    fault: { kind: 'invalid-json' },
    problem: 'not-json',
    message: /answered 200 with a body that is not valid JSON \(application\/json, \d+ bytes\)$/,
  },
  {
    fault: { kind: 'html' },
    problem: 'html',
    message: /answered 200 with an HTML page instead of JSON: a proxy or sign-in page may be in the way/,
  },
];

function assertNoRawSyntaxError(error: Error): void {
  assert.ok(error instanceof ForgeError, `${error.name}: ${error.message}`);
  assert.ok(!(error instanceof SyntaxError));
  assert.ok(!(error.cause instanceof SyntaxError));
  assert.doesNotMatch(error.message, /at position \d|Unexpected (token|end of JSON)|Unterminated string/);
}

describe('reliability: bad bodies give clear, bounded errors', function () {
  this.timeout(15_000);
  let forge: FakeForge;
  let clients: Clients;
  let alice: HostingClient;
  let channel: ChannelClient;
  /** Short timeouts, for the bodies that never end. */
  let impatient: HostingClient;
  let impatientChannel: ChannelClient;
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
    impatient = clients.hosting(credentials, { timeoutMs: BODY_TIMEOUT_MS });
    impatientChannel = clients.channel({ timeoutMs: BODY_TIMEOUT_MS });
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

  for (const { fault, problem, message } of MALFORMED) {
    describe(describeFault(fault), () => {
      it('a v4 read says what was wrong and where, once (not retried)', async () => {
        inject(forge, { path: '/projects/:id', fault });
        const error = await failureOf(alice.getProject(WEB));
        assert.ok(error instanceof MalformedReplyError, `${error.name}: ${error.message}`);
        assert.equal(error.problem, problem);
        assert.equal(error.path, '/projects/acme%2Fweb');
        assert.match(error.message, /^GET \/projects\/acme%2Fweb answered 200 with /);
        assert.match(error.message, message);
        assertNoRawSyntaxError(error);
        assert.equal(forge.requests.length, 1);
      });

      it('a page of a v4 list says the same', async () => {
        inject(forge, { path: '/projects/:id/jobs', fault });
        const error = await failureOf(alice.listJobs(WEB).page());
        assert.ok(error instanceof MalformedReplyError);
        assert.match(error.message, /^GET \/projects\/acme%2Fweb\/jobs answered 200/);
        assertNoRawSyntaxError(error);
      });

      it('a channel read says the same', async () => {
        inject(forge, { path: '/albums', fault });
        const error = await failureOf(channel.listAlbums());
        assert.ok(error instanceof MalformedReplyError, `${error.name}: ${error.message}`);
        assert.equal(error.problem, problem);
        assert.match(error.message, /^GET \/albums answered 200 with /);
        assertNoRawSyntaxError(error);
      });
    });
  }

  describe('a body that never ends', () => {
    const cases: { fault: Fault; what: string }[] = [
      { fault: { kind: 'never-ending' }, what: 'stalls after the headers' },
      {
        fault: { kind: 'never-ending', trickle: { bytes: 1, everyMs: 40 } },
        what: 'trickles a byte every 40 ms (so the idle timeout never fires)',
      },
    ];
    for (const { fault, what } of cases) {
      it(`times out when it ${what}, within the request timeout, once`, async () => {
        inject(forge, { path: '/projects/:id', fault });
        const { ms, result: error } = await timed(() => failureOf(impatient.getProject(WEB)));
        assert.ok(error instanceof TimeoutError, `${error.name}: ${error.message}`);
        assert.equal(error.timeoutMs, BODY_TIMEOUT_MS);
        assert.match(error.message, /^GET \/projects\/acme%2Fweb timed out after/);
        assert.ok(
          ms >= BODY_TIMEOUT_MS - 50 && ms < BODY_TIMEOUT_MS * 4,
          `gave up after ${Math.round(ms)} ms`,
        );
        assert.equal(forge.requests.length, 1, 'a timeout is not retried');
      });

      it(`times out a channel read too when it ${what}`, async () => {
        inject(forge, { path: '/albums', fault });
        const error = await failureOf(impatientChannel.listAlbums());
        assert.ok(error instanceof TimeoutError, `${error.name}: ${error.message}`);
      });
    }

    it('times out a job trace (text) that never ends', async () => {
      inject(forge, {
        path: '/projects/:id/jobs/:job_id/trace',
        fault: { kind: 'never-ending', trickle: { bytes: 10, everyMs: 30 } },
      });
      const error = await failureOf(impatient.getTrace(WEB, forge.fixtures.jobs.running));
      assert.ok(error instanceof TimeoutError, `${error.name}: ${error.message}`);
    });
  });

  describe('an enormous body (200 MB of JSON)', () => {
    it('is refused unread when its length is announced, naming the 50 MB default limit', async () => {
      const roomy = clients.hosting(credentials);
      inject(forge, { path: '/projects', fault: { kind: 'enormous', declareLength: true } });
      const { ms, result: error } = await timed(() => failureOf(roomy.listProjects().page()));
      assert.ok(error instanceof ReplyTooLargeError, `${error.name}: ${error.message}`);
      assert.equal(error.limitBytes, DEFAULT_MAX_JSON_BYTES);
      assert.ok((error.declaredBytes ?? 0) > 200 * 1024 * 1024 - 2_000);
      assert.match(
        error.message,
        /^GET \/projects: the reply is larger than the 50 MB limit for JSON replies \(the server announced 200 MB\); it was not read/,
      );
      assert.ok(ms < 1_000, `took ${Math.round(ms)} ms`);
    });

    it('is read only up to the 50 MB default limit when no length is announced', async () => {
      const roomy = clients.hosting(credentials, { timeoutMs: 10_000 });
      inject(forge, { path: '/projects', fault: { kind: 'enormous' } });
      const before = process.memoryUsage().rss;
      const { ms, result: error } = await timed(() => failureOf(roomy.listProjects().page()));
      const grownMb = (process.memoryUsage().rss - before) / 1024 / 1024;
      assert.ok(error instanceof ReplyTooLargeError, `${error.name}: ${error.message}`);
      assert.equal(error.declaredBytes, undefined);
      assert.match(
        error.message,
        /larger than the 50 MB limit for JSON replies; reading stopped at the limit/,
      );
      assert.ok(grownMb < 150, `memory grew by ${grownMb.toFixed(0)} MB`);
      assert.ok(ms < 8_000, `took ${Math.round(ms)} ms`);
      assert.equal(forge.requests.length, 1);
    });

    it('stops at a smaller limit when the client sets one (maxJsonBytes), on the channel API too', async () => {
      const strict = clients.channel({ maxJsonBytes: 1024 * 1024 });
      inject(forge, { path: '/albums', fault: { kind: 'enormous' } });
      const { ms, result: error } = await timed(() => failureOf(strict.listAlbums()));
      assert.ok(error instanceof ReplyTooLargeError, `${error.name}: ${error.message}`);
      assert.match(error.message, /^GET \/albums: the reply is larger than the 1 MB limit for JSON replies/);
      assert.ok(ms < 1_000, `took ${Math.round(ms)} ms`);
    });
  });
});
