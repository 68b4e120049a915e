import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import {
  TEXT_PIECE_BYTES,
  type FollowerTimers,
  type TraceFetchResult,
  TraceFollower,
  type TraceFollowerListener,
  decodeText,
  isJobFinished,
} from '../../../src/state/traceFollower';

interface Job {
  id: number;
  status: string;
}

/** A scripted server: the trace and status tests set, with ETags, and the requests seen. */
class ScriptedJob {
  text = '';
  status = 'running';
  revision = 0;
  traceReads: (string | undefined)[] = [];
  failNext: Error[] = [];

  append(more: string): void {
    this.text += more;
    this.revision++;
  }

  replace(text: string): void {
    this.text = text;
    this.revision++;
  }

  /** The offsets asked for, and whether they are honoured (the bytes before dropped, as the client does). */
  fromAsked: (number | undefined)[] = [];
  honoursFrom = true;
  /** When set, a reader that asks for pieces gets the body in this many bytes at a time, first. */
  streamPieceBytes: number | undefined;
  /** Sends pieces up to this offset twice, as a read cut off and retried by the transport does. */
  repeatStreamUpTo = 0;
  /** Streams pieces up to this offset, then fails the read (once). */
  failStreamAt: number | undefined;

  source() {
    return {
      fetchTrace: (
        etag: string | undefined,
        _signal: AbortSignal,
        from?: number,
        onBytes?: (bytes: Uint8Array, offset: number) => void,
      ): Promise<TraceFetchResult> => {
        this.traceReads.push(etag);
        this.fromAsked.push(from);
        const failure = this.failNext.shift();
        if (failure) return Promise.reject(failure);
        const current = `"r${this.revision}"`;
        if (etag === current) return Promise.resolve({ unchanged: true });
        const whole = Buffer.from(this.text, 'utf8');
        const piece = this.streamPieceBytes;
        if (onBytes && piece) {
          const send = (end: number): void => {
            for (let start = 0; start < end; start += piece)
              onBytes(whole.subarray(start, Math.min(end, start + piece)), start);
          };
          const failAt = this.failStreamAt;
          if (failAt !== undefined) {
            this.failStreamAt = undefined;
            send(failAt);
            return Promise.reject(new Error('connection reset'));
          }
          if (this.repeatStreamUpTo > 0) send(this.repeatStreamUpTo);
          send(whole.length);
        }
        const offset = this.honoursFrom ? Math.min(from ?? 0, whole.length) : 0;
        return Promise.resolve({ unchanged: false, bytes: whole.subarray(offset), offset, etag: current });
      },
      fetchJob: (): Promise<Job> => Promise.resolve({ id: 7, status: this.status }),
    };
  }
}

/** Timers the test advances by hand; delays are recorded. */
class ManualTimers implements FollowerTimers {
  delays: number[] = [];
  private pending: (() => void) | undefined;
  setTimeout(callback: () => void, ms: number): unknown {
    this.delays.push(ms);
    this.pending = callback;
    return callback;
  }
  clearTimeout(handle: unknown): void {
    if (this.pending === handle) this.pending = undefined;
  }
  get hasPending(): boolean {
    return this.pending !== undefined;
  }
  /** Runs the scheduled poll and waits for it. */
  async tick(follower: TraceFollower<Job>): Promise<void> {
    const run = this.pending;
    assert.ok(run, 'a poll should be scheduled');
    this.pending = undefined;
    run();
    await follower.settled();
  }
}

function recorder() {
  const events: string[] = [];
  const texts: string[] = [];
  const listener: TraceFollowerListener<Job> = {
    onBytes: decodeText((text, replaced) => {
      texts.push(text);
      events.push(replaced ? `replace:${text}` : `append:${text}`);
    }),
    onJob: (job) => events.push(`job:${job.status}`),
    onEnd: (job) => events.push(`end:${job.status}`),
    onError: (error, willRetry) =>
      events.push(`error:${error instanceof Error ? error.message : String(error)}:${willRetry}`),
  };
  return { events, texts, listener };
}

/** A follower of `job` polling every 100 ms on hand-driven timers, started, its first poll scheduled. */
function startFollowing(job: ScriptedJob) {
  const timers = new ManualTimers();
  const { events, texts, listener } = recorder();
  const follower = new TraceFollower(job.source(), listener, { timers, minIntervalMs: 100 });
  follower.start();
  return { timers, events, texts, follower };
}

describe('TraceFollower', () => {
  it('hands on only the new suffix and sends the ETag it was given', async () => {
    const job = new ScriptedJob();
    job.append('line 1\n');
    const { timers, events, follower } = startFollowing(job);
    await timers.tick(follower);
    job.append('line 2\n');
    await timers.tick(follower);
    assert.deepEqual(events, ['append:line 1\n', 'job:running', 'append:line 2\n']);
    assert.deepEqual(job.traceReads, [undefined, '"r1"']);
    follower.stop();
  });

  it('backs off while nothing changes, up to the maximum, and speeds up again on news', async () => {
    const job = new ScriptedJob();
    job.append('x');
    const timers = new ManualTimers();
    const follower = new TraceFollower(job.source(), recorder().listener, {
      timers,
      minIntervalMs: 100,
      maxIntervalMs: 400,
      backoffFactor: 2,
    });
    follower.start();
    for (let poll = 0; poll < 5; poll++) await timers.tick(follower);
    job.append('y');
    await timers.tick(follower);
    // first poll immediately; news → 100; then 200, 400, 400 (capped), 400; news → 100
    assert.deepEqual(timers.delays, [0, 100, 200, 400, 400, 400, 100]);
    assert.equal(follower.stats.unchanged, 4);
    follower.stop();
  });

  it('reads once more when the job finishes, then stops and reports the end', async () => {
    const job = new ScriptedJob();
    job.append('running\n');
    const timers = new ManualTimers();
    const { events, listener } = recorder();
    const follower = new TraceFollower(job.source(), listener, { timers, minIntervalMs: 100 });
    follower.start();
    await timers.tick(follower);
    // The status flips before the last lines are in the trace the poll reads alongside it.
    const source = job.source();
    let reads = 0;
    const racing = {
      fetchJob: source.fetchJob,
      fetchTrace: async (etag: string | undefined, signal: AbortSignal, from?: number) => {
        const result = await source.fetchTrace(etag, signal, from);
        if (++reads === 1) job.append('Job succeeded\n');
        return result;
      },
    };
    Object.assign(job, { status: 'success' });
    Object.assign(follower as unknown as { source: typeof racing }, { source: racing });
    await timers.tick(follower);
    assert.deepEqual(events, [
      'append:running\n',
      'job:running',
      'job:success',
      'append:Job succeeded\n',
      'end:success',
    ]);
    assert.equal(follower.isStopped, true);
    assert.equal(timers.hasPending, false);
  });

  for (const [name, pieceBytes] of [
    ['in one read', undefined],
    ['in reads shorter than the bytes compared', 100],
  ] as const) {
    it(`notices a rewrite that changed one byte near the end of what it has (${name})`, async () => {
      const job = new ScriptedJob();
      const timers = new ManualTimers();
      const { events, listener } = recorder();
      const follower = new TraceFollower(job.source(), listener, { timers });
      follower.start();
      const known = `${'a'.repeat(1000)}\n`;
      if (pieceBytes === undefined) job.append(known);
      else
        for (let at = 0; at < known.length; at += pieceBytes) {
          job.append(known.slice(at, at + pieceBytes));
          await timers.tick(follower);
        }
      await timers.tick(follower);
      const changed = `${known.slice(0, 900)}b${known.slice(901)}more\n`;
      job.replace(changed);
      await timers.tick(follower);
      assert.deepEqual(
        events.filter((event) => event.startsWith('replace:')),
        [`replace:${changed}`],
      );
      job.append('tail\n');
      await timers.tick(follower);
      assert.equal(events.at(-1), 'append:tail\n', 'appends after the rewrite are appends again');
      follower.stop();
    });
  }

  it('starts over with the whole text when the trace was rewritten', async () => {
    const job = new ScriptedJob();
    job.append('old run, long enough\n');
    const timers = new ManualTimers();
    const { events, listener } = recorder();
    const follower = new TraceFollower(job.source(), listener, { timers });
    follower.start();
    await timers.tick(follower);
    job.replace('new run\n');
    await timers.tick(follower);
    assert.deepEqual(events.slice(-1), ['replace:new run\n']);
    follower.stop();
  });

  for (const honoursFrom of [true, false]) {
    it(`asks only for what follows the bytes it has, less those it compares (source ${honoursFrom ? 'drops the start' : 'sends all'})`, async () => {
      const job = new ScriptedJob();
      job.honoursFrom = honoursFrom;
      const first = `${'x'.repeat(999)}\n`;
      job.append(first);
      const { timers, events, follower } = startFollowing(job);
      await timers.tick(follower);
      job.append('é next\n');
      await timers.tick(follower);
      await timers.tick(follower);
      assert.deepEqual(job.fromAsked, [0, 1000 - 256, 1008 - 256]);
      assert.deepEqual(job.traceReads, [undefined, '"r1"', '"r2"']);
      assert.deepEqual(events, [`append:${first}`, 'job:running', 'append:é next\n']);
      follower.stop();
    });
  }

  for (const [name, rewritten] of [
    ['longer', `${'b'.repeat(1999)}\n`],
    ['shorter than the part skipped', 'new run\n'],
  ] as const) {
    it(`reads a rewritten trace again whole when the read skipped its start (${name})`, async () => {
      const job = new ScriptedJob();
      job.append(`${'a'.repeat(999)}\n`);
      const { timers, events, follower } = startFollowing(job);
      await timers.tick(follower);
      job.replace(rewritten);
      await timers.tick(follower);
      assert.deepEqual(job.fromAsked, [0, 744, 0]);
      assert.deepEqual(job.traceReads, [undefined, '"r1"', undefined]);
      assert.deepEqual(events.slice(-1), [`replace:${rewritten}`]);
      job.append('more\n');
      await timers.tick(follower);
      assert.deepEqual(events.slice(-1), ['append:more\n']);
      follower.stop();
    });
  }

  it('hands a trace read from its start on as it arrives, each byte once, also when the read is retried', async () => {
    const job = new ScriptedJob();
    const first = `${'é'.repeat(700)}\nsecond line\n`;
    job.append(first);
    job.streamPieceBytes = 100; // cuts 'é' (two bytes) in two
    job.repeatStreamUpTo = 300;
    const { timers, events, texts, follower } = startFollowing(job);
    await timers.tick(follower);
    assert.ok(texts.length > 10, `handed on in pieces as they came (${texts.length})`);
    assert.equal(texts.join(''), first);
    assert.ok(!events.some((event) => event.startsWith('replace:')));
    assert.equal(follower.currentIntervalMs, 100, 'text arrived: polling stays fast');
    job.append('third\n');
    await timers.tick(follower);
    assert.equal(texts.join(''), `${first}third\n`);
    follower.stop();
  });

  it('goes on from where a first read was cut off', async () => {
    const job = new ScriptedJob();
    const whole = `${'x'.repeat(999)}\n${'y'.repeat(999)}\n`;
    job.append(whole);
    job.streamPieceBytes = 250;
    job.failStreamAt = 1000;
    const { timers, events, texts, follower } = startFollowing(job);
    await timers.tick(follower);
    assert.equal(texts.join(''), whole.slice(0, 1000));
    assert.deepEqual(events.slice(-1), ['error:connection reset:true']);
    await timers.tick(follower);
    assert.equal(texts.join(''), whole);
    assert.deepEqual(job.fromAsked, [0, 1000 - 256]);
    follower.stop();
  });

  it('retries after a failed poll and stops on a fatal one', async () => {
    const job = new ScriptedJob();
    job.append('a');
    const timers = new ManualTimers();
    const { events, listener } = recorder();
    const follower = new TraceFollower(job.source(), listener, { timers, minIntervalMs: 100 });
    job.failNext.push(new Error('socket hang up'));
    follower.start();
    await timers.tick(follower);
    assert.deepEqual(events, ['error:socket hang up:true']);
    await timers.tick(follower);
    assert.deepEqual(events.slice(1), ['append:a', 'job:running']);
    job.failNext.push(Object.assign(new Error('404 Not found'), { status: 404 }));
    await timers.tick(follower);
    assert.deepEqual(events.slice(3), ['error:404 Not found:false']);
    assert.equal(follower.isStopped, true);
    assert.equal(timers.hasPending, false);
  });

  it('backs off after each failed poll up to the maximum, counting polls and errors, and speeds up on news', async () => {
    const job = new ScriptedJob();
    const timers = new ManualTimers();
    const { events, listener } = recorder();
    const follower = new TraceFollower(job.source(), listener, {
      timers,
      minIntervalMs: 100,
      maxIntervalMs: 300,
      backoffFactor: 2,
    });
    job.failNext.push(new Error('a'), new Error('b'), new Error('c'));
    follower.start();
    for (let i = 0; i < 3; i++) await timers.tick(follower);
    assert.deepEqual(timers.delays, [0, 200, 300, 300]);
    assert.deepEqual(follower.stats, { polls: 3, unchanged: 0, errors: 3 });
    assert.deepEqual(events, ['error:a:true', 'error:b:true', 'error:c:true']);
    job.append('news');
    await timers.tick(follower);
    assert.equal(follower.currentIntervalMs, 100, 'news resets the interval');
    assert.equal(timers.delays.at(-1), 100);
    assert.deepEqual(follower.stats, { polls: 4, unchanged: 0, errors: 3 });
  });

  it('starts once: a second start, or a start after stop, schedules nothing more', async () => {
    const job = new ScriptedJob();
    const timers = new ManualTimers();
    const follower = new TraceFollower(job.source(), recorder().listener, { timers, minIntervalMs: 100 });
    follower.start();
    follower.start();
    assert.deepEqual(timers.delays, [0]);
    await timers.tick(follower);
    assert.deepEqual(follower.stats.polls, 1);
    follower.stop();
    follower.start();
    follower.pollNow();
    assert.equal(timers.hasPending, false);
    assert.deepEqual(timers.delays, [0, 150], 'nothing after the poll that stop() cancelled');
  });

  it('pollNow resets the back-off and polls at once, replacing the scheduled poll', async () => {
    const job = new ScriptedJob();
    job.append('x');
    const timers = new ManualTimers();
    const follower = new TraceFollower(job.source(), recorder().listener, {
      timers,
      minIntervalMs: 100,
      maxIntervalMs: 1000,
      backoffFactor: 2,
    });
    follower.start();
    await timers.tick(follower);
    await timers.tick(follower);
    await timers.tick(follower);
    assert.equal(follower.currentIntervalMs, 400, 'two unchanged polls doubled it twice');
    follower.pollNow();
    assert.equal(follower.currentIntervalMs, 100);
    assert.equal(timers.delays.at(-1), 0);
    await timers.tick(follower);
    assert.equal(timers.hasPending, true);
    assert.equal(follower.stats.polls, 4);
  });

  it('stop() cancels the scheduled poll and aborts the one in flight', async () => {
    const job = new ScriptedJob();
    let seenSignal: AbortSignal | undefined;
    const timers = new ManualTimers();
    const follower = new TraceFollower(
      {
        fetchTrace: (_etag, signal) => {
          seenSignal = signal;
          return new Promise<TraceFetchResult>((_resolve, reject) =>
            signal.addEventListener('abort', () => reject(new Error('aborted'))),
          );
        },
        fetchJob: () => Promise.resolve({ id: 1, status: 'running' }),
      },
      recorder().listener,
      { timers },
    );
    follower.start();
    const polled = timers.tick(follower);
    follower.stop();
    await polled;
    assert.equal(seenSignal?.aborted, true);
    assert.equal(timers.hasPending, false);
    void job;
  });

  it('hands long appended text on in pieces of its own, never splitting a character', async () => {
    const job = new ScriptedJob();
    job.append('start\n');
    const timers = new ManualTimers();
    const { events, texts, listener } = recorder();
    const follower = new TraceFollower(job.source(), listener, { timers });
    follower.start();
    await timers.tick(follower);
    // A four-byte character (a surrogate pair in JavaScript) straddles the first piece boundary.
    const added = `${'a'.repeat(TEXT_PIECE_BYTES - 1)}𝄞${'b'.repeat(2 * TEXT_PIECE_BYTES)}`;
    job.append(added);
    texts.length = 0;
    events.length = 0;
    await timers.tick(follower);
    assert.equal(texts.join(''), added);
    assert.ok(texts.length >= 3);
    for (const piece of texts) {
      assert.ok(piece.length <= TEXT_PIECE_BYTES + 1);
      assert.ok(!/[\ud800-\udbff]$/.test(piece), 'no piece ends with half a pair');
    }
    assert.ok(events.every((event) => event.startsWith('append:')));

    // A trace read from its start is the whole response: handed on as it is, in one call.
    const rewritten = `new run ${'c'.repeat(TEXT_PIECE_BYTES)}`;
    job.replace(rewritten);
    events.length = 0;
    texts.length = 0;
    await timers.tick(follower);
    assert.deepEqual(texts, [rewritten]);
    assert.ok(events[0]?.startsWith('replace:'));
    follower.stop();
  });

  it("keeps no poll's whole response alive through the text it hands on", async function () {
    this.timeout(20_000);
    v8.setFlagsFromString('--expose-gc');
    const collectGarbage = vm.runInNewContext('gc') as () => void;
    // Bodies are Buffers, outside V8's heap: count their memory too.
    const heapUsed = (): number => {
      collectGarbage();
      collectGarbage();
      const memory = process.memoryUsage();
      return memory.heapUsed + memory.arrayBuffers;
    };
    // An 8 MB body whose every poll adds a little, as a running job's does.
    const prefix = `${'x'.repeat(8_000_000)}✓\n`;
    let added = '';
    let etag = 0;
    const kept: string[] = [];
    const timers = new ManualTimers();
    const follower = new TraceFollower<Job>(
      {
        fetchTrace: (sent) => {
          if (sent === String(etag)) return Promise.resolve({ unchanged: true });
          // A new body for every response, as the transport reads each afresh.
          const bytes = Buffer.from(prefix + added, 'utf8');
          return Promise.resolve({ unchanged: false, bytes, etag: String(etag) });
        },
        fetchJob: () => Promise.resolve({ id: 7, status: 'running' }),
      },
      { ...recorder().listener, onBytes: decodeText((text) => kept.push(text)) },
      { timers },
    );
    follower.start();
    await timers.tick(follower);
    const firstPollPieces = kept.length;
    const before = heapUsed();
    for (let poll = 0; poll < 5; poll++) {
      added += `line ${poll} of the running job, long enough not to be copied anyway\n`;
      etag++;
      await timers.tick(follower);
    }
    const grown = heapUsed() - before;
    // Views of the bodies would keep all five (40 MB); what is kept is a few hundred characters.
    assert.ok(grown < 4_000_000, `the heap grew by ${(grown / 1e6).toFixed(1)} MB`);
    assert.equal(kept.slice(firstPollPieces).join(''), added);
    follower.stop();
  });

  it('hands on a character whose bytes one read cut in two with the next read, once whole', async () => {
    const whole = Buffer.from('build ✓ done\n', 'utf8');
    const cut = whole.indexOf(Buffer.from('✓', 'utf8')) + 1; // inside the three bytes of ✓
    let body = whole.subarray(0, cut);
    let etag = 0;
    const timers = new ManualTimers();
    const texts: string[] = [];
    const follower = new TraceFollower<Job>(
      {
        fetchTrace: (sent) =>
          Promise.resolve(
            sent === String(etag)
              ? { unchanged: true }
              : { unchanged: false, bytes: body, etag: String(etag) },
          ),
        fetchJob: () => Promise.resolve({ id: 7, status: 'running' }),
      },
      { ...recorder().listener, onBytes: decodeText((text) => texts.push(text)) },
      { timers },
    );
    follower.start();
    await timers.tick(follower);
    assert.deepEqual(texts, ['build '], 'the half character waits');
    body = whole;
    etag++;
    await timers.tick(follower);
    assert.equal(texts.join(''), 'build ✓ done\n');
    assert.ok(!texts.join('').includes('\ufffd'), 'no replacement character');
    follower.stop();
  });

  it('knows which statuses end a trace', () => {
    for (const status of ['success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled'])
      assert.equal(isJobFinished(status), true, status);
    for (const status of [
      'created',
      'pending',
      'running',
      'preparing',
      'canceling',
      'waiting_for_resource',
      '',
    ])
      assert.equal(isJobFinished(status), false, status);
  });
});
