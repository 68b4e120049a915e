/**
 * A review held as draft notes until it is published at once (GitLab 15.9+ `draft_notes`, beyond
 * the seed spec): each draft is its author's alone; publishing turns them into threads, diff
 * threads (the position checked then, as GitLab does) and replies.
 */
import type { Handler, RequestContext } from '../context';
import { created, errors, noContent, type ApiResponse } from '../http';
import type { Router } from '../router';
import type { DraftNote, MergeRequest } from '../state';
import { addNote, checkedPosition, newThreadId, threads } from './discussions';
import { findMergeRequest } from './parents';

const DRAFTS = '/projects/:id/merge_requests/:merge_request_iid/draft_notes';

export function registerDraftNoteRoutes(router: Router<Handler>): void {
  router.get(DRAFTS, listDraftNotes);
  router.post(DRAFTS, createDraftNote);
  router.post(`${DRAFTS}/bulk_publish`, publishAll);
  router.delete(`${DRAFTS}/:draft_note_id`, deleteDraftNote);
}

function draftJson(draft: DraftNote): unknown {
  return {
    id: draft.id,
    author_id: draft.authorId,
    merge_request_id: draft.mergeRequestId,
    resolve_discussion: false,
    discussion_id: draft.discussionId ?? null,
    note: draft.note,
    commit_id: null,
    line_code: null,
    // As GitLab answers (its documentation shows it): a draft without a position of its own (a
    // general comment, or a reply in a thread) has a position whose every field is null but its type.
    position: draft.position ?? NO_POSITION,
  };
}

const NO_POSITION = {
  base_sha: null,
  start_sha: null,
  head_sha: null,
  old_path: null,
  new_path: null,
  position_type: 'text',
  old_line: null,
  new_line: null,
  line_range: null,
};

function draftsOf(ctx: RequestContext, mergeRequest: MergeRequest): DraftNote[] {
  const caller = ctx.requireCaller();
  return [...ctx.state.draftNotes.values()].filter(
    (draft) => draft.mergeRequestId === mergeRequest.id && draft.authorId === caller.id,
  );
}

function listDraftNotes(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  return ctx.list(draftsOf(ctx, mergeRequest), draftJson);
}

function createDraftNote(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  const caller = ctx.requireCaller();
  const note = ctx.params.string('note');
  if (!note) throw errors.badParameter('note is missing');
  const raw = ctx.params.object('position');
  const replyTo = ctx.params.string('in_reply_to_discussion_id');
  if (replyTo !== undefined && !threads(ctx, mergeRequest).has(replyTo)) throw errors.notFound('Discussion');
  const draft: DraftNote = {
    id: ctx.state.nextId('draftNote'),
    mergeRequestId: mergeRequest.id,
    authorId: caller.id,
    note,
    ...(raw === undefined ? {} : { position: checkedPosition(ctx, mergeRequest, raw) }),
    ...(replyTo === undefined ? {} : { discussionId: replyTo }),
  };
  ctx.state.draftNotes.set(draft.id, draft);
  return created(draftJson(draft));
}

function deleteDraftNote(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  const id = ctx.pathInt('draft_note_id');
  if (!draftsOf(ctx, mergeRequest).some((draft) => draft.id === id)) throw errors.notFound('Draft Note');
  ctx.state.draftNotes.delete(id);
  return noContent();
}

function publishAll(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  const open = threads(ctx, mergeRequest);
  for (const draft of draftsOf(ctx, mergeRequest)) {
    // A reply in a diff thread is a diff note on the thread's line.
    const position =
      draft.position ?? (draft.discussionId ? open.get(draft.discussionId)?.[0]?.position : undefined);
    addNote(
      ctx,
      mergeRequest,
      {
        discussionId: draft.discussionId ?? newThreadId(ctx),
        ...(position ? { position } : {}),
      },
      draft.note,
    );
    ctx.state.draftNotes.delete(draft.id);
  }
  return noContent();
}
