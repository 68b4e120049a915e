import assert from 'node:assert/strict';
import http from 'node:http';
import { type FakeForge, startFakeForge } from '../../server';
import { enormousJsonArray, templateToRegExp } from '../../server/faults';
import { forbidUnhandledRejections, inject, resetForge } from './harness';

/*
 * The fake forge's fault mode itself: rules match by method, path template or RegExp and a predicate, on both
 * APIs; `times` spends them; every request they hit stays in the request log with the fault's name; and each
 * fault does to the wire what it says (checked with a raw HTTP client, not ours).
 */

interface RawReply {
  status: number | undefined;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** How the exchange ended when it did not end cleanly. */
  error: string | undefined;
}

/** One request with node:http, keeping whatever arrived; gives up after `abortAfterMs`. */
function raw(
  forge: FakeForge,
  path: string,
  options: { method?: string; headers?: http.OutgoingHttpHeaders; abortAfterMs?: number } = {},
): Promise<RawReply> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let reply: RawReply = { status: undefined, headers: {}, body: Buffer.alloc(0), error: undefined };
    const done = (error?: string): void => {
      clearTimeout(timer);
      resolve({ ...reply, body: Buffer.concat(chunks), error: reply.error ?? error });
    };
    const request = http.request(
      `${forge.url}${path}`,
      { method: options.method ?? 'GET', headers: { connection: 'close', ...options.headers } },
      (response) => {
        reply = { ...reply, status: response.statusCode, headers: response.headers };
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done());
        response.on('error', (error) => done(error.message));
        response.on('aborted', () => done('aborted'));
      },
    );
    const timer = setTimeout(() => {
      reply.error = 'gave up';
      request.destroy();
      done('gave up');
    }, options.abortAfterMs ?? 2_000);
    request.on('error', (error) => done(error.message));
    request.end();
  });
}

describe('reliability: the fake forge fault mode', function () {
  this.timeout(10_000);
  let forge: FakeForge;
  let auth: http.OutgoingHttpHeaders;

  forbidUnhandledRejections();

  before(async () => {
    forge = await startFakeForge();
    auth = { 'private-token': forge.userToken };
  });

  after(async () => {
    await forge.close();
  });

  afterEach(() => resetForge(forge));

  it('turns a template into a one-segment-per-parameter pattern', () => {
    const regex = templateToRegExp('/projects/:id/jobs/:job_id/retry');
    assert.ok(regex.test('/projects/acme%2Fweb/jobs/12/retry'));
    assert.ok(!regex.test('/projects/acme/web/jobs/12/retry'), 'a parameter is one segment');
    assert.ok(templateToRegExp('/projects/*').test('/projects/1/jobs/2'));
  });

  it('hits only the method and route it names, `times` times, and the log says which fault', async () => {
    const handle = inject(forge, {
      method: 'GET',
      path: '/projects/:id',
      times: 1,
      fault: { kind: 'status', status: 503 },
    });
    const other = await raw(forge, '/api/v4/projects/acme%2Fweb', {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
    });
    assert.notEqual(other.status, 503, 'a PUT to the same path is not hit');
    assert.equal((await raw(forge, '/api/v4/projects/acme%2Fweb', { headers: auth })).status, 503);
    assert.equal(handle.hits, 1);
    assert.equal(handle.spent, true);
    assert.equal(forge.faults.active, 0);
    assert.equal((await raw(forge, '/api/v4/projects/acme%2Fweb', { headers: auth })).status, 200);
    assert.deepEqual(
      forge.requests.map((request) => [request.method, request.fault ?? '-', request.status]),
      [
        ['PUT', '-', other.status],
        ['GET', 'status 503', 503],
        ['GET', '-', 200],
      ],
    );
  });

  it('applies to the channel API too, with a RegExp and a condition on the query', async () => {
    inject(forge, {
      path: /^\/api\/z\/1\.0\/filedata$/,
      when: (request) => Number(request.query['start'] ?? 0) >= 100,
      fault: { kind: 'html' },
    });
    const basic = {
      authorization: `Basic ${Buffer.from(`${forge.channel.nickname}:${forge.channel.password}`).toString('base64')}`,
    };
    const id = forge.channel.fixtures.binaryFile.hash;
    const first = await raw(forge, `/api/z/1.0/filedata?file_id=${id}&start=0&length=10`, { headers: basic });
    const later = await raw(forge, `/api/z/1.0/filedata?file_id=${id}&start=100&length=10`, {
      headers: basic,
    });
    assert.match(String(first.headers['content-type']), /json/);
    assert.match(String(later.headers['content-type']), /^text\/html/);
    assert.deepEqual(
      forge.requests.map((request) => request.fault),
      [undefined, 'html'],
    );
  });

  it('is removed by its handle and all at once by clear()', async () => {
    const one = inject(forge, { path: '/version', fault: { kind: 'status', status: 500 } });
    inject(forge, { path: '/user', fault: { kind: 'status', status: 500 } });
    assert.equal(forge.faults.active, 2);
    one.remove();
    assert.equal((await raw(forge, '/api/v4/version', { headers: auth })).status, 200);
    forge.faults.clear();
    assert.equal(forge.faults.active, 0);
    assert.equal((await raw(forge, '/api/v4/user', { headers: auth })).status, 200);
  });

  it('resets before the handler (nothing happens) or after it (the change is made, no answer)', async () => {
    const { fixtures } = forge;
    // A retry runs a new job and marks this one as retried, as real servers do.
    const job = (): string | undefined => {
      const found = forge.state.jobs.get(fixtures.jobs.failed);
      return found?.retried ? 'retried' : found?.status;
    };
    assert.equal(job(), 'failed');
    const path = `/api/v4/projects/${fixtures.projects.web}/jobs/${fixtures.jobs.failed}/retry`;
    inject(forge, {
      method: 'POST',
      path: '/projects/:id/jobs/:job_id/retry',
      times: 1,
      fault: { kind: 'reset-before' },
    });
    const before = await raw(forge, path, { method: 'POST', headers: auth });
    assert.equal(before.status, undefined);
    assert.ok(before.error);
    assert.equal(job(), 'failed', 'reset-before: the server did nothing');

    inject(forge, {
      method: 'POST',
      path: '/projects/:id/jobs/:job_id/retry',
      times: 1,
      fault: { kind: 'reset-after' },
    });
    const after = await raw(forge, path, { method: 'POST', headers: auth });
    assert.equal(after.status, undefined);
    assert.ok(after.error);
    assert.equal(job(), 'retried', 'reset-after: the job was retried');
    assert.deepEqual(
      forge.requests.map((request) => [request.fault, request.status]),
      [
        ['reset-before', 0],
        ['reset-after', 0],
      ],
    );
  });

  it('answers 5xx like a proxy (nginx HTML) or like the server (JSON 500)', async () => {
    inject(forge, { path: '/version', times: 1, fault: { kind: 'status', status: 502 } });
    const proxy = await raw(forge, '/api/v4/version', { headers: auth });
    assert.equal(proxy.status, 502);
    assert.match(proxy.body.toString(), /<title>502 Bad Gateway<\/title>/);
    inject(forge, { path: '/version', times: 1, fault: { kind: 'status', status: 500 } });
    const server = await raw(forge, '/api/v4/version', { headers: auth });
    assert.deepEqual(JSON.parse(server.body.toString()), { message: '500 Internal Server Error' });
  });

  it('answers 429 with Retry-After in seconds, as an HTTP date, or without it', async () => {
    const date = new Date(Date.now() + 5_000);
    inject(forge, {
      path: '/version',
      times: 1,
      fault: { kind: 'rate-limited', retryAfter: { seconds: 7 } },
    });
    inject(forge, { path: '/version', times: 1, fault: { kind: 'rate-limited', retryAfter: { date } } });
    inject(forge, { path: '/version', times: 1, fault: { kind: 'rate-limited' } });
    const replies = [];
    for (let index = 0; index < 3; index++)
      replies.push(await raw(forge, '/api/v4/version', { headers: auth }));
    assert.deepEqual(
      replies.map((reply) => [reply.status, reply.headers['retry-after']]),
      [
        [429, '7'],
        [429, date.toUTCString()],
        [429, undefined],
      ],
    );
    assert.match(String(replies[0]?.headers['content-type']), /^text\/plain/);
  });

  it('cuts the body with the full length announced, with the cut length, or with none', async () => {
    const whole = await raw(forge, '/api/v4/projects', { headers: auth });
    const length = whole.body.length;
    assert.ok(length > 100);
    const cut: Record<string, RawReply> = {};
    for (const contentLength of ['full', 'cut', 'none'] as const) {
      inject(forge, { path: '/projects', times: 1, fault: { kind: 'truncated', contentLength } });
      cut[contentLength] = await raw(forge, '/api/v4/projects', { headers: auth });
    }
    const half = Math.floor(length / 2);
    assert.equal(cut['full']?.headers['content-length'], String(length));
    assert.equal(cut['full']?.body.length, half);
    assert.ok(cut['full']?.error, 'the connection drops before the announced length');
    assert.equal(cut['cut']?.headers['content-length'], String(half));
    assert.equal(cut['cut']?.error, undefined);
    assert.equal(cut['none']?.headers['content-length'], undefined);
    assert.equal(cut['none']?.headers['transfer-encoding'], 'chunked');
    assert.equal(cut['none']?.error, undefined);
    for (const reply of Object.values(cut)) {
      assert.equal(reply.body.toString(), whole.body.subarray(0, half).toString(), 'a valid start');
      assert.throws(() => JSON.parse(reply.body.toString()) as unknown, SyntaxError);
    }
  });

  it('sends invalid JSON and a sign-in page as 200, optionally echoing the credentials', async () => {
    inject(forge, { path: '/user', times: 1, fault: { kind: 'invalid-json', echoCredentials: true } });
    inject(forge, { path: '/user', times: 1, fault: { kind: 'html' } });
    const invalid = await raw(forge, '/api/v4/user', { headers: auth });
    const page = await raw(forge, '/api/v4/user', { headers: auth });
    assert.equal(invalid.status, 200);
    assert.match(String(invalid.headers['content-type']), /^application\/json/);
    assert.ok(invalid.body.toString().startsWith('[{"id": 1'));
    assert.ok(
      invalid.body.toString().includes(forge.userToken),
      'echoes the token, as a hostile server might',
    );
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body.toString(), /<title>Sign in/);
  });

  it('sends headers and then a body that never ends, stalled or trickling', async () => {
    inject(forge, { path: '/projects', times: 1, fault: { kind: 'never-ending' } });
    const stalled = await raw(forge, '/api/v4/projects', { headers: auth, abortAfterMs: 200 });
    assert.equal(stalled.status, 200);
    assert.equal(stalled.body.toString(), '[');
    assert.equal(stalled.error, 'gave up');
    inject(forge, {
      path: '/projects',
      times: 1,
      fault: { kind: 'never-ending', trickle: { bytes: 1, everyMs: 20 } },
    });
    const trickling = await raw(forge, '/api/v4/projects', { headers: auth, abortAfterMs: 300 });
    assert.equal(trickling.error, 'gave up');
    assert.ok(trickling.body.length > 3, `trickled ${trickling.body.length} bytes`);
  });

  it('generates an exact, valid JSON array of the size asked for', async () => {
    const { stream, length } = enormousJsonArray(300_000);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString();
    assert.equal(text.length, length);
    assert.ok(Math.abs(length - 300_000) < 1_100);
    assert.ok((JSON.parse(text) as unknown[]).length > 250);
  });

  it('streams a 200 MB body without holding it in memory', async function () {
    this.timeout(15_000);
    inject(forge, { path: '/projects', times: 1, fault: { kind: 'enormous', declareLength: true } });
    const start = process.memoryUsage().rss;
    let peak = start;
    const received = await new Promise<number>((resolve, reject) => {
      http
        .get(`${forge.url}/api/v4/projects`, { headers: auth }, (response) => {
          let bytes = 0;
          let sampled = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (bytes - sampled > 8 * 1024 * 1024) {
              sampled = bytes;
              peak = Math.max(peak, process.memoryUsage().rss);
            }
          });
          response.on('end', () => {
            assert.equal(Number(response.headers['content-length']), bytes);
            resolve(bytes);
          });
          response.on('error', reject);
        })
        .on('error', reject);
    });
    assert.ok(received > 200 * 1024 * 1024 - 2_000, `received ${received}`);
    const grownMb = (peak - start) / 1024 / 1024;
    assert.ok(grownMb < 64, `memory grew by ${grownMb.toFixed(1)} MB while streaming 200 MB`);
  });

  it('adds latency to one route only', async () => {
    inject(forge, { path: '/version', times: 1, fault: { kind: 'latency', ms: 150 } });
    const started = Date.now();
    await raw(forge, '/api/v4/version', { headers: auth });
    assert.ok(Date.now() - started >= 145, `the slowed route took ${Date.now() - started} ms`);
    await raw(forge, '/api/v4/user', { headers: auth });
    assert.deepEqual(
      forge.requests.map((request) => [request.path, request.fault]),
      [
        ['/api/v4/version', 'latency 150 ms'],
        ['/api/v4/user', undefined],
      ],
    );
  });

  it('redirects to another origin', async () => {
    inject(forge, {
      path: '/version',
      times: 1,
      fault: { kind: 'redirect', location: 'http://127.0.0.1:9/x' },
    });
    const reply = await raw(forge, '/api/v4/version', { headers: auth });
    assert.equal(reply.status, 302);
    assert.equal(reply.headers.location, 'http://127.0.0.1:9/x');
  });
});
