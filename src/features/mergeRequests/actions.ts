import type { HostingClient, MergeRequest } from '../../api/hosting';
import { HttpError } from '../../api/http';
import {
  type MergeFailure,
  type MergeFailureReason,
  isOpenState,
  mergeBlocker,
  mergeFailure,
  shaInMessage,
} from '../../domain/mergeRequestStatus';
import * as l10n from '@vscode/l10n';

/*
 * Merging, without any UI: the command (after its questions) and the merge request panel (with the
 * page's form) both call these, so the panel shows the real outcome instead of "see the notification".
 */

export interface MergeOptions {
  removeSourceBranch?: boolean;
  mergeWhenPipelineSucceeds?: boolean;
  /** The merge commit message; the server's default when left out. */
  message?: string;
  /** Squash the source branch's commits into one (sent only when true). */
  squash?: boolean;
  /** The source head the caller saw; default: the node's, or the fresh one from the palette. */
  sha?: string;
}

export type MergeResult =
  | { merged: true; mergeCommitSha: string | undefined }
  | { merged: false; scheduled: true }
  | { merged: false; reason: MergeFailureReason | 'cancelled'; message?: string; currentSha?: string };

/** Why this merge request cannot merge now, known before anything is asked; undefined when it may. */
export function mergeRefusal(mr: MergeRequest): MergeFailure | undefined {
  if (!isOpenState(mr.state)) {
    return {
      reason: 'not-open',
      message: l10n.t('!{0} is {1}; there is nothing to merge.', mr.iid, mr.state),
    };
  }
  return mergeBlocker(mr);
}

/**
 * Sends the merge of `mr` (as fetched just before). A refusal the server explains (the branch moved,
 * cannot be merged, no longer open, not allowed) comes back as a result; anything else is thrown.
 */
export async function sendMerge(
  client: HostingClient,
  projectId: number,
  mr: MergeRequest,
  options: MergeOptions,
): Promise<MergeResult> {
  try {
    const merged = await client.mergeMergeRequest(projectId, mr.iid, {
      sha: options.sha,
      merge_commit_message: options.message,
      squash: options.squash ? true : undefined,
      should_remove_source_branch: options.removeSourceBranch,
      // Both names: servers before 17.11 ignore `auto_merge`, later ones take either.
      auto_merge: options.mergeWhenPipelineSucceeds ? true : undefined,
      merge_when_pipeline_succeeds: options.mergeWhenPipelineSucceeds ? true : undefined,
    });
    if (merged.state === 'merged')
      return { merged: true, mergeCommitSha: merged.merge_commit_sha ?? undefined };
    return { merged: false, scheduled: true };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    let currentSha: string | undefined;
    if (error.status === 409) {
      currentSha =
        shaInMessage(error.serverMessage) ??
        (await client.getMergeRequest(projectId, mr.iid).then(
          (latest) => latest.sha ?? undefined,
          () => undefined,
        ));
    }
    const failure = mergeFailure(error.status, mr, { serverMessage: error.serverMessage, currentSha });
    if (!failure) throw error;
    return { merged: false, reason: failure.reason, message: failure.message, currentSha };
  }
}

/** What the merge did, in one sentence for a notification or the panel. */
export function describeMergeResult(
  mr: Pick<MergeRequest, 'iid' | 'target_branch'>,
  result: MergeResult,
): string {
  if (result.merged) return l10n.t('Merged !{0} into {1}.', mr.iid, mr.target_branch);
  if ('scheduled' in result) return l10n.t('!{0} will be merged when its pipeline succeeds.', mr.iid);
  return result.message ?? l10n.t('!{0} was not merged ({1}).', mr.iid, result.reason);
}
