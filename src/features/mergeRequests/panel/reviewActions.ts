/**
 * The panel header's review actions: approve the head shown or take the approval back, submit the
 * pending review, and the fixes of what blocks a merge (mark a draft as ready, rebase, open the
 * unresolved threads). Each answers the sentence the panel shows.
 */
import * as vscode from 'vscode';
import { type Note, diffPositionOf, RebaseFailedError, rebaseAndFollow } from '../../../api/hosting';
import { ConflictError } from '../../../api/http';
import { readyTitle } from '../../../domain/mergeRequestView';
import { withCancellableProgress } from '../../../platform/userMessages';
import {
  type MergeRequestCommandContext,
  type MergeRequestTarget,
  afterMergeRequestChange,
} from '../mergeRequestTargets';
import type { HeaderAction, NoteView } from './protocol';

const REVIEW_ACTIONS = [
  'approve',
  'unapprove',
  'markReady',
  'submitReview',
  'rebase',
  'openThreads',
  'openFailingJob',
] as const;
type ReviewAction = (typeof REVIEW_ACTIONS)[number];

export function isReviewAction(action: HeaderAction): action is ReviewAction {
  return (REVIEW_ACTIONS as readonly string[]).includes(action);
}

export function runReviewAction(
  context: MergeRequestCommandContext,
  target: MergeRequestTarget,
  action: ReviewAction,
): Promise<string> {
  switch (action) {
    case 'approve':
    case 'unapprove':
      return approve(context, target, action === 'approve');
    case 'markReady':
      return markReady(context, target);
    case 'submitReview':
      return submitReview(context, target);
    case 'rebase':
      return rebase(context, target);
    case 'openThreads':
      return openThreads(context, target);
    case 'openFailingJob':
      return openFailingJob(context, target);
  }
}

/** The trace of the head pipeline's failed job (the first failed one), as the jobs views open it. */
async function openFailingJob(
  context: MergeRequestCommandContext,
  target: MergeRequestTarget,
): Promise<string> {
  const { account, project, mergeRequest } = target;
  const pipeline = mergeRequest.head_pipeline;
  if (!pipeline) throw new Error(vscode.l10n.t('!{0} has no pipeline.', mergeRequest.iid));
  const client = await context.services.accounts.client(account.id);
  const [job] = await client.listPipelineJobs(project.id, pipeline.id, ['failed']).toArray();
  if (!job) return vscode.l10n.t('No job of pipeline #{0} failed any more: refresh.', pipeline.id);
  if (!context.showJobTrace) throw new Error(vscode.l10n.t('Job traces are not available in this window.'));
  await context.showJobTrace({ kind: 'forge.jobRef', accountId: account.id, project, job });
  return vscode.l10n.t(
    'Opened the trace of {0}, the job that failed in pipeline #{1}.',
    job.name,
    pipeline.id,
  );
}

/** Rebases onto the target and follows it to its end (GitLab runs it in the background). */
async function rebase(context: MergeRequestCommandContext, target: MergeRequestTarget): Promise<string> {
  const { account, project } = target;
  const { iid, target_branch: onto } = target.mergeRequest;
  const client = await context.services.accounts.client(account.id);
  try {
    await withCancellableProgress(vscode.l10n.t('Rebasing !{0} onto {1}…', iid, onto), (signal) =>
      rebaseAndFollow(client, project.id, iid, { signal }),
    );
  } catch (error) {
    if (error instanceof RebaseFailedError)
      throw new Error(vscode.l10n.t('The server could not rebase !{0}: {1}', iid, error.message), {
        cause: error,
      });
    throw error;
  } finally {
    afterMergeRequestChange(context, { account, project, mergeRequest: target.mergeRequest });
  }
  context.services.log.info(`Rebased !${iid} of ${project.id} onto ${onto}`);
  return vscode.l10n.t('Rebased !{0} onto {1}.', iid, onto);
}

/** Every changed file in the diff editor, with its threads; the Comments view lists them. */
async function openThreads(context: MergeRequestCommandContext, target: MergeRequestTarget): Promise<string> {
  const { review } = context;
  if (!review) throw new Error(vscode.l10n.t('Reviews are not available in this window.'));
  const { account, project, mergeRequest } = target;
  const unresolved = await review.openThreads({ accountId: account.id, project, mergeRequest });
  return unresolved === 1
    ? vscode.l10n.t('!{0} has 1 unresolved thread on the lines of its diff.', mergeRequest.iid)
    : vscode.l10n.t(
        '!{0} has {1} unresolved threads on the lines of its diff.',
        mergeRequest.iid,
        unresolved,
      );
}

/** Shows a diff comment's line in the diff editor (an outdated one on its own version). */
export async function openNoteLine(
  context: MergeRequestCommandContext,
  target: MergeRequestTarget,
  notes: readonly Note[],
  noteId: number,
): Promise<void> {
  const { review } = context;
  if (!review) throw new Error(vscode.l10n.t('Reviews are not available in this window.'));
  const note = notes.find((each) => each.id === noteId);
  const position = diffPositionOf(note);
  if (!position) throw new Error(vscode.l10n.t('This comment is not on a line of the diff.'));
  const { account, project, mergeRequest } = target;
  await review.openNoteLine({ accountId: account.id, project, mergeRequest }, position, noteId);
}

/** Takes the draft mark off the title, as GitLab's "Mark as ready" does; the views follow. */
async function markReady(context: MergeRequestCommandContext, target: MergeRequestTarget): Promise<string> {
  const { account, project } = target;
  const { iid, title } = target.mergeRequest;
  const client = await context.services.accounts.client(account.id);
  const updated = await client.updateMergeRequest(project.id, iid, { title: readyTitle(title) });
  afterMergeRequestChange(context, { account, project, mergeRequest: target.mergeRequest });
  return vscode.l10n.t('!{0} is ready: {1}', iid, updated.title);
}

/** Approves the head the panel shows (refused with 409 if it moved), or takes the approval back. */
async function approve(
  context: MergeRequestCommandContext,
  target: MergeRequestTarget,
  approving: boolean,
): Promise<string> {
  const { account, project } = target;
  const { iid } = target.mergeRequest;
  const client = await context.services.accounts.client(account.id);
  const sha = target.mergeRequest.sha ?? undefined;
  try {
    if (approving) await client.approve(project.id, iid, sha === undefined ? {} : { sha });
    else await client.unapprove(project.id, iid);
  } catch (error) {
    // 409: the head moved since the panel was read; the panel reads it again after every action.
    if (approving && error instanceof ConflictError)
      throw new Error(
        vscode.l10n.t(
          'The branch of !{0} moved since you looked: the panel shows it as it is now. Check the changes and approve again.',
          iid,
        ),
        { cause: error },
      );
    throw error;
  } finally {
    // The Merge Requests and Projects views say whether it needs approval.
    afterMergeRequestChange(context, { account, project, mergeRequest: target.mergeRequest });
  }
  context.services.log.info(`${approving ? 'Approved' : 'Unapproved'} !${iid} of ${project.id}`);
  if (approving && sha !== undefined)
    await context.review?.reviewed(
      { accountId: account.id, project, mergeRequest: target.mergeRequest },
      sha,
    );
  return approving
    ? vscode.l10n.t('Approved !{0}.', iid)
    : vscode.l10n.t('Took back your approval of !{0}.', iid);
}

/** Publishes the viewer's pending review comments, through the review feature (its threads follow). */
async function submitReview(
  context: MergeRequestCommandContext,
  target: MergeRequestTarget,
): Promise<string> {
  const { review } = context;
  if (!review) throw new Error(vscode.l10n.t('Reviews are not available in this window.'));
  const { account, project, mergeRequest } = target;
  const { published } = await review.submit({ accountId: account.id, project, mergeRequest });
  return published === 1
    ? vscode.l10n.t('Review submitted: 1 comment published.')
    : vscode.l10n.t('Review submitted: {0} comments published.', published);
}

/**
 * The unresolved threads of the Discussion tab that are not on a line of the diff: "Open unresolved
 * threads" shows the first in the panel, as the diff editor shows the others.
 */
export function unresolvedGeneralThreads(notes: readonly NoteView[]): NoteView[] {
  return notes.filter((note) => note.thread?.resolved === false && note.place === undefined);
}

/** What "Open unresolved threads" says when the discussion has unresolved threads off the diff too. */
export function generalThreadsText(count: number): string {
  return count === 1
    ? vscode.l10n.t('1 more is in the discussion: shown in the Discussion tab.')
    : vscode.l10n.t('{0} more are in the discussion: the first is shown in the Discussion tab.', count);
}
