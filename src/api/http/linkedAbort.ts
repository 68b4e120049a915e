/**
 * An AbortController that also aborts when `parent` does, until `release()`.
 *
 * `AbortSignal.any` would do the same, but it registers the new signal on the parent for as long as
 * the parent lives, and callers' signals often live for hours (a trace follower, a tree's refresh):
 * on Node 20, VS Code's runtime, every registration is kept. Here the listener goes with `release()`.
 */
export interface LinkedAbort {
  readonly controller: AbortController;
  readonly signal: AbortSignal;
  /** Stops following the parent. Idempotent; does not abort. */
  release(): void;
}

export function linkedAbort(parent: AbortSignal | undefined): LinkedAbort {
  const controller = new AbortController();
  if (parent === undefined) return { controller, signal: controller.signal, release: () => undefined };
  const onAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onAbort, { once: true });
  return {
    controller,
    signal: controller.signal,
    release: () => parent.removeEventListener('abort', onAbort),
  };
}
