import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import * as z from 'zod';
import {
  BadRequestError,
  CancelledError,
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
  /** Milliseconds before a page is answered (by page number); pages come back out of order. */
  delayMs?: (page: number) => number;
  /** Pages answered with this status instead of items. */
  failPages?: Map<number, number>;
  /** Called as a page is answered, with how many requests the server had seen by then. */
  onAnswer?: (page: number, requestsSeen: number) => void;
  /**
   * A page whose answer waits until the server has seen this many requests in all (checked as each
   * one arrives; `HOLD_LIMIT_MS` at most, so that a client that never sends them fails the assertion
   * instead of the test's timeout). Waiting for the requests, not for time: a busy machine may take
   * longer than any delay to send them.
   */
  holdUntilSeen?: (page: number) => number | undefined;
}

const HOLD_LIMIT_MS = 3_000;

/** Requests in flight at the server, and the most seen at once. */
const inFlightAtServer = { now: 0, max: 0 };

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
    const failure = script.failPages?.get(page);
    inFlightAtServer.now++;
    inFlightAtServer.max = Math.max(inFlightAtServer.max, inFlightAtServer.now);
    const answer = (): void => {
      inFlightAtServer.now--;
      script.onAnswer?.(page, server.seen.length);
      if (failure !== undefined) sendJson(response, failure, { message: `page ${page} failed` });
      else sendJson(response, 200, items, headers);
    };
    const seenBefore = script.holdUntilSeen?.(page);
    if (seenBefore !== undefined)
      held.push({ seenBefore, answer, limit: setTimeout(() => release(true), HOLD_LIMIT_MS) });
    else setTimeout(answer, script.delayMs?.(page) ?? 0);
    release(false);
  });
  /** Answers the held pages whose requests have come (all of them once the limit is reached). */
  const held: { seenBefore: number; answer: () => void; limit: ReturnType<typeof setTimeout> }[] = [];
  const release = (all: boolean): void => {
    for (const entry of [...held]) {
      if (!all && server.seen.length < entry.seenBefore) continue;
      held.splice(held.indexOf(entry), 1);
      clearTimeout(entry.limit);
      entry.answer();
    }
  };
}

/** Resolves once the server has seen `count` requests (`HOLD_LIMIT_MS` at most). */
async function seenAtLeast(server: ScriptedServer, count: number): Promise<void> {
  const deadline = Date.now() + HOLD_LIMIT_MS;
  while (server.seen.length < count && Date.now() < deadline)
    await new Promise((resolve) => setImmediate(resolve));
}

const ids = (items: readonly { id: number }[]): number[] => items.map((item) => item.id);
const oneTo = (count: number): number[] => Array.from({ length: count }, (_, i) => i + 1);
const pagesRequested = (seen: readonly SeenRequest[]): number[] =>
  seen.map((request) => Number(new URL(request.url, 'http://x').searchParams.get('page') ?? 1));

describe('pagination', () => {
  let server: ScriptedServer;
  let foreign: ScriptedServer;
  let transport: HttpTransport;

  beforeEach(async () => {
    inFlightAtServer.now = 0;
    inFlightAtServer.max = 0;
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

  it('reads a list of one page, with or without totals, with one request', async () => {
    for (const withTotals of [true, false]) {
      serveList(server, { total: 7, withTotals });
      const before = server.seen.length;
      assert.deepEqual(ids(await jobs().toArray()), oneTo(7));
      assert.equal(server.seen.length - before, 1);
    }
  });

  it('reads a list again through its own next links when they carry what the first request lacks', async () => {
    // A server whose next links add a cursor: its pages without the cursor are other rows.
    server.handle((request: SeenRequest, response: ServerResponse) => {
      const url = new URL(request.url, server.url);
      const page = Number(url.searchParams.get('page') ?? 1);
      const base = url.searchParams.get('cursor') === 'abc' ? 1000 : 0;
      const next = `<${server.url}${url.pathname}?page=${page + 1}&per_page=100&cursor=abc>; rel="next"`;
      sendJson(response, 200, [{ id: base + page }], page < 3 ? { link: next } : {});
    });
    assert.deepEqual(ids(await jobs().toArray()), [1, 1002, 1003]);
    // The second read starts pages 2 and 3 at once (a hint from the first), then drops them.
    assert.deepEqual(ids(await jobs().toArray()), [1, 1002, 1003]);
  });

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

  it('reads ahead when the server sends no totals, keeping the link parameters, and stops at the end', async () => {
    serveList(server, { total: 250, withTotals: false, extraLinkParams: '&scope%5B%5D=failed&order=desc' });
    const items = await jobs({ 'scope[]': 'failed' }).toArray();
    assert.deepEqual(ids(items), oneTo(250));
    // Pages 2 and 3 are asked for together (page 4 once page 2 is in); the short page 3 ends the
    // list: nothing more is started, and what is in flight is cancelled.
    const pages = pagesRequested(server.seen).sort((a, b) => a - b);
    assert.deepEqual(
      pages.filter((page) => page <= 3),
      [1, 2, 3],
    );
    assert.ok(pages.length <= 4, `pages ${pages.join(',')}`);
    // The link's extra parameters are kept on every page read ahead.
    for (const request of server.seen.slice(1)) {
      assert.match(request.url, /per_page=100&scope%5B%5D=failed&order=desc$/);
    }
  });

  it('keeps server order when pages read ahead come back out of order, up to the window', async () => {
    // 1,050 items without totals: 11 pages; later pages answer sooner than earlier ones.
    serveList(server, { total: 1050, withTotals: false, delayMs: (page) => (page % 3) * 15 });
    const items = await jobs().toArray({ concurrency: 4 });
    assert.deepEqual(ids(items), oneTo(1050));
    const pages = pagesRequested(server.seen);
    assert.deepEqual(
      pages.filter((page) => page <= 11).sort((a, b) => a - b),
      oneTo(11),
      'every page once',
    );
    assert.ok(pages.length <= 11 + 3, `at most window − 1 requests past the end (${pages.join(',')})`);
    assert.ok(inFlightAtServer.max <= 4, `at most 4 in flight, saw ${inFlightAtServer.max}`);
    assert.ok(inFlightAtServer.max >= 2, 'pages were fetched in parallel');
  });

  it('reads the whole window at once when the total is known, and fetches nothing past it', async () => {
    serveList(server, { total: 1000, withTotals: true, delayMs: (page) => (page === 2 ? 80 : 30) });
    const items = await jobs().toArray({ concurrency: 3 });
    assert.deepEqual(ids(items), oneTo(1000));
    assert.deepEqual(
      pagesRequested(server.seen).sort((a, b) => a - b),
      oneTo(10),
    );
    assert.ok(inFlightAtServer.max <= 3, `at most 3 in flight, saw ${inFlightAtServer.max}`);
  });

  it('starts the next page as each reply comes in, not only when the oldest page is taken', async () => {
    let seenWhenSecondAnswered = 0;
    serveList(server, {
      total: 1000,
      withTotals: true,
      // Page 2 waits for page 5's request: it comes only if pages 3 and 4 were answered meanwhile.
      holdUntilSeen: (page) => (page === 2 ? 5 : undefined),
      onAnswer: (page, requestsSeen) => {
        if (page === 2) seenWhenSecondAnswered = requestsSeen;
      },
    });
    assert.deepEqual(ids(await jobs().toArray({ concurrency: 2 })), oneTo(1000));
    // While page 2 is slow, pages 3, 4 and 5 come and go (two on the wire, at most four held).
    assert.equal(seenWhenSecondAnswered, 5);
    assert.ok(inFlightAtServer.max <= 2, `at most 2 in flight, saw ${inFlightAtServer.max}`);
    assert.deepEqual(
      pagesRequested(server.seen).sort((a, b) => a - b),
      oneTo(10),
    );
  });

  it('holds at most a window of pages more than it has on the wire for a consumer that is slow', async () => {
    serveList(server, { total: 1000, withTotals: true });
    const items: { id: number }[] = [];
    let seenWhileStalled = 0;
    for await (const item of jobs().all({ concurrency: 2 })) {
      items.push(item);
      if (item.id === 150) {
        // Page 2 taken, the consumer stalls: pages 3 to 6 come in (two on the wire, four held), and
        // nothing more while it stalls.
        await seenAtLeast(server, 6);
        await new Promise((resolve) => setTimeout(resolve, 150));
        seenWhileStalled = server.seen.length;
      }
    }
    assert.deepEqual(ids(items), oneTo(1000));
    assert.equal(seenWhileStalled, 6, 'pages 1 to 6 asked, nothing more while the consumer stalls');
  });

  it('asks a list it read before for its first window of pages together with the first page', async () => {
    let seenWhenFirstAnswered = 0;
    serveList(server, {
      total: 950,
      withTotals: true,
      delayMs: (page) => (page === 1 ? 60 : 0),
      // Read again, the first page waits for the others of the window: they come with it, or never.
      holdUntilSeen: (page) => (page === 1 && before >= 0 ? before + 8 : undefined),
      onAnswer: (page, requestsSeen) => {
        if (page === 1) seenWhenFirstAnswered = requestsSeen;
      },
    });
    // Set once the list has been read a first time.
    let before = -1;
    assert.deepEqual(ids(await jobs().toArray()), oneTo(950));
    assert.equal(seenWhenFirstAnswered, 1, 'a list read for the first time starts with its first page alone');
    before = server.seen.length;
    assert.deepEqual(ids(await jobs().toArray()), oneTo(950));
    assert.equal(seenWhenFirstAnswered - before, 8, 'read again: pages 1 to 8 asked at once');
    assert.deepEqual(
      pagesRequested(server.seen.slice(before)).sort((a, b) => a - b),
      oneTo(10),
    );
    // Another list (other filters) has no hint of its own.
    const other = server.seen.length;
    assert.deepEqual(ids(await jobs({ scope: 'failed' }).toArray()), oneTo(950));
    assert.equal(seenWhenFirstAnswered - other, 1);
  });

  it('counts the early pages of a list read again in its window: each one taken starts the next page', async () => {
    let seenWhenEighthAnswered = 0;
    const script = {
      total: 950,
      withTotals: true,
      // Read again, page 8 waits for the requests of pages 9 and 10: they come while it is on the
      // wire only if each early page taken starts the next one.
      holdUntilSeen: (page: number) => (page === 8 && before >= 0 ? before + 10 : undefined),
      onAnswer: (page: number, requestsSeen: number) => {
        if (page === 8) seenWhenEighthAnswered = requestsSeen;
      },
    };
    // Set once the list has been read a first time.
    let before = -1;
    serveList(server, script);
    assert.deepEqual(ids(await jobs().toArray()), oneTo(950));
    before = server.seen.length;
    assert.deepEqual(ids(await jobs().toArray()), oneTo(950));
    // Pages 9 and 10 went out while page 8 was still being served, not after it.
    assert.equal(seenWhenEighthAnswered - before, 10);
    // The first page first: a server that answers in order sends it before the pages that wait for it.
    assert.equal(pagesRequested(server.seen.slice(before))[0], 1);
  });

  it('drops the early pages of a list that became shorter, and remembers its new length', async () => {
    let total = 950;
    server.handle((request, response) => {
      const url = new URL(request.url, server.url);
      const page = Number(url.searchParams.get('page') ?? 1);
      const totalPages = Math.ceil(total / 100);
      const items = Array.from({ length: Math.max(0, Math.min(100, total - (page - 1) * 100)) }, (_, i) => ({
        id: (page - 1) * 100 + i + 1,
      }));
      sendJson(response, 200, items, {
        link:
          page < totalPages ? `<${server.url}${url.pathname}?page=${page + 1}&per_page=100>; rel="next"` : '',
        'x-page': String(page),
        'x-total-pages': String(totalPages),
      });
    });
    await jobs().toArray();
    total = 150;
    const before = server.seen.length;
    assert.deepEqual(ids(await jobs().toArray()), oneTo(150));
    assert.equal(server.seen.length - before, 8, 'pages 1 to 8 were asked, as the list was long before');
    const after = server.seen.length;
    assert.deepEqual(ids(await jobs().toArray()), oneTo(150));
    assert.deepEqual(
      pagesRequested(server.seen.slice(after)).sort((a, b) => a - b),
      [1, 2],
    );
    total = 50;
    const single = server.seen.length;
    assert.deepEqual(ids(await jobs().toArray()), oneTo(50));
    assert.deepEqual(pagesRequested(server.seen.slice(single)).sort(), [1, 2], 'still read as two pages');
    const last = server.seen.length;
    await jobs().toArray();
    assert.deepEqual(pagesRequested(server.seen.slice(last)), [1], 'then asked alone, as one page');
  });

  /** Answers 100 rows per page from `rowsOf(page)`, with the next link `nextOf(page)` gives. */
  const servePages = (
    rowsOf: (page: number) => number[],
    nextOf: (page: number) => number | undefined,
  ): void => {
    server.handle((request, response) => {
      const url = new URL(request.url, server.url);
      const page = Number(url.searchParams.get('page') ?? 1);
      const next = nextOf(page);
      sendJson(
        response,
        200,
        rowsOf(page).map((id) => ({ id })),
        next === undefined
          ? {}
          : { link: `<${server.url}${url.pathname}?page=${next}&per_page=100>; rel="next"` },
      );
    });
  };
  const hundred = (page: number): number[] => Array.from({ length: 100 }, (_, i) => (page - 1) * 100 + i + 1);

  it('ends where the last page says so, even when a page read ahead past it has rows (a server that clamps page numbers)', async () => {
    servePages(hundred, (page) => (page < 3 ? page + 1 : undefined));
    assert.deepEqual(ids(await jobs().toArray()), oneTo(300), 'three pages, remembered for the next read');
    // Now two pages, and pages past the end answered with the last one.
    servePages(
      (page) => hundred(Math.min(page, 2)),
      (page) => (page < 2 ? page + 1 : undefined),
    );
    assert.deepEqual(ids(await jobs().toArray()), oneTo(200));
  });

  it('follows a next link that skips page numbers as given, instead of the pages read ahead', async () => {
    servePages(hundred, (page) => (page < 3 ? page + 1 : undefined));
    await jobs().toArray();
    // Page 2 now links to page 7 (the rows between are not the user's to see).
    servePages(hundred, (page) => (page === 1 ? 2 : page === 2 ? 7 : undefined));
    assert.deepEqual(ids(await jobs().toArray()), [...oneTo(200), ...hundred(7)]);
  });

  it('ends a list at an empty page even when it links a next one, read ahead or one by one', async () => {
    // Pages 1 and 2 hold items, page 3 is empty but still says there is a page 4 (a server bug).
    const answer = (page: number, response: ServerResponse, keyset: boolean): void => {
      const items =
        page <= 2 ? Array.from({ length: 100 }, (_, i) => ({ id: (page - 1) * 100 + i + 1 })) : [];
      const next = keyset ? `id_after=${page * 100}` : `page=${page + 1}&per_page=100`;
      sendJson(response, 200, items, { link: `<${server.url}/api/v4/projects/1/jobs?${next}>; rel="next"` });
    };
    server.handle((request, response) => {
      const url = new URL(request.url, server.url);
      answer(Number(url.searchParams.get('page') ?? 1), response, false);
    });
    assert.deepEqual(ids(await jobs().toArray()), oneTo(200));
    server.handle((request, response) => {
      const url = new URL(request.url, server.url);
      const after = url.searchParams.get('id_after');
      answer(after === null ? 1 : Number(after) / 100 + 1, response, true);
    });
    // Another first URL, so that no remembered page count reads ahead.
    assert.deepEqual(ids(await jobs({ pagination: 'keyset' }).toArray()), oneTo(200));
    const keysetRequests = server.seen.filter((request) => /pagination=keyset|id_after=/.test(request.url));
    assert.equal(keysetRequests.length, 3, 'the empty third page ends it');
  });

  it('numbers pages from the request when the server sends no X-Page or X-Per-Page', async () => {
    server.handle((request, response) => {
      const url = new URL(request.url, server.url);
      const page = Number(url.searchParams.get('page') ?? 1);
      sendJson(response, 200, page === 1 ? [{ id: 1 }, { id: 2 }] : [], {});
    });
    const first = await jobs().page({ perPage: 2 });
    assert.equal(first.page, 1);
    assert.equal(first.perPage, 2);
    const third = await jobs().page({ page: 3, perPage: 5 });
    assert.deepEqual([third.page, third.perPage], [3, 5]);
  });

  it('follows next links one by one when they are not page numbers (keyset)', async () => {
    server.handle((request, response) => {
      const url = new URL(request.url, server.url);
      const after = Number(url.searchParams.get('id_after') ?? 0);
      const items = Array.from({ length: Math.max(0, Math.min(100, 250 - after)) }, (_, i) => ({
        id: after + i + 1,
      }));
      const last = items.at(-1)?.id ?? after;
      const headers: Record<string, string> =
        last < 250
          ? { link: `<${server.url}${url.pathname}?id_after=${last}&per_page=100>; rel="next"` }
          : {};
      sendJson(response, 200, items, headers);
    });
    assert.deepEqual(ids(await jobs().toArray()), oneTo(250));
    assert.equal(server.seen.length, 3);
  });

  it('fails with the error of a page in the middle, after yielding the pages before it', async () => {
    serveList(server, {
      total: 1050,
      withTotals: false,
      failPages: new Map([[4, 400]]),
      delayMs: (page) => (page === 3 ? 30 : 0),
    });
    const seen: number[] = [];
    const error = await (async () => {
      for await (const item of jobs().all({ concurrency: 4 })) seen.push(item.id);
    })().catch((caught: unknown) => caught);
    assert.ok(error instanceof BadRequestError, String(error));
    assert.match(error.message, /page 4 failed/);
    assert.deepEqual(seen, oneTo(300), 'pages 1–3 in full, nothing after the failed page');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(Math.max(...pagesRequested(server.seen)) <= 8, 'no page requested after the failure');
  });

  it('cancels the pages read ahead when the consumer stops, and when the caller aborts', async () => {
    serveList(server, { total: 5000, withTotals: false, delayMs: () => 20 });
    for await (const item of jobs().all({ concurrency: 4 })) {
      if (item.id === 150) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.ok(server.seen.length <= 1 + 4, `fetched ${server.seen.length} pages for 150 items`);

    const before = server.seen.length;
    const controller = new AbortController();
    const received: number[] = [];
    const error = await (async () => {
      for await (const item of jobs().all({ concurrency: 4, signal: controller.signal })) {
        received.push(item.id);
        if (item.id === 100) controller.abort();
      }
    })().catch((caught: unknown) => caught);
    assert.ok(error instanceof CancelledError, String(error));
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.ok(
      server.seen.length - before <= 1 + 4,
      `fetched ${server.seen.length - before} pages after aborting`,
    );
  });

  it("lets go of the caller's signal after every listing, read to the end or stopped early", async () => {
    // A tree refreshes with one signal for as long as it is open: each listing must let go of it.
    serveList(server, { total: 450, withTotals: false });
    const controller = new AbortController();
    for (let listing = 0; listing < 3; listing++) {
      const items = await jobs().toArray({ concurrency: 4, signal: controller.signal });
      assert.equal(items.length, 450);
      assert.equal(getEventListeners(controller.signal, 'abort').length, 0, `after listing ${listing + 1}`);
    }
    for await (const item of jobs().all({ concurrency: 4, signal: controller.signal })) {
      if (item.id === 150) break;
    }
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'after stopping early');
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
    assert.deepEqual(ids(items), oneTo(150));
    assert.equal(foreign.seen.length, 0, 'the other origin was never contacted');
    const pages = pagesRequested(server.seen).sort((a, b) => a - b);
    assert.deepEqual(pages.slice(0, 2), [1, 2]);
    assert.ok(pages.length <= 3, `pages ${pages.join(',')}`);
  });

  it('stops with a clear error when only a foreign Link says where the next page is', async () => {
    serveList(server, { total: 150, withTotals: false, linkOrigin: foreign.url, withNextPageHeader: false });
    await assert.rejects(
      jobs().toArray(),
      (error: unknown) =>
        error instanceof CrossOriginError &&
        error.message.startsWith('GET /projects/1/jobs: the server pointed to another site') &&
        error.foreignOrigin === new URL(foreign.url).origin,
    );
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

  it('keeps a link whose parameters hold a quoted comma, and reads the link after it', () => {
    const links = parseLinkHeader(
      '<https://h/api/v4/x?page=2>; title="pages, more"; rel="next", <https://h/api/v4/x?page=5>; rel="last"',
    );
    assert.equal(links.get('next'), 'https://h/api/v4/x?page=2');
    assert.equal(links.get('last'), 'https://h/api/v4/x?page=5');
    assert.equal(links.size, 2);
  });

  it('reads rel with spaces around the equals sign, as RFC 8288 allows, and skips parameters without a value', () => {
    const links = parseLinkHeader(
      '<https://h/api/v4/x?page=2>; crossorigin; rel = "next", <https://h/api/v4/x?page=3>; REL= last',
    );
    assert.deepEqual(
      [...links],
      [
        ['next', 'https://h/api/v4/x?page=2'],
        ['last', 'https://h/api/v4/x?page=3'],
      ],
    );
  });

  it('keeps the first link of a rel given twice, and no link for an empty rel', () => {
    const links = parseLinkHeader(
      '<https://h/api/v4/x?page=2>; rel="next", <https://h/api/v4/x?page=7>; rel="next", <https://h/api/v4/x?page=9>; rel=""',
    );
    assert.deepEqual([...links], [['next', 'https://h/api/v4/x?page=2']]);
  });

  it('returns nothing for a missing, malformed or hostile header (a single scan: no backtracking)', () => {
    assert.equal(parseLinkHeader(undefined).size, 0);
    assert.equal(parseLinkHeader('garbage').size, 0);
    const hostile = `<${'a'.repeat(100_000)}; rel="${'"'.repeat(50_000)}`;
    assert.equal(parseLinkHeader(hostile).size, 0);
  });
});
