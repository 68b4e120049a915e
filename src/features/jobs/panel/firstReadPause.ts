import { setTimeout as delay } from 'node:timers/promises';

/**
 * Holds the first read of a trace once it has its first piece, until the page has drawn that piece
 * (or `maxMs` passed, or the panel closed). Read on, the rest of a long trace keeps the extension
 * host and the machine busy while VS Code creates the page and the page draws, and delays both
 * (measured in the benchmark); the page's first snapshot carries that piece.
 */
export class FirstReadPause {
  private released = false;
  private markReleased: () => void = () => undefined;
  private readonly releasedOnce = new Promise<void>((resolve) => (this.markReleased = resolve));
  private pause: Promise<void> | undefined;

  constructor(private readonly maxMs: number) {}

  /** The page drew its first snapshot, or the panel closed: the read goes on. */
  release(): void {
    this.released = true;
    this.markReleased();
  }

  /** What the read waits for, holding `heldBytes`: nothing below `firstPieceBytes` or once released. */
  hold(heldBytes: number, firstPieceBytes: number): Promise<void> | undefined {
    if (this.released || heldBytes < firstPieceBytes) return undefined;
    this.pause ??= Promise.race([this.releasedOnce, delay(this.maxMs, undefined, { ref: false })]);
    return this.pause;
  }
}
