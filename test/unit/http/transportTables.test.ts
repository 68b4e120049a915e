// What the transport makes of each way a request can fail, as tables: every network error code,
// the redirect limit, Retry-After, refused paths and replies that are not JSON. The connection is a
// scripted dispatcher, so each row is one exact failure.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { HttpTransport, parseRetryAfter, type HttpClientOptions } from '../../../src/api/http/transport';
import {
  CancelledError,
  MalformedReplyError,
  NetworkError,
  RedirectError,
  TimeoutError,
  UncertainWriteError,
} from '../../../src/api/http';

type Step =
  | { error: unknown }
  | {
      status: number;
      headers?: Record<string, string>;
      body?: string;
      /** After the body's text: the body breaks with this error, or (`'hang'`) waits until aborted. */
      then?: Error | 'hang';
    };

/** A body as undici hands it over: the text, then a break or a wait that the request's abort ends. */
function bodyOf(text: string, then: Error | 'hang' | undefined, signal: AbortSignal | undefined): Readable {
  if (then === undefined) return Readable.from([Buffer.from(text)]);
  const body = new Readable({ read: () => undefined });
  body.push(Buffer.from(text));
  if (then === 'hang') {
    signal?.addEventListener('abort', () =>
      body.destroy(Object.assign(new Error('This operation was aborted'), { code: 'UND_ERR_ABORTED' })),
    );
  } else setImmediate(() => body.destroy(then));
  return body;
}

/** A dispatcher that answers each request with the next step (the last one repeats). */
function scripted(steps: readonly Step[]): { dispatcher: Dispatcher; paths: string[] } {
  const paths: string[] = [];
  const dispatcher = {
    async request(options: { path: string; signal?: AbortSignal }) {
      paths.push(options.path);
      // The answer comes on a later turn, as one from the network does.
      await Promise.resolve();
      const step = steps[Math.min(paths.length - 1, steps.length - 1)];
      if (!step) throw new Error('no step');
      if ('error' in step) throw step.error;
      const body = Object.assign(bodyOf(step.body ?? '', step.then, options.signal), {
        dump: () => Promise.resolve(),
      });
      return { statusCode: step.status, headers: step.headers ?? {}, body };
    },
    close: () => Promise.resolve(),
  } as unknown as Dispatcher;
  return { dispatcher, paths };
}

function transport(steps: readonly Step[], options: Partial<HttpClientOptions> = {}) {
  const { dispatcher, paths } = scripted(steps);
  const sleeps: number[] = [];
  const http = new HttpTransport({
    baseUrl: 'https://forge.example',
    apiPrefix: '/api/v4',
    credentials: { kind: 'none' },
    dispatcher,
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    ...options,
  });
  return { http, paths, sleeps };
}

function withCode(code: string): Error {
  return Object.assign(new Error(`socket said ${code}`), { code });
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  assert.fail('expected a failure');
}

describe('transport failures as tables', () => {
  const RESET = ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED'];
  const UNREACHABLE = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'];
  const CERTIFICATE = [
    'SELF_SIGNED_CERT_IN_CHAIN',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'CERT_HAS_EXPIRED',
    'CERT_NOT_YET_VALID',
    'CERT_UNTRUSTED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
  ];

  for (const code of RESET) {
    it(`${code}: a read is retried as a reset connection, a write is uncertain and sent once`, async () => {
      const read = transport([{ error: withCode(code) }]);
      const error = await failure(read.http.requestJson({ method: 'GET', path: '/x' }));
      assert.ok(error instanceof NetworkError);
      assert.match(error.message, new RegExp(`\\(${code}\\): the connection was reset \\(tried 4 times\\)`));
      assert.equal(read.paths.length, 4);
      const write = transport([{ error: withCode(code) }]);
      const uncertain = await failure(write.http.requestJson({ method: 'POST', path: '/x', json: {} }));
      assert.ok(uncertain instanceof UncertainWriteError, uncertain.name);
      assert.equal(write.paths.length, 1);
    });
  }

  for (const code of UNREACHABLE) {
    it(`${code}: the server is unreachable, said once`, async () => {
      const { http, paths } = transport([{ error: withCode(code) }]);
      const error = await failure(http.requestJson({ method: 'GET', path: '/x' }));
      assert.ok(error instanceof NetworkError);
      assert.equal(error.message, `GET /x could not reach the server (${code}): the server is unreachable`);
      assert.equal(paths.length, 1);
    });
  }

  for (const code of CERTIFICATE) {
    it(`${code}: the certificate is not trusted, with what to do`, async () => {
      for (const method of ['GET', 'POST'] as const) {
        const { http, paths } = transport([{ error: withCode(code) }]);
        const error = await failure(http.requestJson({ method, path: '/x', json: {} }));
        assert.ok(error instanceof NetworkError, error.name);
        assert.match(error.message, /certificate is not trusted\. Check its fingerprint/);
        assert.equal(paths.length, 1, `${method}: asking again changes nothing, so it is asked once`);
      }
    });
  }

  for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
    it(`${code}: a read timed out, a write is uncertain`, async () => {
      const read = transport([{ error: withCode(code) }]);
      assert.ok(
        (await failure(read.http.requestJson({ method: 'GET', path: '/x' }))) instanceof TimeoutError,
      );
      const write = transport([{ error: withCode(code) }]);
      const error = await failure(write.http.requestJson({ method: 'PUT', path: '/x', json: {} }));
      assert.ok(error instanceof UncertainWriteError);
      assert.equal(error.code, 'TIMEOUT');
      assert.equal(write.paths.length, 1);
    });
  }

  describe('a reply whose body breaks while it is read', () => {
    const broken = (then: Error | 'hang'): Step => ({ status: 200, body: '{"a":', then });

    it('a read is retried as a cut-off reply, then says how much arrived', async () => {
      const { http, paths } = transport([broken(withCode('ECONNRESET'))]);
      const error = await failure(http.requestJson({ method: 'GET', path: '/x' }));
      assert.ok(error instanceof NetworkError, error.name);
      assert.match(error.message, /\(ECONNRESET\): the reply was cut off after 5 bytes \(tried 4 times\)/);
      assert.equal(paths.length, 4);
    });

    it('a write is uncertain with the code, and never sent again', async () => {
      const { http, paths } = transport([broken(withCode('ECONNRESET'))]);
      const error = await failure(http.requestJson({ method: 'POST', path: '/x', json: {} }));
      assert.ok(error instanceof UncertainWriteError, error.name);
      assert.equal(error.code, 'ECONNRESET');
      assert.equal(paths.length, 1);
    });

    it("undici's idle timer on the body: a read timed out, a write is uncertain with TIMEOUT", async () => {
      const read = transport([broken(withCode('UND_ERR_BODY_TIMEOUT'))]);
      const timedOut = await failure(read.http.requestJson({ method: 'GET', path: '/x' }));
      assert.ok(timedOut instanceof TimeoutError, timedOut.name);
      assert.equal(read.paths.length, 1);
      const write = transport([broken(withCode('UND_ERR_BODY_TIMEOUT'))]);
      const uncertain = await failure(write.http.requestJson({ method: 'PATCH', path: '/x', json: {} }));
      assert.ok(uncertain instanceof UncertainWriteError, uncertain.name);
      assert.equal(uncertain.code, 'TIMEOUT');
      assert.match(uncertain.message, /no answer within/);
    });

    for (const method of ['GET', 'POST'] as const) {
      it(`${method}: the caller giving up while the body arrives is a cancel, not a broken connection`, async () => {
        const controller = new AbortController();
        const { http, paths } = transport([broken('hang')]);
        const pending = failure(
          http.requestJson({ method, path: '/x', json: {}, signal: controller.signal }),
        );
        setImmediate(() => controller.abort());
        const error = await pending;
        assert.ok(error instanceof CancelledError, error.name);
        assert.equal(paths.length, 1);
      });
    }
  });

  it('a text reply past its limit says it is text', async () => {
    const { http } = transport([{ status: 200, body: 'x'.repeat(2000) }], { maxResponseBytes: 1000 });
    const text = await failure(http.requestText({ method: 'GET', path: '/x' }));
    assert.match(text.message, /limit for text replies/);
    const bytes = await failure(http.requestBytes({ method: 'GET', path: '/x' }));
    assert.match(bytes.message, /limit for text replies/);
  });

  it('an unknown code keeps its own words; a code is found up to three causes deep', async () => {
    const { http } = transport([{ error: withCode('EWEIRD') }]);
    const error = await failure(http.requestJson({ method: 'GET', path: '/x' }));
    assert.equal(error.message, 'GET /x could not reach the server (EWEIRD): socket said EWEIRD');
    const deep = new Error('outer', {
      cause: new Error('middle', { cause: new Error('inner', { cause: withCode('ECONNREFUSED') }) }),
    });
    const nested = transport([{ error: deep }]);
    assert.match(
      (await failure(nested.http.requestJson({ method: 'GET', path: '/x' }))).message,
      /\(ECONNREFUSED\)/,
    );
    const tooDeep = new Error('1', { cause: deep });
    const lost = transport([{ error: tooDeep }]);
    assert.match(
      (await failure(lost.http.requestJson({ method: 'GET', path: '/x' }))).message,
      /\(UNKNOWN\)/,
    );
    const thrownString = transport([{ error: 'plain string' }]);
    assert.match(
      (await failure(thrownString.http.requestJson({ method: 'GET', path: '/x' }))).message,
      /\(UNKNOWN\): plain string/,
    );
  });
});

describe('transport redirects and retries', () => {
  const hop = (n: number): Step => ({ status: 302, headers: { location: `/api/v4/hop${n}` } });

  it('follows five redirects of a read and refuses the sixth', async () => {
    const five = transport([hop(1), hop(2), hop(3), hop(4), hop(5), { status: 200, body: '{"ok":true}' }]);
    assert.deepEqual((await five.http.requestJson({ method: 'GET', path: '/x' })).data, { ok: true });
    assert.equal(five.paths.length, 6);
    const six = transport([hop(1), hop(2), hop(3), hop(4), hop(5), hop(6), { status: 200, body: '{}' }]);
    const error = await failure(six.http.requestJson({ method: 'GET', path: '/x' }));
    assert.ok(error instanceof RedirectError);
    assert.equal(error.reason, 'too-many');
  });

  it('never follows a redirect of a write, and says why', async () => {
    const { http, paths } = transport([hop(1), { status: 200, body: '{}' }]);
    const error = await failure(http.requestJson({ method: 'POST', path: '/x', json: {} }));
    assert.ok(error instanceof RedirectError);
    assert.equal(error.reason, 'write');
    assert.equal(paths.length, 1);
  });

  it('waits as long as Retry-After says when that is within the limit, exactly at it included', async () => {
    const busy = (seconds: string): Step => ({
      status: 503,
      headers: { 'retry-after': seconds },
      body: 'busy',
    });
    const atLimit = transport([busy('2'), { status: 200, body: '[]' }], { retry: { maxRetryAfterMs: 2000 } });
    assert.deepEqual((await atLimit.http.requestJson({ method: 'GET', path: '/x' })).data, []);
    assert.deepEqual(atLimit.sleeps, [2000]);
    const beyond = transport([busy('3'), { status: 200, body: '[]' }], { retry: { maxRetryAfterMs: 2000 } });
    await failure(beyond.http.requestJson({ method: 'GET', path: '/x' }));
    assert.equal(beyond.paths.length, 1);
  });
});

describe('transport waiting between tries, with the real clock', () => {
  const busy: Step = { status: 503, headers: { 'retry-after': '0' }, body: 'busy' };
  const busyLong: Step = { status: 503, headers: { 'retry-after': '1' }, body: 'busy' };

  it('waits as Retry-After says, then tries again', async () => {
    const { http, paths } = transport([busy, { status: 200, body: '[1]' }], { sleep: undefined });
    assert.deepEqual((await http.requestJson({ method: 'GET', path: '/x' })).data, [1]);
    assert.equal(paths.length, 2);
  });

  it('a wait is cut short when the caller gives up', async () => {
    const controller = new AbortController();
    const waiting = transport([busyLong, { status: 200, body: '[]' }], { sleep: undefined });
    const started = Date.now();
    const pending = failure(
      waiting.http.requestJson({ method: 'GET', path: '/x', signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 50);
    const error = await pending;
    assert.ok(error instanceof CancelledError, error.name);
    assert.ok(Date.now() - started < 900, 'not the whole second');
    assert.equal(waiting.paths.length, 1);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-27T10:00:00Z');
  const table: [string | undefined, number | undefined][] = [
    [undefined, undefined],
    ['', undefined],
    ['   ', undefined],
    ['5', 5000],
    [' 5 ', 5000],
    ['0', 0],
    ['5s', undefined],
    ['x5', undefined],
    ['Fri, 27 Nov 2026 10:00:30 GMT', 30_000],
    ['Fri, 27 Nov 2026 09:00:00 GMT', 0],
    ['soon', undefined],
  ];
  for (const [value, expected] of table) {
    it(`${JSON.stringify(value)} -> ${String(expected)}`, () =>
      assert.equal(parseRetryAfter(value, now), expected));
  }
});

describe('transport paths and replies', () => {
  it('refuses `.` and `..` path segments in any spelling, and allows dots inside names', () => {
    const { http } = transport([{ status: 200, body: '{}' }]);
    for (const path of ['/projects/..', '/projects/./x', '/a/%2e%2E/b', '/a/%2e', '..?x=1']) {
      assert.throws(() => http.urlFor(path), /"\." or "\.\."/, path);
    }
    for (const path of ['/projects/v1.', '/projects/a..b', '/files/.gitignore', '/x?path=..', '/x#..']) {
      assert.doesNotThrow(() => http.urlFor(path), path);
    }
  });

  const malformed: [string, string | undefined, string][] = [
    ['<html><body>Sign in</body></html>', undefined, 'html'],
    ['   <!doctype html>', undefined, 'html'],
    ['Sign in', 'text/html; charset=utf-8', 'html'],
    ['{"a":', 'application/json', 'cut-off'],
    ['{"a":"unterminated', 'application/json', 'cut-off'],
    ['[1, 2', 'application/json', 'cut-off'],
    ['{"a":1}x', 'application/json', 'not-json'],
    ['{"a":1} <', 'application/json', 'not-json'],
    ['nonsense', 'application/json', 'not-json'],
    // V8 names where it stopped: at the end is cut off (also past the tenth character), before it is not.
    ['{"abcdefgh":1', 'application/json', 'cut-off'],
    ['{"a":1   ', 'application/json', 'cut-off'],
    ['   {x}', 'application/json', 'not-json'],
  ];
  for (const [body, contentType, problem] of malformed) {
    it(`${JSON.stringify(body)} (${String(contentType)}) is ${problem}`, async () => {
      const { http } = transport([
        { status: 200, body, headers: contentType ? { 'content-type': contentType } : {} },
      ]);
      const error = await failure(http.requestJson({ method: 'GET', path: '/x' }));
      assert.ok(error instanceof MalformedReplyError);
      assert.equal(error.problem, problem);
    });
  }
});

describe('transport redirects and streams', () => {
  it('follows a redirect of a HEAD request as of a GET', async () => {
    const { http, paths } = transport([
      { status: 302, headers: { location: 'https://forge.example/api/v4/moved' } },
      { status: 200, body: '' },
    ]);
    const reply = await http.requestText({ method: 'HEAD', path: 'projects' });
    assert.equal(reply.status, 200);
    assert.deepEqual(paths, ['/api/v4/projects', '/api/v4/moved']);
  });

  it('reports a redirected change as a write, with or without a Location, and does not follow it', async () => {
    const withAndWithout: Record<string, string>[] = [
      { location: 'https://forge.example/api/v4/elsewhere' },
      {},
    ];
    for (const headers of withAndWithout) {
      const { http, paths } = transport([
        { status: 302, headers },
        { status: 200, body: '{}' },
      ]);
      const error = await failure(http.requestJson({ method: 'POST', path: 'projects', json: {} }));
      assert.ok(error instanceof RedirectError);
      assert.equal(error.reason, 'write');
      assert.deepEqual(paths, ['/api/v4/projects']);
      if (!('location' in headers)) assert.doesNotMatch(error.message, / to /, 'no made-up target');
    }
  });

  it('retries a HEAD request as a read: after a 503 and after a reset connection', async () => {
    const busy = transport([{ status: 503 }, { status: 200, body: '' }]);
    assert.equal((await busy.http.requestText({ method: 'HEAD', path: 'projects' })).status, 200);
    assert.equal(busy.paths.length, 2);
    const reset = transport([{ error: withCode('ECONNRESET') }, { status: 200, body: '' }]);
    assert.equal((await reset.http.requestText({ method: 'HEAD', path: 'projects' })).status, 200);
    assert.equal(reset.paths.length, 2);
  });

  it('gives a stream its length only when the server sent one', async () => {
    const sized = transport([{ status: 200, headers: { 'content-length': '3' }, body: 'abc' }]);
    assert.equal((await sized.http.requestStream({ method: 'GET', path: 'file' })).contentLength, 3);
    const unsized = transport([{ status: 200, body: 'abc' }]);
    assert.equal(
      (await unsized.http.requestStream({ method: 'GET', path: 'file' })).contentLength,
      undefined,
    );
  });
});
