import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import * as z from 'zod';
import {
  CrossOriginError,
  HttpTransport,
  ListRequest,
  SchemaMismatchError,
  parseLinkHeader,
} from '../../../src/api/http';
import {
  type ScriptedServer,
  type SeenRequest,
  sendJson,
  startScriptedServer,
} from '../../support/scriptedServer';

const ItemSchema = z.looseObject({ id: z.number() });
const TOKEN = 'glpat-pagination-secret-000';

interface ListScript {
  total: number;
  withTotals: boolean;
  /** Where Link URLs point; defaults to the server itself. */
  linkOrigin?: string;
  withNextPageHeader?: boolean;
  extraLinkParams?: string;
}

function serveList(server: ScriptedServer, script: ListScript): void {
  server.handle((request: SeenRequest, response: ServerResponse) => {
    const url = new URL(request.url, server.url);
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 20));
    const totalPages = Math.ceil(script.total / perPage);
    const start = (page - 1) * perPage;
    const items = Array.from({ length: Math.max(0, Math.min(perPage, script.total - start)) }, (_, i) => ({
      id: start + i + 1,
    }));
    const origin = script.linkOrigin ?? server.url;
    const link = (p: number, rel: string): string =>
      `<${origin}${url.pathname}?page=${p}&per_page=${perPage}${script.extraLinkParams ?? ''}>; rel="${rel}"`;
    const links = [link(1, 'first')];
    if (page < totalPages) links.push(link(page + 1, 'next'));
    if (script.withTotals) links.push(link(totalPages, 'last'));
    const headers: Record<string, string> = {
      link: links.join(', '),
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-next-page': script.withNextPageHeader === false || page >= totalPages ? '' : String(page + 1),
    };
    if (script.withTotals) {
      headers['x-total'] = String(script.total);
      headers['x-total-pages'] = String(totalPages);
    }
    sendJson(response, 200, items, headers);
  });
}

describe('pagination', () => {
  let server: ScriptedServer;
  let foreign: ScriptedServer;
  let transport: HttpTransport;

  beforeEach(async () => {
    server = await startScriptedServer();
    foreign = await startScriptedServer();
    transport = new HttpTransport({
      baseUrl: server.url,
      apiPrefix: '/api/v4',
      credentials: { kind: 'private-token', token: TOKEN },
      sleep: () => Promise.resolve(),
    });
  });

  afterEach(async () => {
    await transport.close();
    await server.close();
    await foreign.close();
  });

  const jobs = (query?: Record<string, string>): ListRequest<typeof ItemSchema> =>
    new ListRequest(
      transport,
      { path: '/projects/1/jobs', query, endpoint: 'GET /projects/:id/jobs' },
      ItemSchema,
    );

  it('returns every item in order, fetching known remaining pages concurrently', async () => {
    serveList(server, { total: 950, withTotals: true });
    const items = await jobs().toArray();
    assert.deepEqual(
      items.map((item) => item.id),
      Array.from({ length: 950 }, (_, i) => i + 1),
    );
    assert.equal(server.seen.length, 10);
    assert.ok(server.seen.every((request) => request.url.includes('per_page=100')));
  });

  it('follows next links one by one when the server sends no totals', async () => {
    serveList(server, { total: 250, withTotals: false, extraLinkParams: '&scope%5B%5D=failed&order=desc' });
    const items = await jobs({ 'scope[]': 'failed' }).toArray();
    assert.equal(items.length, 250);
    assert.equal(server.seen.length, 3);
    // The link is followed as given, extra parameters included.
    assert.match(server.seen[1]?.url ?? '', /page=2&per_page=100&scope%5B%5D=failed&order=desc$/);
  });

  it('handles an empty list with X-Total 0 and a last link with page=0', async () => {
    server.handle((_request, response) =>
      sendJson(response, 200, [], {
        link: `<${server.url}/api/v4/projects/1/jobs?page=1&per_page=100>; rel="first", <${server.url}/api/v4/projects/1/jobs?page=0&per_page=100>; rel="last"`,
        'x-total': '0',
        'x-total-pages': '0',
        'x-next-page': '',
        'x-page': '1',
      }),
    );
    assert.deepEqual(await jobs().toArray(), []);
    const page = await jobs().page();
    assert.equal(page.total, 0);
    assert.equal(page.nextUrl, undefined);
  });

  it('reports totals on a single page when present, and none when absent', async () => {
    serveList(server, { total: 45, withTotals: true });
    const page = await jobs().page({ perPage: 20 });
    assert.equal(page.items.length, 20);
    assert.equal(page.total, 45);
    assert.equal(page.totalPages, 3);
    assert.ok(page.nextUrl);
    const second = await jobs().next(page.nextUrl);
    assert.deepEqual(
      second.items.map((item) => item.id),
      Array.from({ length: 20 }, (_, i) => i + 21),
    );

    serveList(server, { total: 45, withTotals: false });
    const bare = await jobs().page({ perPage: 20 });
    assert.equal(bare.total, undefined);
    assert.ok(bare.nextUrl);
  });

  it('caps per_page at 100', async () => {
    serveList(server, { total: 5, withTotals: true });
    await jobs().page({ perPage: 500 });
    assert.match(server.seen[0]?.url ?? '', /per_page=100/);
  });

  it('never sends credentials to a Link on another origin; falls back to X-Next-Page', async () => {
    serveList(server, { total: 150, withTotals: false, linkOrigin: foreign.url });
    const items = await jobs().toArray();
    assert.equal(items.length, 150);
    assert.equal(foreign.seen.length, 0, 'the other origin was never contacted');
    assert.equal(server.seen.length, 2);
  });

  it('stops with a clear error when only a foreign Link says where the next page is', async () => {
    serveList(server, { total: 150, withTotals: false, linkOrigin: foreign.url, withNextPageHeader: false });
    await assert.rejects(jobs().toArray(), CrossOriginError);
    assert.equal(foreign.seen.length, 0);
  });

  it('refuses a next-page URL that points at another origin', async () => {
    await assert.rejects(jobs().next(`${foreign.url}/api/v4/projects/1/jobs?page=2`), CrossOriginError);
    assert.equal(foreign.seen.length, 0);
  });

  it('names the endpoint and the field when an item does not fit', async () => {
    server.handle((_request, response) => sendJson(response, 200, [{ id: 1 }, { id: 'two' }]));
    const error = await jobs()
      .toArray()
      .catch((e: unknown) => e);
    assert.ok(error instanceof SchemaMismatchError);
    assert.equal(error.fieldPath, 'id');
    assert.match(error.message, /GET \/projects\/:id\/jobs \[item 1\]/);
  });

  it('stops fetching when the consumer stops early', async () => {
    serveList(server, { total: 2000, withTotals: true });
    for await (const item of jobs().all({ concurrency: 2 })) {
      if (item.id === 5) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(server.seen.length <= 3, `fetched ${server.seen.length} pages for 5 items`);
  });
});

describe('parseLinkHeader', () => {
  it('reads several rels, quoted and unquoted, with commas inside URLs', () => {
    const links = parseLinkHeader(
      '<https://h/api/v4/x?page=2&labels=a,b>; rel="next", <https://h/api/v4/x?page=9>; rel=last, <https://h/api/v4/x?page=1>; rel="first prev"',
    );
    assert.equal(links.get('next'), 'https://h/api/v4/x?page=2&labels=a,b');
    assert.equal(links.get('last'), 'https://h/api/v4/x?page=9');
    assert.equal(links.get('first'), 'https://h/api/v4/x?page=1');
    assert.equal(links.get('prev'), 'https://h/api/v4/x?page=1');
  });

  it('returns nothing for a missing or malformed header, quickly for a hostile one', () => {
    assert.equal(parseLinkHeader(undefined).size, 0);
    assert.equal(parseLinkHeader('garbage').size, 0);
    const hostile = `<${'a'.repeat(100_000)}; rel="${'"'.repeat(50_000)}`;
    const started = Date.now();
    parseLinkHeader(hostile);
    assert.ok(Date.now() - started < 500);
  });
});
