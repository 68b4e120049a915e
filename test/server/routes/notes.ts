import type { Handler, RequestContext } from '../context';
import { alreadyDeleted, created, errors, noContent, ok, type ApiResponse } from '../http';
import type { Router } from '../router';
import { ACCESS, type AwardEmoji, type Note } from '../state';
import { PARENT_PATHS, awardInNoteBody, resolveParent, type Parent, type ParentKind } from './parents';

const PUBLIC = { public: true };

/** The same five operations for issues, snippets and merge requests. */
export function registerNoteRoutes(router: Router<Handler>): void {
  for (const kind of Object.keys(PARENT_PATHS) as ParentKind[]) {
    const base = `${PARENT_PATHS[kind]}/notes`;
    router.get(base, (ctx) => listNotes(ctx, kind), PUBLIC);
    router.get(`${base}/:note_id`, (ctx) => getNote(ctx, kind), PUBLIC);
    router.post(base, (ctx) => createNote(ctx, kind));
    router.put(`${base}/:note_id`, (ctx) => updateNote(ctx, kind));
    router.delete(`${base}/:note_id`, (ctx) => deleteNote(ctx, kind));
  }
}

function notesOf(ctx: RequestContext, parent: Parent): Note[] {
  return [...ctx.state.notes.values()].filter(
    (note) => note.noteableType === parent.type && note.noteableId === parent.id,
  );
}

function findNote(ctx: RequestContext, parent: Parent): Note {
  const note = ctx.state.notes.get(ctx.pathInt('note_id'));
  if (!note || note.noteableType !== parent.type || note.noteableId !== parent.id)
    throw errors.notFound('Note');
  return note;
}

/** Newest first by default, like real servers; order_by created_at/updated_at and sort asc/desc. */
function listNotes(ctx: RequestContext, kind: ParentKind): ApiResponse {
  const parent = resolveParent(ctx, kind);
  const orderBy = ctx.params.oneOf('order_by', ['created_at', 'updated_at'] as const) ?? 'created_at';
  const direction = (ctx.params.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc') === 'asc' ? 1 : -1;
  const notes = notesOf(ctx, parent).sort((a, b) => {
    const left = orderBy === 'created_at' ? a.createdAt : a.updatedAt;
    const right = orderBy === 'created_at' ? b.createdAt : b.updatedAt;
    return (left < right ? -1 : left > right ? 1 : a.id - b.id) * direction;
  });
  return ctx.list(notes, (note) => ctx.present.note(note));
}

function getNote(ctx: RequestContext, kind: ParentKind): ApiResponse {
  const parent = resolveParent(ctx, kind);
  return ok(ctx.present.note(findNote(ctx, parent)));
}

/**
 * 201 with the note. A body that is only an award emoji (`:thumbsup:`) awards it instead and returns the
 * award emoji. `created_at` is honoured on issues only. `@username` mentions give those users a todo.
 */
function createNote(ctx: RequestContext, kind: ParentKind): ApiResponse {
  const parent = resolveParent(ctx, kind);
  const author = ctx.requireCaller();
  if (parent.project.archived) throw errors.forbidden();
  ctx.params.require('body');
  const body = ctx.params.string('body') as string;
  const now = ctx.state.now();

  const emoji = awardInNoteBody(body);
  if (emoji) {
    const award: AwardEmoji = {
      id: ctx.state.nextId('award'),
      projectId: parent.project.id,
      name: emoji,
      userId: author.id,
      awardableType: parent.type,
      awardableId: parent.id,
      createdAt: now,
      updatedAt: now,
    };
    ctx.state.awardEmoji.set(award.id, award);
    return created(ctx.present.awardEmoji(award));
  }

  const createdAt = kind === 'issues' ? (ctx.params.dateTime('created_at') ?? now) : now;
  const note: Note = {
    id: ctx.state.nextId('note'),
    projectId: parent.project.id,
    noteableType: parent.type,
    noteableId: parent.id,
    body,
    authorId: author.id,
    system: false,
    createdAt,
    updatedAt: createdAt,
  };
  ctx.state.notes.set(note.id, note);
  ctx.state.addEvent({
    projectId: parent.project.id,
    actionName: 'commented on',
    authorId: author.id,
    targetType: 'Note',
    targetId: note.id,
    targetTitle: parent.title,
    noteId: note.id,
  });
  addMentionTodos(ctx, parent, note);
  return created(ctx.present.note(note));
}

function addMentionTodos(ctx: RequestContext, parent: Parent, note: Note): void {
  const target = parent.todoTarget;
  if (!target) return;
  const mentioned = new Set<number>();
  for (const match of note.body.matchAll(/(?:^|[^\w@])@([a-zA-Z0-9_.-]+)/g)) {
    const user = match[1] ? ctx.state.findUser(match[1]) : undefined;
    if (!user || user.id === note.authorId || mentioned.has(user.id)) continue;
    if (!ctx.state.canReadProject(parent.project, user)) continue;
    mentioned.add(user.id);
    ctx.state.addTodo({
      userId: user.id,
      projectId: parent.project.id,
      authorId: note.authorId,
      actionName: 'mentioned',
      targetType: target.type,
      targetId: target.id,
      body: note.body,
      createdAt: note.createdAt,
    });
  }
}

/** Only the author (or an administrator) may edit a note. */
function updateNote(ctx: RequestContext, kind: ParentKind): ApiResponse {
  const parent = resolveParent(ctx, kind);
  const caller = ctx.requireCaller();
  const note = findNote(ctx, parent);
  if (note.authorId !== caller.id && !caller.isAdmin) throw errors.forbidden();
  if (parent.project.archived) throw errors.forbidden();
  ctx.params.require('body');
  note.body = ctx.params.string('body') as string;
  note.updatedAt = ctx.state.now();
  return ok(ctx.present.note(note));
}

/** The author, a maintainer or an administrator; 204, or 200 when the note was already gone. */
function deleteNote(ctx: RequestContext, kind: ParentKind): ApiResponse {
  const parent = resolveParent(ctx, kind);
  const caller = ctx.requireCaller();
  const note = ctx.state.notes.get(ctx.pathInt('note_id'));
  if (!note || note.noteableType !== parent.type || note.noteableId !== parent.id) return alreadyDeleted();
  if (note.authorId !== caller.id && ctx.accessLevel(parent.project) < ACCESS.maintainer)
    throw errors.forbidden();
  ctx.state.notes.delete(note.id);
  ctx.state.deleteAwardable('Note', note.id);
  return noContent();
}
