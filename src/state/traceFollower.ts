/**
 * Follows a job's trace while the job runs. Real servers send the whole trace every time (no offset,
 * no Range), with an ETag: the follower sends `If-None-Match`, treats "unchanged" as nothing new, and
 * hands on only the bytes it has not seen, so neither decoding nor parsing grows with the trace. It
 * never decodes: the trace stays bytes until its reader (the page's worker, the tail) decodes it. Polling speeds up when text arrives and backs off while nothing changes; it stops once
 * the job has finished (after one last read, so the final lines are not lost). Pure: no vscode.
 */
/**
 * The body as received, from `offset` on (0 when absent): only its new end is decoded. A source
 * asked to read `from` an offset may drop the bytes before it; one that ignores `from` sends all.
 */
export type TraceFetchResult =
  { unchanged: true } | { unchanged: false; bytes: Uint8Array; offset?: number; etag: string | undefined };

export interface FollowedJob {
  id: number;
  status: string;
}

export interface TraceSource<Job extends FollowedJob> {
  /**
   * `onBytes`, when the source can, gets the body's pieces as they arrive (again from 0 after a
   * retry); a promise it returns pauses the read until it settles.
   */
  fetchTrace(
    etag: string | undefined,
    signal: AbortSignal,
    from?: number,
    onBytes?: (bytes: Uint8Array, offset: number) => void | Promise<void>,
  ): Promise<TraceFetchResult>;
  fetchJob(signal: AbortSignal): Promise<Job>;
}

export interface TraceFollowerListener<Job extends FollowedJob> {
  /**
   * New bytes at the end of the trace, as the server sent them (a read may end inside a character:
   * decode as a stream, `decodeText` does). With `replaced`, the trace was rewritten and these are
   * its start: what came before is gone. The bytes are a view of the read's reply, valid during the
   * call: a listener that keeps them copies them. A promise returned while the trace is read from
   * its start pauses that read until it settles (a listener not ready for more yet).
   */
  onBytes(bytes: Uint8Array, replaced: boolean): void | Promise<void>;
  /** The job as last read, whenever its status changes (the first read included). */
  onJob(job: Job): void;
  /** The job finished; no more polls. */
  onEnd(job: Job): void;
  /** A poll failed; `willRetry` false means the follower stopped (the job is gone, or the token was refused). */
  onError(error: unknown, willRetry: boolean): void;
}

export interface FollowerTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface TraceFollowerOptions {
  /** Delay after a poll that brought new text (default 1 s). */
  minIntervalMs?: number;
  /** The longest delay while nothing changes (default 10 s). */
  maxIntervalMs?: number;
  /** Growth of the delay per poll without news (default 1.5). */
  backoffFactor?: number;
  /** Errors that stop following instead of retrying; by default 401, 403 and 404 responses. */
  isFatal?: (error: unknown) => boolean;
  timers?: FollowerTimers;
}

/** The part of the v4 client a follower reads from. */
export interface TraceClient<Job extends FollowedJob> {
  getTrace(
    project: number,
    jobId: number,
    options: {
      etag?: string;
      signal?: AbortSignal;
      from?: number;
      onBytes?: (bytes: Uint8Array, offset: number) => void | Promise<void>;
    },
  ): Promise<TraceFetchResult>;
  getJob(project: number, jobId: number, options: { signal?: AbortSignal }): Promise<Job>;
}

/**
 * A job's trace and status through the v4 client. A job that has not written anything yet (pending,
 * or just retried) may have no trace at all: its 404 reads as an empty trace, while a 404 for the job
 * itself still ends the follow.
 */
export function jobTraceSource<Job extends FollowedJob>(
  client: TraceClient<Job> | Promise<TraceClient<Job>>,
  projectId: number,
  jobId: number,
): TraceSource<Job> {
  return {
    fetchTrace: async (etag, signal, from, onBytes) => {
      try {
        return await (await client).getTrace(projectId, jobId, { etag, signal, from, onBytes });
      } catch (error) {
        if ((error as { status?: unknown } | null)?.status === 404)
          return { unchanged: false, bytes: new Uint8Array(0), etag: undefined };
        throw error;
      }
    },
    fetchJob: async (signal) => (await client).getJob(projectId, jobId, { signal }),
  };
}

/** Statuses after which a job's trace no longer grows. */
const FINISHED_STATUSES = new Set(['success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled']);

export function isJobFinished(status: string): boolean {
  return FINISHED_STATUSES.has(status);
}

/** How much of the known end to compare, to tell an appended trace from a rewritten one. */
const OVERLAP_CHECK_BYTES = 256;

/**
 * `decodeText` decodes this many bytes at a time: each piece of text is then a string of its own,
 * small enough to be allocated in the young generation, several times faster than one string of
 * hundreds of KB in the large-object space.
 */
export const TEXT_PIECE_BYTES = 32 * 1024;

/**
 * For a reader of text (the tail): turns the follower's bytes into text, a character cut between two
 * reads completed by the next, in pieces of at most `TEXT_PIECE_BYTES` bytes. A rewritten trace
 * starts with a fresh decoder and is handed on whole, in one call (empty when the trace is).
 */
export function decodeText(
  onText: (text: string, replaced: boolean) => void,
): (bytes: Uint8Array, replaced: boolean) => void {
  let decoder = new TextDecoder();
  return (bytes, replaced) => {
    if (replaced) {
      decoder = new TextDecoder();
      onText(decoder.decode(bytes, { stream: true }), true);
      return;
    }
    for (let start = 0; start < bytes.length; start += TEXT_PIECE_BYTES) {
      const text = decoder.decode(bytes.subarray(start, start + TEXT_PIECE_BYTES), { stream: true });
      if (text.length > 0) onText(text, false);
    }
  };
}

/** The last `OVERLAP_CHECK_BYTES` of `tail` followed by `more`, as a copy of their own. */
function lastBytes(tail: Uint8Array, more: Uint8Array): Uint8Array<ArrayBuffer> {
  if (more.length >= OVERLAP_CHECK_BYTES)
    return Uint8Array.from(more.subarray(more.length - OVERLAP_CHECK_BYTES));
  const keep = Math.min(tail.length, OVERLAP_CHECK_BYTES - more.length);
  const joined = new Uint8Array(keep + more.length);
  joined.set(tail.subarray(tail.length - keep));
  joined.set(more, keep);
  return joined;
}

/** Whether `bytes` holds `expected` at `offset`. */
function holdsAt(bytes: Uint8Array, offset: number, expected: Uint8Array): boolean {
  if (offset < 0 || offset + expected.length > bytes.length) return false;
  for (let index = 0; index < expected.length; index++) {
    if (bytes[offset + index] !== expected[index]) return false;
  }
  return true;
}

function defaultIsFatal(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 401 || status === 403 || status === 404;
}

export class TraceFollower<Job extends FollowedJob> {
  private readonly minIntervalMs: number;
  private readonly maxIntervalMs: number;
  private readonly backoffFactor: number;
  private readonly isFatal: (error: unknown) => boolean;
  private readonly timers: FollowerTimers;
  private readonly controller = new AbortController();

  private etag: string | undefined;
  /** Bytes of the trace handed on so far. */
  private receivedBytes = 0;
  /** A copy of the last bytes handed on, to check that the next read still starts with what we have. */
  private receivedTail = new Uint8Array(0);
  /** Text was handed on while the current read was arriving. */
  private streamedThisRead = false;
  private lastStatus: string | undefined;
  private intervalMs: number;
  private timer: unknown;
  private running = false;
  private stopped = false;
  private polling: Promise<void> | undefined;
  /** Polls made, and how many of them brought no new text (for tests and benchmarks). */
  readonly stats = { polls: 0, unchanged: 0, errors: 0 };

  constructor(
    private readonly source: TraceSource<Job>,
    private readonly listener: TraceFollowerListener<Job>,
    options: TraceFollowerOptions = {},
  ) {
    this.minIntervalMs = options.minIntervalMs ?? 1000;
    this.maxIntervalMs = Math.max(this.minIntervalMs, options.maxIntervalMs ?? 10_000);
    this.backoffFactor = Math.max(1, options.backoffFactor ?? 1.5);
    this.isFatal = options.isFatal ?? defaultIsFatal;
    this.timers = options.timers ?? {
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    };
    this.intervalMs = this.minIntervalMs;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** The delay before the next poll, as it stands now. */
  get currentIntervalMs(): number {
    return this.intervalMs;
  }

  /** Starts with an immediate poll. */
  start(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    this.schedule(0);
  }

  /** Polls now instead of waiting (e.g. after the user retried the job), resetting the back-off. */
  pollNow(): void {
    if (this.stopped) return;
    this.intervalMs = this.minIntervalMs;
    if (this.polling) return;
    this.running = true;
    this.schedule(0);
  }

  /** Resolves when the poll in flight (if any) has finished. */
  async settled(): Promise<void> {
    await this.polling;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.running = false;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.controller.abort();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
      });
    }, ms);
  }

  private async poll(): Promise<void> {
    if (this.stopped) return;
    this.stats.polls++;
    const signal = this.controller.signal;
    try {
      const [trace, job] = await Promise.all([this.read(signal), this.source.fetchJob(signal)]);
      if (this.stopped) return;
      const changed = this.apply(trace);
      if (job.status !== this.lastStatus) {
        this.lastStatus = job.status;
        this.listener.onJob(job);
      }
      if (isJobFinished(job.status)) {
        // The trace read above may predate the job's last lines: read once more before stopping.
        this.apply(await this.read(signal));
        if (this.stopped) return;
        this.stop();
        this.listener.onEnd(job);
        return;
      }
      if (changed) {
        this.intervalMs = this.minIntervalMs;
      } else {
        this.stats.unchanged++;
        this.intervalMs = Math.min(this.maxIntervalMs, this.intervalMs * this.backoffFactor);
      }
      this.schedule(this.intervalMs);
    } catch (error) {
      if (this.stopped) return;
      this.stats.errors++;
      const fatal = this.isFatal(error);
      if (fatal) this.stop();
      this.listener.onError(error, !fatal);
      if (!fatal) {
        this.intervalMs = Math.min(this.maxIntervalMs, this.intervalMs * this.backoffFactor);
        this.schedule(this.intervalMs);
      }
    }
  }

  /**
   * Reads the trace, asking for it only from the end of what we have (less the bytes that tell an
   * appended trace from a rewritten one). A rewritten trace is read again, whole.
   */
  private async read(signal: AbortSignal): Promise<TraceFetchResult> {
    const from = this.receivedBytes - this.receivedTail.length;
    this.streamedThisRead = false;
    // A trace read from its start is handed on as it arrives: the first lines of a long trace show
    // before the rest has crossed the network.
    const onBytes =
      this.receivedBytes === 0
        ? (bytes: Uint8Array, offset: number) => this.stream(bytes, offset)
        : undefined;
    const result = await this.source.fetchTrace(this.etag, signal, from, onBytes);
    if (result.unchanged || (result.offset ?? 0) === 0 || this.isAppended(result.bytes, result.offset ?? 0))
      return result;
    return this.source.fetchTrace(undefined, signal, 0);
  }

  /** Whether `bytes`, found at `offset` of the trace, still hold what we have and extend it. */
  private isAppended(bytes: Uint8Array, offset: number): boolean {
    const overlapStart = this.receivedBytes - this.receivedTail.length;
    return (
      offset + bytes.length >= this.receivedBytes && holdsAt(bytes, overlapStart - offset, this.receivedTail)
    );
  }

  /** A piece of a read from the trace's start, as it arrives: what is past what we have is handed on. */
  private stream(bytes: Uint8Array, offset: number): void | Promise<void> {
    if (this.stopped || offset > this.receivedBytes) return;
    const fresh = bytes.subarray(this.receivedBytes - offset);
    if (fresh.length === 0) return;
    const paused = this.listener.onBytes(fresh, false);
    this.receivedBytes += fresh.length;
    this.receivedTail = lastBytes(this.receivedTail, fresh);
    this.streamedThisRead = true;
    return paused;
  }

  /**
   * Hands on what is new in a read (`read` has read a rewritten trace again from 0); true when the
   * read brought new text, as it arrived or now.
   */
  private apply(result: TraceFetchResult): boolean {
    if (result.unchanged) return false;
    this.etag = result.etag;
    const { bytes } = result;
    const offset = result.offset ?? 0;
    const size = offset + bytes.length;
    const appended = this.isAppended(bytes, offset);
    if (appended && size === this.receivedBytes) return this.streamedThisRead;
    // The read is over: a pause the listener asks for has nothing left to hold back.
    if (!appended) {
      // Erased or rewritten (a retried job reuses nothing): start over with the whole trace.
      void this.listener.onBytes(bytes, true);
    } else {
      // New bytes past what we have (the whole reply on a first read from a source that does not stream).
      void this.listener.onBytes(bytes.subarray(this.receivedBytes - offset), false);
    }
    this.receivedBytes = size;
    // A copy: a view would keep the whole response alive.
    this.receivedTail = Uint8Array.from(bytes.subarray(Math.max(0, bytes.length - OVERLAP_CHECK_BYTES)));
    return true;
  }
}
