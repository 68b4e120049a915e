/**
 * Gathers a response body as its chunks arrive, keeping only what lies at or after `keepFrom`. A
 * trace is sent whole on every poll; a follower that already has its first megabytes asks for the
 * rest only, so neither the memory nor the copy of a poll grows with the trace.
 */
export class BodyCollector {
  private readonly kept: Buffer[] = [];
  private received = 0;

  constructor(private readonly keepFrom = 0) {}

  /** Bytes received so far, kept or not. */
  get size(): number {
    return this.received;
  }

  add(chunk: Buffer): void {
    const start = this.received;
    this.received += chunk.length;
    if (this.received <= this.keepFrom) return;
    this.kept.push(start >= this.keepFrom ? chunk : chunk.subarray(this.keepFrom - start));
  }

  /**
   * The body from `offset` on. `offset` is `keepFrom`, or the whole size when the body was shorter
   * (then nothing was kept, and a caller that needs the start must read again from 0).
   */
  finish(): { bytes: Buffer; offset: number } {
    const offset = Math.min(this.keepFrom, this.received);
    const [only] = this.kept;
    if (this.kept.length === 1 && only) return { bytes: only, offset };
    return { bytes: Buffer.concat(this.kept), offset };
  }
}
