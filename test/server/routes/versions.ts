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

/** One version per push; the fake counts each commit of the request as a push. Newest first. */
function listVersions(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  const head = ctx.state.mergeRequestHeadSha(mergeRequest);
  const heads = ctx.state.commitsBetween(mergeRequest.baseSha, head);
  const versions = (heads.length > 0 ? heads : [{ id: head, committedDate: mergeRequest.updatedAt }]).map(
    (commit) => ({
      // Stable for a head: a push makes a new version.
      id: Number.parseInt(
        createHash('sha1').update(`${mergeRequest.id}-${commit.id}`).digest('hex').slice(0, 8),
        16,
      ),
      head_commit_sha: commit.id,
      base_commit_sha: mergeRequest.baseSha,
      start_commit_sha: mergeRequest.baseSha,
      created_at: commit.committedDate,
      merge_request_id: mergeRequest.id,
      state: 'collected',
      // Files changed, as a string (GitLab's `real_size`); the newest version's.
      real_size: String(changesOf(ctx, mergeRequest).length),
    }),
  );
  return ctx.list(versions, (each) => each);
}

function changesOf(ctx: RequestContext, mergeRequest: MergeRequest): unknown[] {
  return (ctx.present.mergeRequest(mergeRequest, true) as { changes?: unknown[] }).changes ?? [];
}

function listDiffs(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  return ctx.list(changesOf(ctx, mergeRequest), (each) => each);
}
