import { linkedAbort } from './linkedAbort';

/**
 * Runs `load` over `inputs` with at most `bound()` on the wire (asked, reply not yet in), and at
 * most `lead()` (at least `bound()`) not yet taken, yielding `finish` of each reply in input order.
 * A reply that comes in lets the next load start before it is finished (parsed), and whatever the
 * order replies come in. Nothing more is started once a result `isLast`; when the consumer stops,
 * the loads in flight are aborted and their failures ignored.
 */
export async function* inOrderWithBound<I, R, O>(
  inputs: Iterator<I>,
  load: (input: I, signal: AbortSignal) => Promise<R>,
  finish: (reply: R) => O,
  options: {
    bound: () => number;
    lead?: () => number;
    signal?: AbortSignal;
    isLast?: (result: O) => boolean;
    /** Loads started before, first in order, counted in the bound. */
    started?: Promise<R>[];
  },
): AsyncGenerator<O, void, undefined> {
  const stop = linkedAbort(options.signal);
  const loadSignal = stop.signal;
  const lead = options.lead ?? options.bound;
  const notTaken: Promise<O>[] = [];
  let onTheWire = 0;
  let exhausted = false;
  let stopped = false;
  const track = (reply: Promise<R>): void => {
    onTheWire++;
    const result = reply.then(
      (value) => {
        onTheWire--;
        fill();
        return finish(value);
      },
      (error: unknown) => {
        onTheWire--;
        throw error;
      },
    );
    // Failures surface when this promise is awaited in order; until then they must not be unhandled.
    result.catch(() => undefined);
    notTaken.push(result);
  };
  const fill = (): void => {
    while (
      !exhausted &&
      !stopped &&
      onTheWire < options.bound() &&
      notTaken.length < Math.max(lead(), options.bound())
    ) {
      const next = inputs.next();
      if (next.done === true) {
        exhausted = true;
        return;
      }
      track(load(next.value, loadSignal));
    }
  };
  for (const reply of options.started ?? []) track(reply);
  try {
    fill();
    while (notTaken.length > 0) {
      // Taken off once settled: the page waited for still counts until the consumer has it.
      const result = await (notTaken[0] as Promise<O>);
      void notTaken.shift(); // the one just awaited
      if (options.isLast?.(result) === true) exhausted = true;
      fill();
      yield result;
    }
  } finally {
    stopped = true;
    stop.controller.abort();
    stop.release();
  }
}
