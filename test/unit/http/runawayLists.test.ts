// Every loop over server replies ends (design.md section 6): servers that ignore `page`, count
// `X-Next-Page` past their own total, or send full pages forever are cut off with a clear error,
// and a redirected write is an error, never a success.
import assert from 'node:assert/strict';
import * as z from 'zod';
import {
  HttpTransport,
  ListRequest,
  RedirectError,
  RunawayGuard,
  RunawayListError,
} from '../../../src/api/http';
import { ChannelClient } from '../../../src/api/channel';
import { type ScriptedServer, sendJson, startScriptedServer } from '../../support/scriptedServer';

const ItemSchema = z.looseObject({ id: z.number() });
/** The test's own bound: a listing that is not stopped by the client stops here, and fails the test. */
const TEST_CAP = 500;

function pageOf(url: string): number {
  return Number(new URL(url, 'http://x').searchParams.get('page') ?? '1');
}

describe('lists that would never end', function () {
  this.timeout(20_000);
  let server: ScriptedServer;
  let transport: HttpTransport;

  beforeEach(async () => {
    server = await startScriptedServer();
    transport = new HttpTransport({
      baseUrl: server.url,
      apiPrefix: '/api/v4',
      credentials: { kind: 'private-token', token: 'glpat-runaway-000' },
      sleep: () => Promise.resolve(),
      maxListPages: 50,
    });
  });

  afterEach(async () => {
    await transport.close();
    await server.close();
  });

  async function drain(list: AsyncIterable<unknown>): Promise<{ count: number; error: unknown }> {
    let count = 0;
    try {
      for await (const _item of list) {
        count++;
        if (count > TEST_CAP * 100) break;
      }
    } catch (error) {
      return { count, error };
    }
    return { count, error: undefined };
  }

  const list = (): ListRequest<typeof ItemSchema> =>
    new ListRequest(transport, { path: 'projects', endpoint: 'GET /projects' }, ItemSchema);

  it('stops when the server ignores page and sends page 1 again', async () => {
    server.handle((request, response) => {
      const page = pageOf(request.url);
      const items = Array.from({ length: 100 }, (_, index) => ({ id: index + 1 }));
      sendJson(response, 200, items, { 'x-next-page': String(page + 1), 'x-page': String(page) });
    });
    const { count, error } = await drain(list().all({ perPage: 100 }));
    assert.ok(error instanceof RunawayListError, String(error));
    assert.equal(error.reason, 'repeated-page');
    assert.match(error.message, /GET \/projects: the server sent the same 100 rows on page 2/);
    assert.equal(count, 100, 'only the first page was used');
    assert.ok(server.seen.length < TEST_CAP);
  });

  it('stops when X-Next-Page keeps counting past X-Total-Pages', async () => {
    server.handle((request, response) => {
      const page = pageOf(request.url);
      const items = Array.from({ length: 10 }, (_, index) => ({ id: page * 10 + index }));
      sendJson(response, 200, items, {
        'x-next-page': String(page + 1),
        'x-page': String(page),
        'x-total-pages': '3',
        'x-total': '30',
      });
    });
    const { count, error } = await drain(list().all({ perPage: 10 }));
    assert.ok(error instanceof RunawayListError, String(error));
    assert.equal(error.reason, 'past-total');
    assert.match(error.message, /announced 3 pages/);
    assert.equal(count, 40, 'the announced pages and one more (a list may grow while read)');
  });

  it('stops at the page cap, which a setting can raise', async () => {
    server.handle((request, response) => {
      const page = pageOf(request.url);
      sendJson(response, 200, [{ id: page }], { 'x-next-page': String(page + 1), 'x-page': String(page) });
    });
    const { count, error } = await drain(list().all({ perPage: 1, concurrency: 1 }));
    assert.ok(error instanceof RunawayListError, String(error));
    assert.equal(error.reason, 'cap');
    assert.match(error.message, /more than 50 pages; raise "forge.maxListPages"/);
    assert.equal(count, 50);
  });

  it('reads an honest list to its end', async () => {
    server.handle((request, response) => {
      const page = pageOf(request.url);
      const items = page <= 3 ? Array.from({ length: 10 }, (_, index) => ({ id: page * 10 + index })) : [];
      sendJson(response, 200, items, {
        ...(page < 3 ? { 'x-next-page': String(page + 1) } : {}),
        'x-page': String(page),
        'x-total-pages': '3',
      });
    });
    const { count, error } = await drain(list().all({ perPage: 10 }));
    assert.equal(error, undefined);
    assert.equal(count, 30);
  });

  it('the guard allows empty pages and rows without ids that differ', () => {
    const guard = new RunawayGuard('GET x', 10);
    guard.check({ items: [] });
    guard.check({ items: [] });
    guard.check({ items: [{ name: 'a' }] });
    guard.check({ items: [{ name: 'b' }] });
    assert.throws(() => guard.check({ items: [{ name: 'b' }] }), RunawayListError);
  });

  it('the guard tells pages whose rows have ids only in part by the rows themselves', () => {
    const guard = new RunawayGuard('GET x', 10);
    guard.check({ items: [{ id: 1 }, { name: 'a' }] });
    guard.check({ items: [{ id: 1 }, { name: 'b' }] });
    assert.throws(() => guard.check({ items: [{ id: 1 }, { name: 'b' }] }), RunawayListError);
  });

  it('the guard tells a repeated page by its ids, even when a field of a row changed between reads', () => {
    // A server that ignores `page` while a job runs: the same rows, with a longer duration each time.
    const guard = new RunawayGuard('GET jobs', 10);
    guard.check({ items: [{ id: 1, duration: 5 }] });
    assert.throws(
      () => guard.check({ items: [{ id: 1, duration: 6 }] }),
      (error: unknown) => error instanceof RunawayListError && /same 1 rows/.test(error.message),
    );
  });

  it('the guard allows empty pages past the announced total: they are the end of a list that shrank', () => {
    const guard = new RunawayGuard('GET x', 10);
    guard.check({ items: [{ id: 1 }], totalPages: 1 });
    guard.check({ items: [], totalPages: 1 });
    guard.check({ items: [], totalPages: 1 });
    guard.check({ items: [], totalPages: 1 });
    assert.throws(() => guard.check({ items: [{ id: 2 }], totalPages: 1 }), RunawayListError);
  });

  for (const method of ['POST', 'PUT', 'DELETE'] as const) {
    for (const status of [301, 302, 307, 308]) {
      it(`a ${method} answered ${status} is an error that says the server redirected a write`, async () => {
        server.handle((request, response) => {
          if (request.url.startsWith('/elsewhere')) return sendJson(response, 200, { id: 1 });
          response.writeHead(status, { location: `${server.url}/elsewhere` }).end();
        });
        await assert.rejects(
          transport.requestJson({ method, path: 'projects/1', json: { name: 'x' } }),
          (error: unknown) => {
            assert.ok(error instanceof RedirectError, String(error));
            assert.equal(error.reason, 'write');
            assert.match(error.message, /redirected this change/);
            return true;
          },
        );
        assert.equal(server.seen.length, 1, 'the write was not sent again');
      });
    }
  }

  it('a GET that redirects past the limit says so instead of reading as an empty list', async () => {
    server.handle((request, response) => {
      response.writeHead(302, { location: `${server.url}/api/v4/projects?hop=${server.seen.length}` }).end();
    });
    const { error } = await drain(list().all());
    assert.ok(error instanceof RedirectError, String(error));
    assert.equal(error.reason, 'too-many');
    assert.match(error.message, /too many redirects/);
  });
});

describe('channel listings that would never end', function () {
  this.timeout(20_000);
  let server: ScriptedServer;
  let client: ChannelClient;

  beforeEach(async () => {
    server = await startScriptedServer();
    client = ChannelClient.create({
      baseUrl: server.url,
      login: 'wren',
      password: 'pw',
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      maxListPages: 40,
    });
  });

  afterEach(async () => {
    await client.close();
    await server.close();
  });

  const file = (id: number): Record<string, unknown> => ({
    id,
    hash: `h${id}`,
    filename: `f${id}`,
    filetype: 'text/plain',
    filesize: 1,
  });

  it('files: a server that ignores start and sends the same full page stops at the second page', async () => {
    server.handle((_request, response) =>
      sendJson(response, 200, { success: true, results: Array.from({ length: 20 }, (_, i) => file(i)) }),
    );
    const seen: unknown[] = [];
    await assert.rejects(
      (async () => {
        for await (const item of client.listFiles({}, 20)) seen.push(item);
      })(),
      (error: unknown) => error instanceof RunawayListError && error.reason === 'repeated-page',
    );
    assert.equal(seen.length, 20);
  });

  it('files: full pages of new rows forever stop at the cap', async () => {
    let next = 0;
    server.handle((_request, response) =>
      sendJson(response, 200, { success: true, results: Array.from({ length: 5 }, () => file(next++)) }),
    );
    await assert.rejects(
      client.listFiles({}, 5).toArray(),
      (error: unknown) => error instanceof RunawayListError && error.reason === 'cap',
    );
    assert.ok(server.seen.length <= 41, `${server.seen.length} requests`);
  });
});
