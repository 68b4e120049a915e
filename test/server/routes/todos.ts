import type { Handler, RequestContext } from '../context';
import { errors, noContent, ok, type ApiResponse } from '../http';
import type { Router } from '../router';
import { TODO_ACTIONS } from '../state';

export function registerTodoRoutes(router: Router<Handler>): void {
  router.get('/todos', listTodos);
  router.post('/todos/:id/mark_as_done', markDone);
  router.post('/todos/mark_as_done', markAllDone);
}

/** The caller's todos, newest first; with no filter, the pending ones. */
function listTodos(ctx: RequestContext): ApiResponse {
  const caller = ctx.requireCaller();
  const { params, state } = ctx;
  const action = params.oneOf('action', TODO_ACTIONS);
  const authorId = params.integer('author_id');
  const projectId = params.integer('project_id');
  const todoState = params.oneOf('state', ['pending', 'done'] as const) ?? 'pending';
  const type = params.oneOf('type', ['Issue', 'MergeRequest'] as const);
  const readable = new Map<number, boolean>();
  const canRead = (id: number): boolean => {
    let allowed = readable.get(id);
    if (allowed === undefined) {
      const project = state.projects.get(id);
      allowed = project !== undefined && state.canReadProject(project, caller);
      readable.set(id, allowed);
    }
    return allowed;
  };
  const todos = [...state.todos.values()]
    .filter(
      (todo) =>
        todo.userId === caller.id &&
        todo.state === todoState &&
        (action === undefined || todo.actionName === action) &&
        (authorId === undefined || todo.authorId === authorId) &&
        (projectId === undefined || todo.projectId === projectId) &&
        (type === undefined || todo.targetType === type) &&
        canRead(todo.projectId),
    )
    .sort((a, b) => b.id - a.id);
  return ctx.list(todos, (todo) => ctx.present.todo(todo));
}

function markDone(ctx: RequestContext): ApiResponse {
  const caller = ctx.requireCaller();
  const todo = ctx.state.todos.get(ctx.pathInt('id'));
  if (!todo || todo.userId !== caller.id) throw errors.notFound('Todo');
  todo.state = 'done';
  return ok(ctx.present.todo(todo));
}

/** 204 with an empty body. */
function markAllDone(ctx: RequestContext): ApiResponse {
  const caller = ctx.requireCaller();
  for (const todo of ctx.state.todos.values())
    if (todo.userId === caller.id && todo.state === 'pending') todo.state = 'done';
  return noContent();
}
