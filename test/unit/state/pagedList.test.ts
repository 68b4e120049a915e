import assert from 'node:assert/strict';
import { type LoadedPage, PagedList } from '../../../src/state/pagedList';

function pagesOf(total: number, size: number) {
  const calls: (string | undefined)[] = [];
  const loader = (nextUrl: string | undefined): Promise<LoadedPage<number>> => {
    calls.push(nextUrl);
    const page = nextUrl ? Number(nextUrl) : 1;
    const start = (page - 1) * size;
    const items = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => start + i);
    return Promise.resolve({ items, nextUrl: start + size < total ? String(page + 1) : undefined, total });
  };
  return { calls, loader };
}

describe('PagedList', () => {
  it('loads one page at a time and knows when there is more', async () => {
    const { calls, loader } = pagesOf(25, 10);
    const list = new PagedList(loader);
    assert.equal(list.status, 'idle');
    await list.ensureLoaded();
    assert.equal(list.items.length, 10);
    assert.equal(list.hasMore, true);
    await list.ensureLoaded();
    assert.equal(calls.length, 1, 'ensureLoaded does not refetch');
    await list.loadNext();
    await list.loadNext();
    assert.equal(list.items.length, 25);
    assert.equal(list.hasMore, false);
    await list.loadNext();
    assert.deepEqual(calls, [undefined, '2', '3']);
  });

  it('shares one request between concurrent calls', async () => {
    const { calls, loader } = pagesOf(25, 10);
    const list = new PagedList(loader);
    await Promise.all([list.loadNext(), list.loadNext(), list.ensureLoaded()]);
    assert.equal(calls.length, 1);
  });

  it('keeps what it had after a failed page and retries the same page', async () => {
    let fail = false;
    const { calls, loader } = pagesOf(30, 10);
    const list = new PagedList((next: string | undefined) =>
      fail ? Promise.reject(new Error('boom')) : loader(next),
    );
    await list.ensureLoaded();
    fail = true;
    await list.loadNext();
    assert.equal(list.status, 'error');
    assert.equal(list.items.length, 10);
    assert.match(String(list.error), /boom/);
    fail = false;
    await list.loadNext();
    assert.equal(list.items.length, 20);
    assert.equal(list.error, undefined);
    assert.deepEqual(calls, [undefined, '2']);
  });

  it('retries the first page after it failed', async () => {
    let fail = true;
    const { loader } = pagesOf(5, 10);
    const list = new PagedList((next: string | undefined) =>
      fail ? Promise.reject(new Error('down')) : loader(next),
    );
    await list.ensureLoaded();
    assert.equal(list.status, 'error');
    fail = false;
    await list.ensureLoaded();
    assert.equal(list.items.length, 5);
  });

  it('drops a removed item and lowers the total; reset forgets everything', async () => {
    const { loader } = pagesOf(25, 10);
    const list = new PagedList(loader);
    await list.ensureLoaded();
    list.remove((item) => item === 3);
    assert.equal(list.items.includes(3), false);
    assert.equal(list.total, 24);
    list.reset();
    assert.equal(list.status, 'idle');
    assert.equal(list.items.length, 0);
  });

  it('ignores a page that arrives after a reset', async () => {
    let release: () => void = () => undefined;
    const list = new PagedList<number>(
      () => new Promise((resolve) => (release = () => resolve({ items: [1], nextUrl: undefined, total: 1 }))),
    );
    const pending = list.loadNext();
    list.reset();
    release();
    await pending;
    assert.equal(list.items.length, 0);
  });

  it('loads every page left ("Load All"), saying how many after each, until cancelled or a page fails', async () => {
    const { calls, loader } = pagesOf(95, 20);
    const list = new PagedList(loader);
    await list.ensureLoaded();
    const heard: [number, number | undefined][] = [];
    await list.loadAll(new AbortController().signal, (loaded, total) => heard.push([loaded, total]));
    assert.equal(list.items.length, 95);
    assert.equal(list.hasMore, false);
    assert.deepEqual(heard, [
      [40, 95],
      [60, 95],
      [80, 95],
      [95, 95],
    ]);
    assert.equal(calls.length, 5);

    const cancelled = new PagedList(pagesOf(95, 20).loader);
    const controller = new AbortController();
    await cancelled.loadAll(controller.signal, (loaded) => {
      if (loaded >= 40) controller.abort();
    });
    assert.equal(cancelled.items.length, 40, 'stops after the page in flight');

    let failAt = 3;
    const failing = new PagedList<number>((nextUrl) =>
      --failAt === 0 ? Promise.reject(new Error('boom')) : pagesOf(95, 20).loader(nextUrl),
    );
    await failing.loadAll(new AbortController().signal);
    assert.equal(failing.items.length, 40);
    assert.equal(failing.status, 'error', 'the failure stays for its Retry row');
  });
});

describe('PagedList.reload (the automatic refresh)', () => {
  /** Pages of `size` from `items()`, read when asked; `gate` holds every read until released. */
  function livePages(items: () => number[], size: number) {
    const calls: (string | undefined)[] = [];
    let fail = false;
    const loader = (nextUrl: string | undefined): Promise<LoadedPage<number>> => {
      calls.push(nextUrl);
      if (fail) return Promise.reject(new Error('server down'));
      const all = items();
      const start = nextUrl ? Number(nextUrl) : 0;
      const next = start + size < all.length ? String(start + size) : undefined;
      return Promise.resolve({ items: all.slice(start, start + size), nextUrl: next, total: all.length });
    };
    return { calls, loader, failing: (value: boolean) => (fail = value) };
  }

  it('reads as far as "Load more" had gone and swaps the items in at once', async () => {
    let all = Array.from({ length: 35 }, (_, i) => i);
    const { calls, loader } = livePages(() => all, 10);
    const list = new PagedList(loader);
    await list.ensureLoaded();
    await list.loadNext();
    assert.equal(list.items.length, 20);
    all = [100, ...all];
    calls.length = 0;
    const reading = list.reload();
    assert.equal(list.items.length, 20, 'the old items stay while the new ones are read');
    assert.deepEqual(list.items.slice(0, 2), [0, 1]);
    await reading;
    assert.deepEqual(calls, [undefined, '10'], 'two pages: as many as were shown');
    assert.deepEqual(list.items.slice(0, 3), [100, 0, 1]);
    assert.equal(list.items.length, 20);
    assert.equal(list.total, 36);
    assert.equal(list.hasMore, true);
    await list.loadNext();
    assert.equal(list.items.length, 30, '"Load more" goes on from where the new reading ended');
    assert.deepEqual(calls.slice(-1), ['20']);
  });

  it('reads at most mostPages pages, and stops when the list has ended', async () => {
    let all = Array.from({ length: 50 }, (_, i) => i);
    const { calls, loader } = livePages(() => all, 10);
    const list = new PagedList(loader);
    await list.loadAll(new AbortController().signal);
    assert.equal(list.items.length, 50);
    calls.length = 0;
    await list.reload(3);
    assert.equal(calls.length, 3);
    assert.equal(list.items.length, 30);
    assert.equal(list.hasMore, true);
    all = all.slice(0, 12);
    calls.length = 0;
    await list.reload();
    assert.deepEqual(calls, [undefined, '10']);
    assert.equal(list.items.length, 12);
    assert.equal(list.hasMore, false);
  });

  it('keeps what was shown when a page fails, and says so', async () => {
    const all = Array.from({ length: 30 }, (_, i) => i);
    const { loader, failing } = livePages(() => all, 10);
    const list = new PagedList(loader);
    await list.ensureLoaded();
    await list.loadNext();
    failing(true);
    await assert.rejects(list.reload(), /server down/);
    assert.equal(list.items.length, 20);
    assert.equal(list.status, 'loaded', 'no error row for a refresh that failed; the list stays');
    failing(false);
    await list.loadNext();
    assert.equal(list.items.length, 30);
  });

  it('starts over a list not read yet or whose last read failed', async () => {
    const { calls, loader, failing } = livePages(() => [1, 2, 3], 2);
    const list = new PagedList(loader);
    await list.reload();
    assert.deepEqual(list.items, [1, 2]);
    failing(true);
    await list.loadNext();
    assert.equal(list.status, 'error');
    failing(false);
    calls.length = 0;
    await list.reload();
    assert.deepEqual(calls, [undefined]);
    assert.deepEqual(list.items, [1, 2]);
    assert.equal(list.status, 'loaded');
  });

  it('a reset during the reading wins, and a "Load more" meanwhile shares it', async () => {
    let release: () => void = () => undefined;
    let hold = false;
    const all = Array.from({ length: 30 }, (_, i) => i);
    const { calls, loader } = livePages(() => all, 10);
    const list = new PagedList(async (next: string | undefined, signal: AbortSignal) => {
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      if (signal.aborted) throw new Error('aborted');
      return loader(next);
    });
    await list.ensureLoaded();
    hold = true;
    const reading = list.reload();
    assert.equal(list.status, 'loading');
    const more = list.loadNext();
    list.reset();
    release();
    await reading;
    await more;
    assert.equal(list.items.length, 0, 'the reset is what shows');
    assert.equal(list.status, 'idle');
    assert.ok(calls.length <= 2);
  });
});
