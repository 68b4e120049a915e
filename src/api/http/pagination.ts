import type { z } from 'zod';
import { CrossOriginError, ForgeError } from './errors';
import { parseLinkHeader } from './linkHeader';
import { inOrderWithBound } from './inOrderWithBound';
import { linkedAbort } from './linkedAbort';
import { RunawayGuard } from './runawayGuard';
import {
  type HttpTransport,
  type Query,
  type ReceivedJson,
  type ResponseHeaders,
  headerValue,
} from './transport';
import { parseReply } from './validate';
import * as l10n from '@vscode/l10n';

export const MAX_PER_PAGE = 100;
/**
 * Pages in flight at once when listing everything. Eight requests from one client is well within
 * what GitLab serves (its rate limits count requests per minute, not concurrent ones) and within
 * the transport's 16 connections per origin.
 */
export const DEFAULT_PAGE_CONCURRENCY = 8;
/** Without totals, pages past the end cannot be ruled out: the read-ahead starts this wide and doubles. */
const FIRST_READ_AHEAD = 2;

export interface PageRequest {
  /** Path relative to the API root, already encoded. */
  path: string;
  query?: Query;
  /** Name of the endpoint for error messages, e.g. `GET /projects/:id/jobs`. */
  endpoint: string;
}

export interface PageOptions {
  page?: number;
  perPage?: number;
  signal?: AbortSignal;
}

export interface ListOptions {
  perPage?: number;
  signal?: AbortSignal;
  /** How many pages may be in flight at once (default `DEFAULT_PAGE_CONCURRENCY`). */
  concurrency?: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  perPage: number;
  /** Only when the server sends `X-Total` (real servers omit it above 10,000 rows). */
  total: number | undefined;
  totalPages: number | undefined;
  /** Absolute URL of the next page on the configured server, if there is one. */
  nextUrl: string | undefined;
}

function optionalInt(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isInteger(number) ? number : undefined;
}

function clampPerPage(perPage: number | undefined): number {
  return Math.min(MAX_PER_PAGE, Math.max(1, Math.floor(perPage ?? MAX_PER_PAGE)));
}

/**
 * Where the next page is: the `Link rel="next"` target as given when it is on the configured
 * server, else `X-Next-Page` applied to the URL just fetched. A link to another origin is never
 * requested, so credentials cannot follow it.
 */
export function resolveNextUrl(
  headers: ResponseHeaders,
  currentUrl: URL,
  transport: HttpTransport,
): URL | undefined {
  const next = parseLinkHeader(headerValue(headers, 'link')).get('next');
  const nextPage = optionalInt(headerValue(headers, 'x-next-page'));
  if (next !== undefined) {
    const url = new URL(next, currentUrl);
    if (url.origin === transport.origin) return url;
    if (nextPage === undefined) {
      throw new CrossOriginError(`GET ${transport.displayPath(currentUrl)}`, url.origin);
    }
  }
  if (nextPage === undefined) return undefined;
  const url = new URL(currentUrl);
  url.searchParams.set('page', String(nextPage));
  return url;
}

/** A page's reply with its body in, not yet parsed, and the URL it was asked at. */
interface ReceivedPage {
  url: URL;
  reply: ReceivedJson;
}

async function receivePageAt(
  transport: HttpTransport,
  url: URL,
  signal: AbortSignal | undefined,
): Promise<ReceivedPage> {
  return { url, reply: await transport.receiveJson({ method: 'GET', path: url.toString(), signal }) };
}

function decodePage<S extends z.ZodType>(
  transport: HttpTransport,
  { url, reply }: ReceivedPage,
  itemSchema: S,
  endpoint: string,
): Page<z.infer<S>> {
  const response = reply.decode();
  const data = response.data ?? [];
  if (!Array.isArray(data)) {
    throw new ForgeError(l10n.t('Unexpected reply from {0}: expected a list', endpoint));
  }
  const items = data.map((item, index) =>
    // The label is made only for an item that does not fit: a page holds up to 100 items.
    parseReply(itemSchema, item, () => l10n.t('{0} [item {1}]', endpoint, index)),
  );
  const { headers } = response;
  return {
    items,
    page: optionalInt(headerValue(headers, 'x-page')) ?? Number(url.searchParams.get('page') ?? 1),
    perPage:
      optionalInt(headerValue(headers, 'x-per-page')) ?? Number(url.searchParams.get('per_page') ?? 20),
    total: optionalInt(headerValue(headers, 'x-total')),
    totalPages: optionalInt(headerValue(headers, 'x-total-pages')),
    nextUrl: resolveNextUrl(headers, response.url, transport)?.toString(),
  };
}

async function fetchPageAt<S extends z.ZodType>(
  transport: HttpTransport,
  url: URL,
  itemSchema: S,
  endpoint: string,
  signal: AbortSignal | undefined,
): Promise<Page<z.infer<S>>> {
  return decodePage(transport, await receivePageAt(transport, url, signal), itemSchema, endpoint);
}

/** One page, with the totals when the server sends them. */
export function fetchPage<S extends z.ZodType>(
  transport: HttpTransport,
  request: PageRequest,
  itemSchema: S,
  options: PageOptions = {},
): Promise<Page<z.infer<S>>> {
  const url = transport.urlFor(request.path, {
    ...request.query,
    page: options.page ?? 1,
    per_page: clampPerPage(options.perPage),
  });
  return fetchPageAt(transport, url, itemSchema, request.endpoint, options.signal);
}

/** Fetches a page by the `nextUrl` another page reported ("Load more"). */
export async function fetchNextPage<S extends z.ZodType>(
  transport: HttpTransport,
  nextUrl: string,
  endpoint: string,
  itemSchema: S,
  signal?: AbortSignal,
): Promise<Page<z.infer<S>>> {
  const url = new URL(nextUrl);
  if (url.origin !== transport.origin) throw new CrossOriginError(endpoint, url.origin);
  return await fetchPageAt(transport, url, itemSchema, endpoint, signal);
}

/**
 * How many pages each list had the last time this client read all of it, by the URL of its first
 * page. A list read again (a refresh) is then asked for its first window of pages at once, instead
 * of its first page alone and the rest after it: one round trip less, and nothing asked in vain for
 * a list that was short. Kept per transport (one per account), for the most recent lists only.
 */
const pageCountHints = new WeakMap<HttpTransport, Map<string, number>>();
const MAX_PAGE_COUNT_HINTS = 200;

function hintsOf(transport: HttpTransport): Map<string, number> {
  let hints = pageCountHints.get(transport);
  if (!hints) {
    hints = new Map();
    pageCountHints.set(transport, hints);
  }
  return hints;
}

function rememberPageCount(transport: HttpTransport, key: string, pages: number): void {
  const hints = hintsOf(transport);
  hints.delete(key);
  if (pages <= 1) return;
  hints.set(key, pages);
  if (hints.size > MAX_PAGE_COUNT_HINTS) {
    const oldest = hints.keys().next();
    if (oldest.done !== true) hints.delete(oldest.value);
  }
}

/** Whether two URLs are the same, whatever the order of their query parameters. */
function sameUrl(a: URL, b: URL): boolean {
  const [sortedA, sortedB] = [new URL(a), new URL(b)];
  sortedA.searchParams.sort();
  sortedB.searchParams.sort();
  return sortedA.toString() === sortedB.toString();
}

function withPage(template: URL, page: number): URL {
  const url = new URL(template);
  url.searchParams.set('page', String(page));
  return url;
}

/**
 * Every item of a list, in server order. After the first page, the following pages are fetched
 * several at a time and yielded in order: up to the announced last page when the server sends
 * `X-Total-Pages`; otherwise (real servers omit it above 10,000 rows) ahead of the pages received,
 * until one comes back empty or without a next page, the requests past it then being cancelled.
 * A list this client read before with several pages starts with that many (up to the window)
 * together with the first. Next links that are not page numbers (keyset pagination) are followed
 * one by one.
 */
export async function* paginate<S extends z.ZodType>(
  transport: HttpTransport,
  request: PageRequest,
  itemSchema: S,
  options: ListOptions = {},
): AsyncGenerator<z.infer<S>, void, undefined> {
  const internal = linkedAbort(options.signal);
  const signal = internal.signal;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_PAGE_CONCURRENCY);
  const receiveAt = (url: URL, pageSignal: AbortSignal): Promise<ReceivedPage> =>
    receivePageAt(transport, url, pageSignal);
  const decode = (received: ReceivedPage): Page<z.infer<S>> =>
    decodePage(transport, received, itemSchema, request.endpoint);
  const fetchAt = (url: URL, pageSignal: AbortSignal): Promise<Page<z.infer<S>>> =>
    fetchPageAt(transport, url, itemSchema, request.endpoint, pageSignal);
  const firstUrl = transport.urlFor(request.path, {
    ...request.query,
    page: 1,
    per_page: clampPerPage(options.perPage),
  });
  const hintKey = firstUrl.toString();
  const hinted = Math.min(hintsOf(transport).get(hintKey) ?? 1, concurrency);
  // Asked first, so that a server answering in order sends it first: nothing is yielded before it.
  const firstPage = fetchAt(firstUrl, signal);
  firstPage.catch(() => undefined);
  const earlyStop = linkedAbort(signal);
  const early = askEarlyPages(receiveAt, firstUrl, hinted, earlyStop.signal);
  const guard = new RunawayGuard(request.endpoint, transport.maxListPages);
  try {
    const first = await firstPage;
    guard.check(first);
    yield* first.items;
    let pagesRead = 1;
    let nextUrl = first.items.length > 0 ? first.nextUrl : undefined;
    if (nextUrl !== undefined && pageNumberOf(nextUrl) === first.page + 1) {
      const lastPage = first.totalPages;
      const template = new URL(nextUrl);
      // The early pages stand for the server's own next links only when those are the same URLs.
      const earlyUsable = first.page === 1 && sameUrl(withPage(template, 2), withPage(firstUrl, 2));
      if (!earlyUsable) earlyStop.controller.abort();
      const started = earlyUsable ? early : [];
      // With a known end nothing is fetched in vain: the whole window at once, and each reply
      // that comes in lets the next page start (up to a window more held ahead of the consumer),
      // so the server has pages to serve while others are on their way. The early pages count in
      // the window.
      let window = lastPage === undefined ? Math.min(FIRST_READ_AHEAD, concurrency) : concurrency;
      const from = first.page + 1 + started.length;
      const pages = inOrderWithBound(pageUrls(template, from, lastPage), receiveAt, decode, {
        bound: () => window,
        lead: lastPage === undefined ? undefined : () => 2 * window,
        signal,
        started,
        isLast: (page) => page.items.length === 0 || page.nextUrl === undefined,
      });
      for await (const page of pages) {
        guard.check(page);
        yield* page.items;
        if (page.items.length > 0) pagesRead = page.page;
        nextUrl = page.items.length > 0 ? page.nextUrl : undefined;
        // The end, or a next link that is not the following page number: stop reading ahead
        // (the generator's return cancels what is in flight) and follow the link as given.
        if (nextUrl === undefined || pageNumberOf(nextUrl) !== page.page + 1) break;
        window = Math.min(concurrency, window * 2);
      }
      if (nextUrl === undefined) rememberPageCount(transport, hintKey, pagesRead);
    } else if (nextUrl === undefined) {
      rememberPageCount(transport, hintKey, 1);
    }
    // Early pages not taken (the list ended sooner, or its links changed shape) are not waited for.
    earlyStop.controller.abort();
    // One by one: keyset links, a list that grew past its announced total.
    while (nextUrl !== undefined) {
      const page = await fetchAt(new URL(nextUrl), signal);
      guard.check(page);
      yield* page.items;
      nextUrl = page.items.length > 0 ? page.nextUrl : undefined;
    }
  } finally {
    // Stops pages still in flight when the consumer breaks out early or a page failed.
    earlyStop.controller.abort();
    earlyStop.release();
    internal.controller.abort();
    internal.release();
  }
}

/** Pages 2 … `hinted` of a list read before, asked at once beside its first page. */
function askEarlyPages(
  receiveAt: (url: URL, signal: AbortSignal) => Promise<ReceivedPage>,
  firstUrl: URL,
  hinted: number,
  signal: AbortSignal,
): Promise<ReceivedPage>[] {
  const early: Promise<ReceivedPage>[] = [];
  for (let page = 2; page <= hinted; page++) {
    const promise = receiveAt(withPage(firstUrl, page), signal);
    // Awaited in order, or dropped when the list changed shape; never an unhandled rejection.
    promise.catch(() => undefined);
    early.push(promise);
  }
  return early;
}

/** The `page` parameter of a page URL, or undefined when it has none (keyset pagination). */
function pageNumberOf(url: string): number | undefined {
  const page = new URL(url).searchParams.get('page');
  return page === null ? undefined : optionalInt(page);
}

/** URLs of pages `from` … `to` (without end when `to` is undefined), the template's other parameters kept. */
function* pageUrls(template: URL, from: number, to: number | undefined): Generator<URL, void, undefined> {
  for (let page = from; to === undefined || page <= to; page++) {
    const url = new URL(template);
    url.searchParams.set('page', String(page));
    yield url;
  }
}

/**
 * A list endpoint bound to its path and filters: iterate it for every item, or take one page
 * at a time ("Load more") with `page()` and `next()`.
 */
export class ListRequest<S extends z.ZodType> implements AsyncIterable<z.infer<S>> {
  constructor(
    private readonly transport: HttpTransport,
    readonly request: PageRequest,
    private readonly itemSchema: S,
  ) {}

  page(options: PageOptions = {}): Promise<Page<z.infer<S>>> {
    return fetchPage(this.transport, this.request, this.itemSchema, options);
  }

  /** The page a previous page pointed to with `nextUrl`. */
  next(nextUrl: string, signal?: AbortSignal): Promise<Page<z.infer<S>>> {
    return fetchNextPage(this.transport, nextUrl, this.request.endpoint, this.itemSchema, signal);
  }

  all(options: ListOptions = {}): AsyncGenerator<z.infer<S>, void, undefined> {
    return paginate(this.transport, this.request, this.itemSchema, options);
  }

  async toArray(options: ListOptions = {}): Promise<z.infer<S>[]> {
    const items: z.infer<S>[] = [];
    for await (const item of this.all(options)) items.push(item);
    return items;
  }

  [Symbol.asyncIterator](): AsyncIterator<z.infer<S>> {
    return this.all();
  }
}
