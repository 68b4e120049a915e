// The trace follower at its edges: a stop while a read is in flight, sources that stream big pieces,
// drop more than asked or cut a character, which errors end the follow, and the 404 of a job that
// has written nothing yet.
import assert from 'node:assert/strict';
import {
  type FollowerTimers,
  type TraceFetchResult,
  TraceFollower,
  type TraceFollowerListener,
  type TraceFollowerOptions,
  type TraceSource,
  TEXT_PIECE_BYTES,
  decodeText,
  isJobFinished,
  jobTraceSource,
} from '../../../src/state/traceFollower';

interface Job {
  id: number;
  status: string;
}

/** Timers run by hand; every pending one is kept, so a timer left behind shows. */
class Timers implements FollowerTimers {
  private next = 1;
  readonly pending = new Map<number, () => void>();
  setTimeout(callback: () => void, _ms: number): unknown {
    const handle = this.next++;
    this.pending.set(handle, callback);
    return handle;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  async runAll(follower: TraceFollower<Job>): Promise<void> {
    const callbacks = [...this.pending.values()];
    this.pending.clear();
    for (const callback of callbacks) callback();
    await follower.settled();
  }
}

function recorder() {
  const events: string[] = [];
  const listener: TraceFollowerListener<Job> = {
    onBytes: decodeText((text, replaced) => events.push(`${replaced ? 'replace' : 'append'}:${text}`)),
    onJob: (job) => events.push(`job:${job.status}`),
    onEnd: (job) => events.push(`end:${job.status}`),
    onError: (error, willRetry) => events.push(`error:${(error as Error).message}:${String(willRetry)}`),
  };
  return { events, listener };
}

/** A follower of `source` on hand-run timers, started; what it tells its listener is in `events`. */
function started(source: TraceSource<Job>, options: Omit<TraceFollowerOptions, 'timers'> = {}) {
  const { events, listener } = recorder();
  const timers = new Timers();
  const follower = new TraceFollower(source, listener, { timers, ...options });
  follower.start();
  return { events, timers, follower };
}

/** A deferred answer, for a read that is still in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const whole = (text: string, etag = text): TraceFetchResult => ({
  unchanged: false,
  bytes: utf8(text),
  etag,
});

/**
 * A running job whose trace is `text()`: a read from the start streams it in pieces of 600 bytes
 * (more than the follower's overlap check), and a read from an offset sends only the end.
 */
function streamedInBigPieces(text: () => string): TraceSource<Job> {
  return {
    fetchTrace: (_etag, _signal, from, onBytes) => {
      const bytes = utf8(text());
      if (onBytes)
        for (let start = 0; start < bytes.length; start += 600)
          void onBytes(bytes.subarray(start, start + 600), start);
      const offset = Math.min(from ?? 0, bytes.length);
      return Promise.resolve({ unchanged: false, bytes: bytes.subarray(offset), offset, etag: text() });
    },
    fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
  };
}

describe('TraceFollower edges', () => {
  it('hands on nothing from a read that finishes after stop, and reports no error from one that fails after it', async () => {
    for (const outcome of ['resolve', 'reject'] as const) {
      const trace = deferred<TraceFetchResult>();
      const source: TraceSource<Job> = {
        fetchTrace: () => trace.promise,
        fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
      };
      const { events, timers, follower } = started(source);
      const polled = timers.runAll(follower);
      follower.stop();
      if (outcome === 'resolve') trace.resolve(whole('late text'));
      else trace.reject(new Error('aborted'));
      await polled;
      assert.deepEqual(events, [], outcome);
      assert.equal(timers.pending.size, 0, 'nothing scheduled after stop');
    }
  });

  it('does not end a follow that was stopped during the last read', async () => {
    let reads = 0;
    const last = deferred<TraceFetchResult>();
    const source: TraceSource<Job> = {
      fetchTrace: () => (++reads === 1 ? Promise.resolve(whole('done')) : last.promise),
      fetchJob: () => Promise.resolve({ id: 1, status: 'success' }),
    };
    const { events, timers, follower } = started(source);
    const polled = timers.runAll(follower);
    await new Promise((resolve) => setImmediate(resolve));
    follower.stop();
    last.resolve(whole('done'));
    await polled;
    assert.deepEqual(events, ['append:done', 'job:success']);
  });

  it('polling now replaces the poll that was waiting, and never runs two at once', async () => {
    let reads = 0;
    const inFlight = deferred<TraceFetchResult>();
    const source: TraceSource<Job> = {
      fetchTrace: () => (++reads === 2 ? inFlight.promise : Promise.resolve(whole('a'))),
      fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
    };
    const { timers, follower } = started(source);
    await timers.runAll(follower);
    assert.equal(timers.pending.size, 1, 'the next poll waits');
    follower.pollNow();
    assert.equal(timers.pending.size, 1, 'the waiting poll was replaced, not doubled');
    const polled = timers.runAll(follower);
    follower.pollNow();
    assert.equal(timers.pending.size, 0, 'no second poll while one is in flight');
    inFlight.resolve(whole('a'));
    await polled;
    assert.equal(reads, 2);
    follower.stop();
    follower.pollNow();
    assert.equal(timers.pending.size, 0, 'nothing after stop');
  });

  it('keeps following after a streamed first read in pieces bigger than the overlap check', async () => {
    let text = 'x'.repeat(1000);
    const source = streamedInBigPieces(() => text);
    const { events, timers, follower } = started(source);
    await timers.runAll(follower);
    text += 'more';
    await timers.runAll(follower);
    assert.deepEqual(
      events.map((event) => event.slice(0, 12)),
      ['append:xxxxx', 'append:xxxxx', 'job:running', 'append:more'],
    );
  });

  it('tells a rewrite from an append after a first read streamed in pieces bigger than the overlap check', async () => {
    let text = 'x'.repeat(1000);
    const source = streamedInBigPieces(() => text);
    const { events, timers, follower } = started(source);
    await timers.runAll(follower);
    text = `${'y'.repeat(1000)}and more`;
    await timers.runAll(follower);
    assert.equal(events.at(-1), `replace:${text}`);
  });

  it('backs off after a first read of an empty trace, streamed or not', async () => {
    const source: TraceSource<Job> = {
      fetchTrace: (_etag, _signal, _from, onBytes) => {
        void onBytes?.(new Uint8Array(0), 0);
        return Promise.resolve({ unchanged: false, bytes: new Uint8Array(0), etag: undefined });
      },
      fetchJob: () => Promise.resolve({ id: 1, status: 'pending' }),
    };
    const { timers, follower } = started(source, { minIntervalMs: 1000, backoffFactor: 2 });
    await timers.runAll(follower);
    assert.equal(follower.currentIntervalMs, 2000);
  });

  it('polls with the real timers when none are given, and stops', async () => {
    let reads = 0;
    const source: TraceSource<Job> = {
      fetchTrace: () => {
        reads++;
        return Promise.resolve(whole('text'));
      },
      fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
    };
    const { events, listener } = recorder();
    const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    // Mocha starts its own timeout timer once the test has returned its promise: count after that.
    await new Promise((resolve) => setImmediate(resolve));
    const before = timers();
    const follower = new TraceFollower(source, listener, { minIntervalMs: 60_000 });
    follower.start();
    let waiting: number;
    try {
      for (let wait = 0; wait < 100 && reads === 0; wait++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      await follower.settled();
      waiting = timers();
    } finally {
      follower.stop();
    }
    assert.ok(waiting > before, 'the next poll was waiting on a real timer');
    assert.equal(timers(), before, 'stop clears it: nothing is left to wake the extension host');
    assert.equal(reads, 1);
    assert.deepEqual(events, ['append:text', 'job:running']);
  });

  it('reads the whole trace again when a source drops more than asked, or the trace got shorter', async () => {
    // Longer than the overlap check, so that the second read asks for the end only.
    const first = `${'a'.repeat(300)}\n`;
    for (const shape of ['dropped too much', 'shorter'] as const) {
      let reads = 0;
      const source: TraceSource<Job> = {
        fetchTrace: (_etag, _signal, from) => {
          reads++;
          if (reads === 1) return Promise.resolve(whole(first, 'a'));
          if (from === 0) return Promise.resolve(whole('rewritten\n', 'c'));
          if (shape === 'shorter')
            return Promise.resolve({ unchanged: false, bytes: utf8('t\n'), offset: 9, etag: 'b' });
          return Promise.resolve({
            unchanged: false,
            bytes: utf8('x\n'),
            offset: (from ?? 0) + 5,
            etag: 'b',
          });
        },
        fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
      };
      const { events, timers, follower } = started(source);
      await timers.runAll(follower);
      await timers.runAll(follower);
      assert.deepEqual(events, [`append:${first}`, 'job:running', 'replace:rewritten\n'], shape);
      assert.equal(reads, 3, shape);
    }
  });

  it('reads a rewritten trace once from a source that always sends all of it', async () => {
    let text = 'old trace\n';
    let reads = 0;
    const source: TraceSource<Job> = {
      fetchTrace: () => {
        reads++;
        return Promise.resolve(whole(text));
      },
      fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
    };
    const { events, timers, follower } = started(source);
    await timers.runAll(follower);
    text = 'new trace\n';
    await timers.runAll(follower);
    assert.equal(reads, 2);
    assert.deepEqual(events, ['append:old trace\n', 'job:running', 'replace:new trace\n']);
  });

  it('does not stream a later read: a rewritten trace is never handed on as appended text', async () => {
    let text = 'abc\n';
    const streamedOffsets: number[] = [];
    const source: TraceSource<Job> = {
      fetchTrace: (_etag, _signal, _from, onBytes) => {
        const bytes = utf8(text);
        if (onBytes) {
          streamedOffsets.push(0);
          void onBytes(bytes, 0);
        }
        return Promise.resolve({ unchanged: false, bytes, offset: 0, etag: text });
      },
      fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
    };
    const { events, timers, follower } = started(source);
    await timers.runAll(follower);
    text = 'XYZ\nlonger now\n';
    await timers.runAll(follower);
    assert.deepEqual(events, ['append:abc\n', 'job:running', 'replace:XYZ\nlonger now\n']);
    assert.deepEqual(streamedOffsets, [0]);
  });

  it('ignores a streamed piece that starts past what it has', async () => {
    const source: TraceSource<Job> = {
      fetchTrace: (_etag, _signal, _from, onBytes) => {
        void onBytes?.(utf8('later'), 100);
        void onBytes?.(utf8('start'), 0);
        return Promise.resolve(whole('start'));
      },
      fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
    };
    const { events, timers, follower } = started(source);
    await timers.runAll(follower);
    assert.deepEqual(events, ['append:start', 'job:running']);
  });

  it('never hands on empty text when a streamed piece ends inside a character', async () => {
    const euro = utf8('€€');
    const source: TraceSource<Job> = {
      fetchTrace: (_etag, _signal, _from, onBytes) => {
        for (let start = 0; start < euro.length; start++)
          void onBytes?.(euro.subarray(start, start + 1), start);
        return Promise.resolve({ unchanged: false, bytes: euro, etag: 'e' });
      },
      fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
    };
    const { events, timers, follower } = started(source);
    await timers.runAll(follower);
    assert.deepEqual(events, ['append:€', 'append:€', 'job:running']);
  });

  it('hands the listener’s pause back to a streaming first read, and nothing for the pieces it skips', async () => {
    const whole = utf8('one\ntwo\n');
    const handedBack: unknown[] = [];
    const source: TraceSource<Job> = {
      fetchTrace: (_etag, _signal, _from, onBytes) => {
        handedBack.push(
          onBytes?.(whole.subarray(0, 4), 0),
          onBytes?.(whole.subarray(0, 4), 0), // a retried read's piece the follower already has
          onBytes?.(whole.subarray(4), 4),
        );
        return Promise.resolve({ unchanged: false, bytes: whole, etag: 'e' });
      },
      fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
    };
    const pause = new Promise<void>((resolve) => setTimeout(resolve, 1));
    let calls = 0;
    const timers = new Timers();
    const follower = new TraceFollower(
      source,
      { ...recorder().listener, onBytes: () => (++calls === 1 ? pause : undefined) },
      { timers },
    );
    follower.start();
    await timers.runAll(follower);
    assert.deepEqual(handedBack, [pause, undefined, undefined]);
    assert.equal(calls, 2);
  });

  it('hands on a first read from a source that does not stream in one piece, and a cut character of a rewrite with the next read', async () => {
    const big = utf8('y'.repeat(100_000));
    let result: TraceFetchResult = { unchanged: false, bytes: big, etag: 'big' };
    const source: TraceSource<Job> = {
      fetchTrace: () => Promise.resolve(result),
      fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
    };
    const pieces: { bytes: number[]; replaced: boolean }[] = [];
    const timers = new Timers();
    const follower = new TraceFollower(
      source,
      {
        ...recorder().listener,
        onBytes: (bytes, replaced) => {
          pieces.push({ bytes: [...bytes], replaced });
        },
      },
      { timers },
    );
    follower.start();
    await timers.runAll(follower);
    assert.equal(pieces.length, 1);
    assert.deepEqual(pieces[0], { bytes: [...big], replaced: false });
    const euro = utf8('new €');
    result = { unchanged: false, bytes: euro.subarray(0, euro.length - 1), etag: 'cut' };
    await timers.runAll(follower);
    result = { unchanged: false, bytes: euro, etag: 'whole' };
    await timers.runAll(follower);
    // Bytes, never decoded: the half character comes as it is, its end with the next read.
    assert.deepEqual(pieces.slice(1), [
      { bytes: [...euro.subarray(0, euro.length - 1)], replaced: true },
      { bytes: [...euro.subarray(euro.length - 1)], replaced: false },
    ]);
  });

  it('decodeText: a rewrite comes whole in one call, appended text in pieces, a cut character waits', () => {
    const events: string[] = [];
    const onBytes = decodeText((text, replaced) => events.push(`${replaced ? 'replace' : 'append'}:${text}`));
    const euro = utf8('new €');
    onBytes(euro.subarray(0, euro.length - 1), true);
    onBytes(euro.subarray(euro.length - 1), false);
    onBytes(utf8('z'.repeat(TEXT_PIECE_BYTES + 1)), false);
    onBytes(new Uint8Array(0), true);
    assert.deepEqual(events, [
      'replace:new ',
      'append:€',
      `append:${'z'.repeat(TEXT_PIECE_BYTES)}`,
      'append:z',
      'replace:',
    ]);
    // A rewrite starts a fresh decoder: half a character before it is dropped, not joined to it.
    const after: string[] = [];
    const fresh = decodeText((text) => after.push(text));
    fresh(euro.subarray(0, euro.length - 1), false);
    fresh(utf8('ok'), true);
    assert.deepEqual(after, ['new ', 'ok']);
    // A whole rewrite larger than a piece is still one call.
    const whole: string[] = [];
    decodeText((text) => whole.push(text))(utf8('w'.repeat(TEXT_PIECE_BYTES * 2)), true);
    assert.equal(whole.length, 1);
  });

  for (const [status, fatal] of [
    [401, true],
    [403, true],
    [404, true],
    [500, false],
    [429, false],
    [undefined, false],
  ] as const) {
    it(`an error with status ${String(status)} ${fatal ? 'ends the follow' : 'is retried'}`, async () => {
      const source: TraceSource<Job> = {
        fetchTrace: () => Promise.reject(Object.assign(new Error('no'), { status })),
        fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
      };
      const { events, timers, follower } = started(source);
      await timers.runAll(follower);
      assert.deepEqual(events, [`error:no:${String(!fatal)}`]);
      assert.equal(follower.isStopped, fatal);
      assert.equal(timers.pending.size, fatal ? 0 : 1);
    });
  }

  it('counts these statuses as finished, and no others', () => {
    const finished = ['success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled'];
    const running = ['created', 'pending', 'running', 'canceling', 'preparing', 'waiting_for_resource', ''];
    for (const status of finished) assert.equal(isJobFinished(status), true, status);
    for (const status of running) assert.equal(isJobFinished(status), false, status);
  });
});

describe('jobTraceSource', () => {
  const job = { id: 9, status: 'pending' };

  it('reads a 404 of the trace as an empty trace, and passes every other failure on', async () => {
    const asked: unknown[] = [];
    const client = {
      getTrace: (project: number, jobId: number, options: { etag?: string; from?: number }) => {
        asked.push([project, jobId, options.etag, options.from]);
        return Promise.reject(
          Object.assign(new Error('missing'), { status: asked.length === 1 ? 404 : 500 }),
        );
      },
      getJob: (project: number, jobId: number, options: { signal?: AbortSignal }) => {
        asked.push(['job', project, jobId, options.signal === signal]);
        return Promise.resolve(job);
      },
    };
    const source = jobTraceSource(Promise.resolve(client), 3, 9);
    const signal = new AbortController().signal;
    const empty = await source.fetchTrace('"e"', signal, 12);
    assert.deepEqual(empty, { unchanged: false, bytes: new Uint8Array(0), etag: undefined });
    await assert.rejects(source.fetchTrace(undefined, signal), /missing/);
    assert.deepEqual(await source.fetchJob(signal), job);
    assert.deepEqual(asked, [
      [3, 9, '"e"', 12],
      [3, 9, undefined, undefined],
      ['job', 3, 9, true],
    ]);
  });
});
