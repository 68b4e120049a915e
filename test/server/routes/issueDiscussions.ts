/**
 * Issue threads, beyond the seed spec, as GitLab's discussions API has them: a single comment is a
 * thread of one (`individual_note`), a reply to it makes it a thread, and issue threads are not
 * resolvable (`resolvable: false`). A confidential issue's threads answer 404 to whoever may not see it.
 */
import { createHash } from 'node:crypto';
import type { Handler, RequestContext } from '../context';
import { created, errors, type ApiResponse } from '../http';
import type { Router } from '../router';
import type { Issue, Note } from '../state';
import { newThreadId } from './discussions';
import { visibleIssue } from './parents';

const ONE = '/projects/:id/issues/:issue_iid';

export function registerIssueDiscussionRoutes(router: Router<Handler>): void {
  router.get(`${ONE}/discussions`, listDiscussions, { public: true });
  router.post(`${ONE}/discussions`, createDiscussion);
  router.post(`${ONE}/discussions/:discussion_id/notes`, reply);
}

function threadOf(note: Note): string {
  return note.discussionId ?? createHash('sha1').update(`note-${note.id}`).digest('hex');
}

function threads(ctx: RequestContext, issue: Issue): Map<string, Note[]> {
  const byThread = new Map<string, Note[]>();
  const notes = [...ctx.state.notes.values()]
    .filter((note) => note.noteableType === 'Issue' && note.noteableId === issue.id)
    .sort((a, b) => a.id - b.id);
  for (const note of notes) byThread.set(threadOf(note), [...(byThread.get(threadOf(note)) ?? []), note]);
  return byThread;
}

function noteJson(ctx: RequestContext, note: Note): Record<string, unknown> {
  return {
    ...(ctx.present.note(note) as Record<string, unknown>),
    type: note.discussionId ? 'DiscussionNote' : null,
    resolvable: false,
  };
}

function discussionJson(ctx: RequestContext, id: string, notes: readonly Note[]): unknown {
  return {
    id,
    individual_note: notes.length === 1 && notes[0]?.discussionId === undefined,
    notes: notes.map((note) => noteJson(ctx, note)),
  };
}

function listDiscussions(ctx: RequestContext): ApiResponse {
  const issue = visibleIssue(ctx, ctx.project());
  const all = [...threads(ctx, issue)].map(([id, notes]) => ({ id, notes }));
  return ctx.list(all, ({ id, notes }) => discussionJson(ctx, id, notes));
}

function addNote(ctx: RequestContext, issue: Issue, discussionId: string): Note {
  const caller = ctx.requireCaller();
  const body = ctx.params.string('body');
  if (!body) throw errors.badParameter('body is missing');
  const now = ctx.state.now();
  const note: Note = {
    id: ctx.state.nextId('note'),
    projectId: issue.projectId,
    noteableType: 'Issue',
    noteableId: issue.id,
    body,
    authorId: caller.id,
    system: false,
    createdAt: now,
    updatedAt: now,
    discussionId,
  };
  ctx.state.notes.set(note.id, note);
  issue.updatedAt = now;
  return note;
}

function createDiscussion(ctx: RequestContext): ApiResponse {
  const issue = visibleIssue(ctx, ctx.project());
  const id = newThreadId(ctx);
  return created(discussionJson(ctx, id, [addNote(ctx, issue, id)]));
}

function reply(ctx: RequestContext): ApiResponse {
  const issue = visibleIssue(ctx, ctx.project());
  const id = ctx.pathString('discussion_id');
  const notes = threads(ctx, issue).get(id);
  const first = notes?.[0];
  if (!first) throw errors.notFound('Discussion');
  // Replying to a lone comment (or a system note) turns it into a thread, as on GitLab.
  first.discussionId ??= id;
  return created(noteJson(ctx, addNote(ctx, issue, id)));
}
