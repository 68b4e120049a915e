/**
 * A merge request's versions and its diff a page at a time (GitLab 15.7+ `.../diffs`), beyond the
 * seed spec. The fake has one version: the base when the request was opened, and the head now.
 */
import { createHash } from 'node:crypto';
import type { Handler, RequestContext } from '../context';
import type { Router } from '../router';
import type { ApiResponse } from '../http';
import type { MergeRequest } from '../state';
import { findMergeRequest } from './parents';

const ONE = '/projects/:id/merge_requests/:merge_request_iid';

export function registerVersionRoutes(router: Router<Handler>): void {
  router.get(`${ONE}/versions`, listVersions, { public: true });
  router.get(`${ONE}/diffs`, listDiffs, { public: true });
}

function listVersions(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  const head = ctx.state.mergeRequestHeadSha(mergeRequest);
  const version = {
    // Stable for a head: a push makes a new version.
    id: Number.parseInt(
      createHash('sha1').update(`${mergeRequest.id}-${head}`).digest('hex').slice(0, 8),
      16,
    ),
    head_commit_sha: head,
    base_commit_sha: mergeRequest.baseSha,
    start_commit_sha: mergeRequest.baseSha,
    created_at: mergeRequest.updatedAt,
    merge_request_id: mergeRequest.id,
    state: 'collected',
    // Files changed, as a string (GitLab's `real_size`).
    real_size: String(changesOf(ctx, mergeRequest).length),
  };
  return ctx.list([version], (each) => each);
}

function changesOf(ctx: RequestContext, mergeRequest: MergeRequest): unknown[] {
  return (ctx.present.mergeRequest(mergeRequest, true) as { changes?: unknown[] }).changes ?? [];
}

function listDiffs(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  return ctx.list(changesOf(ctx, mergeRequest), (each) => each);
}
