/**
 * A rebase as GitLab runs it: `PUT .../rebase` answers 202 at once and the work goes on in the
 * background; the merge request reports `rebase_in_progress` while asked with
 * `include_rebase_in_progress=true`, then the new base or `merge_error`.
 */
import * as l10n from '@vscode/l10n';
import type { ProjectRef } from './hostingTypes';
import type { ReviewEndpoints } from './reviewEndpoints';
import type { MergeRequest } from './schemas';

/** The server could not rebase (conflicts, mostly); its message says why. */
export class RebaseFailedError extends Error {
  override readonly name = 'RebaseFailedError';
}

export interface FollowOptions {
  signal?: AbortSignal;
  /** Between two reads of the merge request; 1 s by default. */
  intervalMs?: number;
  /** Reads before giving up (the server goes on); 120 by default, two minutes. */
  maxChecks?: number;
  /** The rebase was started already (another window, the browser): only follow it. */
  alreadyStarted?: boolean;
  /** Each read: whether the rebase is still running. */
  onCheck?: (inProgress: boolean) => void;
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** Starts a rebase and waits until it lands; the merge request as it is then. */
export async function rebaseAndFollow(
  client: ReviewEndpoints,
  project: ProjectRef,
  iid: number,
  options: FollowOptions = {},
): Promise<MergeRequest> {
  const { signal, intervalMs = 1_000, maxChecks = 120 } = options;
  if (!options.alreadyStarted) await client.rebase(project, iid, { signal });
  for (let check = 0; check < maxChecks; check += 1) {
    const mergeRequest = await client.getMergeRequest(project, iid, {
      signal,
      includeRebaseInProgress: true,
    });
    const inProgress = mergeRequest.rebase_in_progress === true;
    options.onCheck?.(inProgress);
    if (!inProgress) {
      if (mergeRequest.merge_error) throw new RebaseFailedError(mergeRequest.merge_error);
      return mergeRequest;
    }
    await pause(intervalMs, signal);
  }
  throw new Error(
    l10n.t(
      '!{0} is still rebasing after {1} checks; the server goes on with it. Refresh later to see the outcome.',
      iid,
      maxChecks,
    ),
  );
}
