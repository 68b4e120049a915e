/**
 * A job's trace as the server sent it: bytes, never decoded here (the page's worker and the tail
 * decode it, each once). Kept in blocks of about `blockBytes`, copied in as they arrive: a view of
 * each poll's reply would keep every reply alive, and joining everything on each poll would copy a
 * 20 MB trace many times over while it arrives. Pure: no vscode, no DOM.
 */
export class TraceBytes {
  private blocks: Uint8Array[] = [];
  /** Bytes used in the last block. */
  private used = 0;
  private total = 0;

  constructor(private readonly blockBytes = 1024 * 1024) {}

  get size(): number {
    return this.total;
  }

  /** Keeps a copy of `bytes` at the end; returns views of where they were kept, in order. */
  append(bytes: Uint8Array): Uint8Array[] {
    const kept: Uint8Array[] = [];
    let from = 0;
    while (from < bytes.length) {
      let block = this.blocks[this.blocks.length - 1];
      if (!block || this.used === block.length) {
        block = new Uint8Array(Math.max(this.blockBytes, bytes.length - from));
        this.blocks.push(block);
        this.used = 0;
      }
      const count = Math.min(block.length - this.used, bytes.length - from);
      block.set(bytes.subarray(from, from + count), this.used);
      kept.push(block.subarray(this.used, this.used + count));
      this.used += count;
      from += count;
    }
    this.total += bytes.length;
    return kept;
  }

  /** Forgets everything (the trace was erased or rewritten). Views handed out stay as they were. */
  clear(): void {
    this.blocks = [];
    this.used = 0;
    this.total = 0;
  }

  /** Views of the whole trace, in order. */
  parts(): Uint8Array[] {
    const last = this.blocks.length - 1;
    return this.blocks.map((block, index) => (index === last ? block.subarray(0, this.used) : block));
  }

  /** The whole trace in one array of its own (to save or copy it). */
  whole(): Uint8Array {
    return takeBytes(this.parts(), this.total);
  }
}

/**
 * Takes up to `size` bytes from the front of `parts` (which keeps the rest) into one array of its
 * own: what crosses to a webview must not be a Node Buffer or a view of a larger buffer. A piece may
 * end inside a character; its reader decodes as a stream.
 */
export function takeBytes(parts: Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  let count = 0;
  for (const part of parts) {
    if (count >= size) break;
    count += part.length;
  }
  const taken = new Uint8Array(Math.min(size, count));
  let filled = 0;
  while (filled < taken.length) {
    const part = parts[0];
    if (!part) break;
    const wanted = taken.length - filled;
    if (part.length > wanted) {
      taken.set(part.subarray(0, wanted), filled);
      parts[0] = part.subarray(wanted);
      filled += wanted;
    } else {
      taken.set(part, filled);
      parts.shift();
      filled += part.length;
    }
  }
  return taken;
}
