/**
 * Merge request approvals and rebase, beyond the seed spec, as GitLab's REST API documents them
 * (Free tier: anyone with access may approve, except the author; 0 approvals required unless the
 * merge request says otherwise, as Premium rules would).
 */
import type { Handler, RequestContext } from '../context';
import { created, errors, ok, type ApiResponse } from '../http';
import { approvalsLeft } from '../present';
import type { Router } from '../router';
import { ACCESS, type MergeRequest, type Project } from '../state';
import { findMergeRequest } from './parents';

const ONE = '/projects/:id/merge_requests/:merge_request_iid';

export function registerApprovalRoutes(router: Router<Handler>): void {
  router.get(`${ONE}/approvals`, getApprovals, { public: true });
  router.post(`${ONE}/approve`, approve);
  router.post(`${ONE}/unapprove`, unapprove);
  router.put(`${ONE}/rebase`, rebase);
}

function approvalsJson(ctx: RequestContext, mergeRequest: MergeRequest): unknown {
  const approvers = [...(mergeRequest.approvedByIds ?? [])];
  const caller = ctx.caller;
  const left = approvalsLeft(mergeRequest);
  return {
    id: mergeRequest.id,
    iid: mergeRequest.iid,
    project_id: mergeRequest.projectId,
    title: mergeRequest.title,
    state: mergeRequest.state,
    // With rules, approved once none is left; without (Free), once anyone approved.
    approved: (mergeRequest.approvalsRequired ?? 0) > 0 ? left === 0 : approvers.length > 0,
    approvals_required: mergeRequest.approvalsRequired ?? 0,
    approvals_left: left,
    approved_by: approvers.map((id) => ({ user: ctx.present.userById(id) })),
    user_has_approved: caller !== undefined && approvers.includes(caller.id),
    user_can_approve: caller !== undefined && caller.id !== mergeRequest.authorId,
  };
}

function getApprovals(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  return ok(approvalsJson(ctx, mergeRequest));
}

/** 401 for the author, a closed merge request, or a second approval; 409 when `sha` is not the head. */
function approve(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const mergeRequest = findMergeRequest(ctx, project);
  const caller = ctx.requireCaller();
  const approvers = (mergeRequest.approvedByIds ??= new Set());
  if (caller.id === mergeRequest.authorId || mergeRequest.state !== 'opened' || approvers.has(caller.id))
    throw errors.unauthorized();
  const head = ctx.state.projects
    .get(mergeRequest.sourceProjectId)
    ?.branches.get(mergeRequest.sourceBranch)?.commitSha;
  const sha = ctx.params.string('sha');
  if (sha !== undefined && sha !== head) {
    throw errors.conflict(`SHA does not match HEAD of source branch: ${head ?? ''}`);
  }
  approvers.add(caller.id);
  mergeRequest.updatedAt = ctx.state.now();
  return created(approvalsJson(ctx, mergeRequest));
}

/** 404 when the caller had not approved. */
function unapprove(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  const caller = ctx.requireCaller();
  if (!mergeRequest.approvedByIds?.delete(caller.id)) throw errors.notFound();
  mergeRequest.updatedAt = ctx.state.now();
  return created(approvalsJson(ctx, mergeRequest));
}

/**
 * Developers and up. As on GitLab, the rebase runs in the background: the merge request reports
 * `rebase_in_progress` (when asked with `include_rebase_in_progress`) for a couple of reads, then
 * the new base, or `merge_error` when it failed.
 */
function rebase(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const mergeRequest = findMergeRequest(ctx, project);
  ctx.requireCaller();
  if (ctx.accessLevel(project) < ACCESS.developer) throw errors.forbidden();
  if (mergeRequest.state !== 'opened') throw errors.status(405, 'Method Not Allowed');
  if (mergeRequest.rebase) throw errors.status(409, 'Rebase is already in progress');
  mergeRequest.rebase = {
    readsLeft: 2,
    ...(mergeRequest.mergeStatus === 'cannot_be_merged'
      ? { error: 'Rebase failed: Rebase locally, resolve all conflicts, then push the branch.' }
      : {}),
  };
  mergeRequest.mergeError = null;
  return { status: 202, json: { rebase_in_progress: true } };
}

/** One read of a merge request while its rebase runs: in progress, then landed (or failed). */
export function rebaseProgress(project: Project, mergeRequest: MergeRequest): boolean {
  const running = mergeRequest.rebase;
  if (!running) return false;
  running.readsLeft -= 1;
  if (running.readsLeft > 0) return true;
  mergeRequest.rebase = undefined;
  if (running.error !== undefined) {
    mergeRequest.mergeError = running.error;
    return false;
  }
  const target = project.branches.get(mergeRequest.targetBranch);
  if (target) mergeRequest.baseSha = target.commitSha;
  return false;
}
