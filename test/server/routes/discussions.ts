/**
 * Merge request discussions, beyond the seed spec, as GitLab's REST API documents them: threads of
 * notes, diff threads with a `position` (a position on a line the diff does not show is refused
 * with 400, as GitLab does), replies, resolving.
 */
import { createHash } from 'node:crypto';
import type { Handler, RequestContext } from '../context';
import { created, errors, ok, type ApiResponse } from '../http';
import type { Router } from '../router';
import type { DiffPosition, LineRangeEnd, MergeRequest, Note } from '../state';
import { findMergeRequest } from './parents';
import { noteSuggestions } from './suggestions';
import { diffsBetween } from './repository';

const ONE = '/projects/:id/merge_requests/:merge_request_iid';

export function registerDiscussionRoutes(router: Router<Handler>): void {
  router.get(`${ONE}/discussions`, listDiscussions, { public: true });
  router.post(`${ONE}/discussions`, createDiscussion);
  router.post(`${ONE}/discussions/:discussion_id/notes`, reply);
  router.put(`${ONE}/discussions/:discussion_id`, resolve);
}

/** A note's thread id: its own, or one made from the note for a comment that started none. */
function threadOf(note: Note): string {
  return note.discussionId ?? createHash('sha1').update(`note-${note.id}`).digest('hex');
}

function notesOf(ctx: RequestContext, mergeRequest: MergeRequest): Note[] {
  return [...ctx.state.notes.values()]
    .filter((note) => note.noteableType === 'MergeRequest' && note.noteableId === mergeRequest.id)
    .sort((a, b) => a.id - b.id);
}

function noteJson(ctx: RequestContext, note: Note): Record<string, unknown> {
  const mergeRequest = ctx.state.mergeRequests.get(note.noteableId);
  const json = ctx.present.note(note) as Record<string, unknown>;
  const resolvable = note.resolvable === true;
  return {
    ...json,
    type: note.position ? 'DiffNote' : note.discussionId ? 'DiscussionNote' : null,
    ...(note.position ? { position: note.position } : {}),
    suggestions: mergeRequest ? noteSuggestions(ctx.state, mergeRequest, note) : [],
    resolvable,
    ...(resolvable
      ? {
          resolved: note.resolvedById != null,
          resolved_by: ctx.present.userById(note.resolvedById ?? null),
        }
      : {}),
  };
}

function discussionJson(ctx: RequestContext, id: string, notes: readonly Note[]): unknown {
  return {
    id,
    individual_note: notes.length === 1 && notes[0]?.discussionId === undefined,
    notes: notes.map((note) => noteJson(ctx, note)),
  };
}

export function threads(ctx: RequestContext, mergeRequest: MergeRequest): Map<string, Note[]> {
  const byThread = new Map<string, Note[]>();
  for (const note of notesOf(ctx, mergeRequest)) {
    const id = threadOf(note);
    byThread.set(id, [...(byThread.get(id) ?? []), note]);
  }
  return byThread;
}

function listDiscussions(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  const all = [...threads(ctx, mergeRequest)].map(([id, notes]) => ({ id, notes }));
  return ctx.list(all, ({ id, notes }) => discussionJson(ctx, id, notes));
}

/** Old and new line numbers a unified diff shows (context lines are on both sides). */
export function linesShown(diff: string): { old: Set<number>; new: Set<number> } {
  const shown = { old: new Set<number>(), new: new Set<number>() };
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const line of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
    } else if (!inHunk)
      continue; // the `--- a/…` and `+++ b/…` file headers
    else if (line.startsWith('-')) shown.old.add(oldLine++);
    else if (line.startsWith('+')) shown.new.add(newLine++);
    else if (line.startsWith(' ')) {
      shown.old.add(oldLine++);
      shown.new.add(newLine++);
    }
  }
  return shown;
}

const INVALID_LINE = () =>
  errors.badRequest('400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}');

/**
 * The files of the diff a position names: the merge request's own when it names its head and base,
 * else (a commit of it, two versions compared) the diff between the two commits it names, as GitLab
 * reads a position on older commits.
 */
function positionChanges(
  ctx: RequestContext,
  mergeRequest: MergeRequest,
  position: DiffPosition,
): Record<string, unknown>[] {
  const head = ctx.state.mergeRequestHeadSha(mergeRequest);
  if (position.head_sha === head && position.base_sha === mergeRequest.baseSha)
    return (
      (ctx.present.mergeRequest(mergeRequest, true) as { changes?: Record<string, unknown>[] }).changes ?? []
    );
  if (!ctx.state.commits.has(position.base_sha) || !ctx.state.commits.has(position.head_sha))
    throw errors.badParameter('position is invalid');
  return diffsBetween(ctx, position.base_sha, position.head_sha) as Record<string, unknown>[];
}

/** The position as GitLab stores it, or a 400 like GitLab's when it names no line of the diff. */
export function checkedPosition(
  ctx: RequestContext,
  mergeRequest: MergeRequest,
  given: Readonly<Record<string, unknown>>,
): DiffPosition {
  const text = (key: string): string => {
    const value = given[key];
    return typeof value === 'string' ? value : '';
  };
  const line = (key: string): number | null => {
    const value = given[key];
    const number = typeof value === 'string' ? Number(value) : value;
    return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : null;
  };
  const position: DiffPosition = {
    base_sha: text('base_sha'),
    start_sha: text('start_sha'),
    head_sha: text('head_sha'),
    old_path: text('old_path'),
    new_path: text('new_path'),
    position_type: 'text',
    old_line: line('old_line'),
    new_line: line('new_line'),
  };
  if (text('position_type') !== 'text')
    throw errors.badParameter('position[position_type] does not have a valid value');
  if (!position.base_sha || !position.head_sha || !position.start_sha)
    throw errors.badParameter('position is invalid');
  const changes = positionChanges(ctx, mergeRequest, position);
  const change = changes.find(
    (each) => each['new_path'] === position.new_path && each['old_path'] === position.old_path,
  );
  if (!change || (position.old_line === null && position.new_line === null)) throw INVALID_LINE();
  const diff = change['diff'];
  const shown = linesShown(typeof diff === 'string' ? diff : '');
  if (position.new_line !== null && !shown.new.has(position.new_line)) throw INVALID_LINE();
  if (position.new_line === null && position.old_line !== null && !shown.old.has(position.old_line))
    throw INVALID_LINE();
  const range = given['line_range'];
  if (range === undefined) return position;
  return { ...position, line_range: checkedRange(range, shown) };
}

/** Both ends of a range on lines the diff shows, each with a line code, or GitLab's 400. */
function checkedRange(
  given: unknown,
  shown: { old: Set<number>; new: Set<number> },
): { start: LineRangeEnd; end: LineRangeEnd } {
  const end = (value: unknown): LineRangeEnd => {
    const fields = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const line = (key: string): number | null => {
      const raw = fields[key];
      const number = typeof raw === 'string' ? Number(raw) : raw;
      return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : null;
    };
    const type = fields['type'] === 'new' || fields['type'] === 'old' ? fields['type'] : null;
    const lineCode = fields['line_code'];
    const checked: LineRangeEnd = {
      line_code: typeof lineCode === 'string' ? lineCode : '',
      type,
      old_line: line('old_line'),
      new_line: line('new_line'),
    };
    const onShownLine =
      checked.new_line !== null
        ? shown.new.has(checked.new_line)
        : checked.old_line !== null && shown.old.has(checked.old_line);
    if (!/^[0-9a-f]{40}_\d+_\d+$/.test(checked.line_code) || !onShownLine) throw INVALID_LINE();
    return checked;
  };
  const range = (typeof given === 'object' && given !== null ? given : {}) as Record<string, unknown>;
  return { start: end(range['start']), end: end(range['end']) };
}

export function addNote(
  ctx: RequestContext,
  mergeRequest: MergeRequest,
  fields: Partial<Note>,
  text = ctx.params.string('body'),
): Note {
  const caller = ctx.requireCaller();
  const body = text;
  if (!body) throw errors.badParameter('body is missing');
  const now = ctx.state.now();
  const note: Note = {
    id: ctx.state.nextId('note'),
    projectId: mergeRequest.projectId,
    noteableType: 'MergeRequest',
    noteableId: mergeRequest.id,
    body,
    authorId: caller.id,
    system: false,
    createdAt: now,
    updatedAt: now,
    resolvable: true,
    resolvedById: null,
    ...fields,
  };
  ctx.state.notes.set(note.id, note);
  return note;
}

/** A new thread id, 40 hex digits as GitLab's. */
export function newThreadId(ctx: RequestContext): string {
  return createHash('sha1').update(`discussion-${ctx.state.now()}-${Math.random()}`).digest('hex');
}

function createDiscussion(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  const raw = ctx.params.object('position');
  const position = raw === undefined ? undefined : checkedPosition(ctx, mergeRequest, raw);
  const discussionId = newThreadId(ctx);
  const note = addNote(ctx, mergeRequest, { discussionId, ...(position ? { position } : {}) });
  return created(discussionJson(ctx, discussionId, [note]));
}

function threadNotes(ctx: RequestContext, mergeRequest: MergeRequest): { id: string; notes: Note[] } {
  const id = ctx.pathString('discussion_id');
  const notes = threads(ctx, mergeRequest).get(id);
  if (!notes) throw errors.notFound('Discussion');
  return { id, notes };
}

function reply(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  const { id, notes } = threadNotes(ctx, mergeRequest);
  const first = notes[0];
  // Replying to a lone comment turns it into a thread.
  if (first && first.discussionId === undefined) first.discussionId = id;
  // A reply in a diff thread is a diff note on the same line, as on GitLab.
  const note = addNote(ctx, mergeRequest, {
    discussionId: id,
    ...(first?.position ? { position: first.position } : {}),
  });
  return created(noteJson(ctx, note));
}

function resolve(ctx: RequestContext): ApiResponse {
  const mergeRequest = findMergeRequest(ctx, ctx.project());
  const caller = ctx.requireCaller();
  const resolved = ctx.params.boolean('resolved');
  if (resolved === undefined) throw errors.badParameter('resolved is missing');
  const { id, notes } = threadNotes(ctx, mergeRequest);
  if (!notes.some((note) => note.resolvable === true))
    throw errors.badRequest('Discussion is not resolvable');
  for (const note of notes) if (note.resolvable) note.resolvedById = resolved ? caller.id : null;
  return ok(discussionJson(ctx, id, notes));
}
