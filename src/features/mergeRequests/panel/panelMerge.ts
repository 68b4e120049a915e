/** The panel's merge: the merge request read again, then the same use case as the command. */
import { describeMergeResult, mergeRefusal, sendMerge, type MergeResult } from '../actions';
import type { MergeRequestCommandContext, MergeRequestTarget } from '../mergeRequestTargets';
import { describeError } from '../../../platform/commands/registerCommand';
import type { PanelMergeOptions } from './protocol';

/** Merges with the page's options; answers what to tell the page (never throws). */
export async function mergeFromPanel(
  context: MergeRequestCommandContext,
  target: MergeRequestTarget,
  options: PanelMergeOptions,
): Promise<{ ok: boolean; message: string }> {
  const { account, project } = target;
  try {
    const client = await context.services.accounts.client(account.id);
    const fresh = await client.getMergeRequest(project.id, target.mergeRequest.iid);
    const refusal = mergeRefusal(fresh);
    const result: MergeResult = refusal
      ? { merged: false, ...refusal }
      : await sendMerge(client, project.id, fresh, {
          ...options,
          message: options.message?.trim() ? options.message : undefined,
          sha: options.sha ?? fresh.sha ?? undefined,
        });
    return { ok: result.merged || 'scheduled' in result, message: describeMergeResult(fresh, result) };
  } catch (error) {
    return { ok: false, message: describeError(error) };
  }
}
