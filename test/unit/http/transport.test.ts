import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import {
  CancelledError,
  HttpTransport,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UncertainWriteError,
  UnauthorizedError,
  parseRetryAfter,
} from '../../../src/api/http';
import { type ScriptedServer, sendJson, startScriptedServer } from '../../support/scriptedServer';

const TOKEN = 'glpat-secret-token-1234567890';

describe('HttpTransport', () => {
  let server: ScriptedServer;
  let other: ScriptedServer;
  let transport: HttpTransport;
  let sleeps: number[];
  const logLines: string[] = [];

  beforeEach(async () => {
    server = await startScriptedServer();
    other = await startScriptedServer();
    sleeps = [];
    logLines.length = 0;
    transport = new HttpTransport({
      baseUrl: server.url,
      apiPrefix: '/api/v4',
      credentials: { kind: 'private-token', token: TOKEN },
      timeoutMs: 2_000,
      log: (line) => logLines.push(line),
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
  });

  afterEach(async () => {
    await transport.close();
    await server.close();
    await other.close();
  });

  it('sends the token in PRIVATE-TOKEN to the configured server and reuses the connection', async () => {
    server.handle((_request, response) => sendJson(response, 200, { ok: true }));
    for (let index = 0; index < 6; index++) await transport.requestJson({ method: 'GET', path: '/projects' });
    const reply = await transport.requestJson({ method: 'GET', path: '/projects/1' });
    assert.deepEqual(reply.data, { ok: true });
    assert.equal(server.seen[0]?.headers['private-token'], TOKEN);
    assert.equal(server.seen[0]?.url, '/api/v4/projects');
    const connections = new Set(server.seen.map((request) => request.remotePort));
    assert.ok(connections.size <= 2, `7 requests used ${connections.size} connections`);
  });

  it('closes once: closing again (a client shared by two owners) does nothing and does not throw', async () => {
    server.handle((_request, response) => sendJson(response, 200, { ok: true }));
    await transport.requestJson({ method: 'GET', path: '/projects' });
    await Promise.all([transport.close(), transport.close()]);
    await transport.close();
  });

  it('keeps a sub-path of the server URL and sends OAuth tokens as Bearer', async () => {
    const oauth = new HttpTransport({
      baseUrl: `${server.url}/forge/`,
      apiPrefix: '/api/v4',
      credentials: { kind: 'oauth', token: TOKEN },
    });
    server.handle((_request, response) => sendJson(response, 200, []));
    await oauth.requestJson({
      method: 'GET',
      path: 'todos',
      query: { state: 'pending', 'scope[]': ['a', 'b'] },
    });
    await oauth.close();
    assert.equal(server.seen[0]?.url, '/forge/api/v4/todos?state=pending&scope%5B%5D=a&scope%5B%5D=b');
    assert.equal(server.seen[0]?.headers['authorization'], `Bearer ${TOKEN}`);
    assert.equal(server.seen[0]?.headers['private-token'], undefined);
  });

  it('sends HTTP Basic credentials as RFC 7617 base64, with + / and = kept', async () => {
    server.handle((_request, response) => sendJson(response, 200, {}));
    for (const [username, password, expected] of [
      // The example of RFC 7617, section 2.
      ['Aladdin', 'open sesame', 'QWxhZGRpbjpvcGVuIHNlc2FtZQ=='],
      // Characters base64url would spell - and _ instead.
      ['a', '>>>?', 'YTo+Pj4/'],
    ] as const) {
      const basic = new HttpTransport({
        baseUrl: server.url,
        apiPrefix: '/api/z/1.0',
        credentials: { kind: 'basic', username, password },
      });
      await basic.requestJson({ method: 'GET', path: '/channel/export/basic' });
      await basic.close();
      assert.equal(server.seen.at(-1)?.headers['authorization'], `Basic ${expected}`);
    }
  });

  it('sends SUDO when acting as another user', async () => {
    const sudo = new HttpTransport({
      baseUrl: server.url,
      apiPrefix: '/api/v4',
      credentials: { kind: 'private-token', token: TOKEN },
      sudo: 'alice',
    });
    server.handle((_request, response) => sendJson(response, 200, {}));
    await sudo.requestJson({ method: 'GET', path: '/user' });
    await sudo.close();
    assert.equal(server.seen[0]?.headers['sudo'], 'alice');
  });

  it('reports every request that failed for good, once, with its status and message, redacted', async () => {
    const failures: string[] = [];
    const reporting = new HttpTransport({
      baseUrl: server.url,
      apiPrefix: '/api/v4',
      credentials: { kind: 'private-token', token: TOKEN },
      onFailure: (line) => failures.push(line),
      sleep: () => Promise.resolve(),
    });
    let calls = 0;
    server.handle((request, response) => {
      calls++;
      if (request.url?.includes('/missing'))
        sendJson(response, 404, { message: `404 Project Not Found ${TOKEN}` });
      else if (request.url?.includes('/flaky') && calls < 3) sendJson(response, 503, { message: 'busy' });
      else sendJson(response, 200, {});
    });
    await assert.rejects(reporting.requestJson({ method: 'GET', path: '/projects/missing' }), NotFoundError);
    // Retried and then fine: no failure.
    await reporting.requestJson({ method: 'GET', path: '/projects/flaky' });
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(
      reporting.requestJson({ method: 'GET', path: '/projects/1', signal: aborted.signal }),
      CancelledError,
    );
    await reporting.close();
    assert.deepEqual(failures, [
      `${new URL(server.url).host}: GET /projects/missing failed with 404: 404 Project Not Found «redacted»`,
    ]);
  });

  it('treats 304 as a normal result with no body', async () => {
    server.handle((_request, response) => response.writeHead(304).end());
    const reply = await transport.requestJson({ method: 'POST', path: '/projects/1/star' });
    assert.equal(reply.notModified, true);
    assert.equal(reply.data, undefined);
  });

  it('turns an error status into its class with the server message and no token', async () => {
    server.handle((_request, response) =>
      sendJson(response, 404, { message: `404 Project Not Found ${TOKEN}` }),
    );
    const error = await transport
      .requestJson({ method: 'GET', path: '/projects/9' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof NotFoundError);
    assert.equal(error.path, '/projects/9');
    assert.match(error.serverMessage, /404 Project Not Found/);
    assert.ok(!error.message.includes(TOKEN), 'token must not appear in the error');
    assert.ok(logLines.length > 0 && logLines.every((line) => !line.includes(TOKEN)));
  });

  it('retries a GET on 502, 503, 504 and 429 and then succeeds', async () => {
    const statuses = [502, 503, 504, 429];
    server.handle((_request, response, index) => {
      const status = statuses[index];
      if (status !== undefined) response.writeHead(status).end('try later');
      else sendJson(response, 200, ['done']);
    });
    const permissive = new HttpTransport({
      baseUrl: server.url,
      apiPrefix: '/api/v4',
      credentials: { kind: 'none' },
      retry: { maxRetries: 4 },
      sleep: () => Promise.resolve(),
    });
    const reply = await permissive.requestJson({ method: 'GET', path: '/projects' });
    await permissive.close();
    assert.deepEqual(reply.data, ['done']);
    assert.equal(server.seen.length, 5);
  });

  it('gives up after the retry budget with the last error', async () => {
    server.handle((_request, response) => response.writeHead(503).end('down for maintenance'));
    const error = await transport.requestJson({ method: 'GET', path: '/projects' }).catch((e: unknown) => e);
    assert.ok(error instanceof ServerError);
    assert.equal(error.status, 503);
    assert.equal(error.serverMessage, 'down for maintenance');
    assert.equal(server.seen.length, 4, 'one attempt plus three retries');
    assert.ok(
      sleeps.every((ms) => ms <= 8_000),
      'back-off is capped',
    );
  });

  it('honours Retry-After in seconds', async () => {
    server.handle((_request, response, index) => {
      if (index === 0) response.writeHead(429, { 'retry-after': '2' }).end('slow down');
      else sendJson(response, 200, []);
    });
    await transport.requestJson({ method: 'GET', path: '/projects' });
    assert.deepEqual(sleeps, [2_000]);
  });

  it('does not wait for a Retry-After beyond the cap and reports it', async () => {
    server.handle((_request, response) => response.writeHead(429, { 'retry-after': '3600' }).end('quota'));
    const error = await transport.requestJson({ method: 'GET', path: '/projects' }).catch((e: unknown) => e);
    assert.ok(error instanceof RateLimitedError);
    assert.equal(error.retryAfterSeconds, 3600);
    assert.equal(server.seen.length, 1);
  });

  it('never repeats a POST, PUT or DELETE', async () => {
    server.handle((_request, response) => response.writeHead(503).end('busy'));
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      server.seen.length = 0;
      await assert.rejects(
        transport.requestJson({ method, path: '/projects/1/jobs/2/retry', json: {} }),
        ServerError,
      );
      assert.equal(server.seen.length, 1, `${method} sent once`);
    }
  });

  it('retries a GET whose connection was reset', async () => {
    server.handle((request, response, index) => {
      if (index === 0) response.socket?.destroy();
      else sendJson(response, 200, { method: request.method });
    });
    const reply = await transport.requestJson({ method: 'GET', path: '/projects/1' });
    assert.deepEqual(reply.data, { method: 'GET' });
    assert.equal(server.seen.length, 2);
  });

  it('reports a POST whose connection was reset as uncertain and sends it once', async () => {
    server.handle((_request, response) => response.socket?.destroy());
    const error = await transport
      .requestJson({ method: 'POST', path: '/projects/1/merge_requests/1/notes', json: { body: 'hi' } })
      .catch((e: unknown) => e);
    assert.ok(error instanceof UncertainWriteError, String(error));
    assert.match(error.message, /may have acted/);
    assert.equal(server.seen.length, 1);
  });

  it('reports an unreachable server as a network error', async () => {
    const closedUrl = server.url;
    await server.close();
    const unreachable = new HttpTransport({
      baseUrl: closedUrl,
      apiPrefix: '/api/v4',
      credentials: { kind: 'none' },
      sleep: () => Promise.resolve(),
    });
    await assert.rejects(unreachable.requestJson({ method: 'GET', path: '/projects' }), NetworkError);
    await unreachable.close();
  });

  it('times out a request that does not answer', async () => {
    server.handle(() => undefined);
    const error = await transport
      .requestJson({ method: 'GET', path: '/projects', timeoutMs: 100 })
      .catch((e: unknown) => e);
    assert.ok(error instanceof TimeoutError, String(error));
  });

  it('cancels through an AbortSignal', async () => {
    server.handle(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(
      transport.requestJson({ method: 'GET', path: '/projects', signal: controller.signal }),
      CancelledError,
    );
  });

  it('leaves nothing registered on a long-lived caller signal once requests are over', async () => {
    // A trace follower polls with one signal for hours: every request must let go of it.
    server.handle((_request, response) => sendJson(response, 200, []));
    const controller = new AbortController();
    for (let request = 0; request < 5; request++) {
      await transport.requestJson({ method: 'GET', path: '/projects', signal: controller.signal });
      assert.equal(getEventListeners(controller.signal, 'abort').length, 0, `after request ${request + 1}`);
    }
    server.handle(() => undefined);
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(
      transport.requestJson({ method: 'GET', path: '/projects', signal: controller.signal }),
      CancelledError,
    );
  });

  it('follows a same-origin redirect with credentials', async () => {
    server.handle((request, response) => {
      if (request.url.endsWith('/old')) response.writeHead(302, { location: '/api/v4/new' }).end();
      else sendJson(response, 200, { at: request.url });
    });
    const reply = await transport.requestJson({ method: 'GET', path: '/old' });
    assert.deepEqual(reply.data, { at: '/api/v4/new' });
    assert.equal(server.seen[1]?.headers['private-token'], TOKEN);
  });

  it('follows a redirect to another origin without credentials', async () => {
    server.handle((_request, response) =>
      response.writeHead(302, { location: `${other.url}/storage/a.zip` }).end(),
    );
    other.handle((_request, response) => sendJson(response, 200, { stored: true }));
    const reply = await transport.requestJson({ method: 'GET', path: '/projects/1/jobs/1/artifacts' });
    assert.deepEqual(reply.data, { stored: true });
    assert.equal(other.seen.length, 1);
    assert.equal(other.seen[0]?.headers['private-token'], undefined);
    assert.equal(other.seen[0]?.headers['authorization'], undefined);
  });

  it('reports 401 as UnauthorizedError', async () => {
    server.handle((_request, response) => sendJson(response, 401, { message: '401 Unauthorized' }));
    await assert.rejects(transport.requestJson({ method: 'GET', path: '/user' }), UnauthorizedError);
  });

  it('rejects a server URL that is not http(s)', () => {
    assert.throws(
      () =>
        new HttpTransport({
          baseUrl: 'ftp://example.com',
          apiPrefix: '/api/v4',
          credentials: { kind: 'none' },
        }),
      /must start with http/,
    );
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('5'), 5_000);
    assert.equal(
      parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('Thu, 01 Jan 2026 00:00:00 GMT')),
      10_000,
    );
    assert.equal(parseRetryAfter(undefined), undefined);
    assert.equal(parseRetryAfter('soon'), undefined);
  });
});
