import type { Handler, RequestContext } from '../context';
import { alreadyDeleted, created, errors, noContent, ok, type ApiResponse } from '../http';
import type { Router } from '../router';
import type { SystemHook } from '../state';

/** Administrators only: guests get 401, other users 403. */
export function registerSystemHookRoutes(router: Router<Handler>): void {
  router.get('/hooks', listHooks);
  router.post('/hooks', createHook);
  router.get('/hooks/:id', testHook);
  router.delete('/hooks/:id', deleteHook);
}

function listHooks(ctx: RequestContext): ApiResponse {
  ctx.requireAdmin();
  const hooks = [...ctx.state.systemHooks.values()].sort((a, b) => a.id - b.id);
  return ctx.list(hooks, (hook) => ctx.present.systemHook(hook));
}

/** 201 with the hook as an object (the spec's sample shows an array of one; real servers send the object). */
function createHook(ctx: RequestContext): ApiResponse {
  ctx.requireAdmin();
  ctx.params.require('url');
  const url = ctx.params.string('url') as string;
  let scheme: string;
  try {
    scheme = new URL(url).protocol;
  } catch {
    throw errors.validation({ url: ['is blocked: URI is invalid'] });
  }
  if (scheme !== 'http:' && scheme !== 'https:') {
    throw errors.validation({ url: ['is blocked: Only allowed schemes are http, https'] });
  }
  const hook: SystemHook = {
    id: ctx.state.nextId('hook'),
    url,
    token: ctx.params.string('token') ?? null,
    pushEvents: ctx.params.boolean('push_events') ?? true,
    tagPushEvents: ctx.params.boolean('tag_push_events') ?? false,
    enableSslVerification: ctx.params.boolean('enable_ssl_verification') ?? true,
    createdAt: ctx.state.now(),
  };
  ctx.state.systemHooks.set(hook.id, hook);
  return created(ctx.present.systemHook(hook));
}

/** GET /hooks/:id answers a sample project-creation event, as the spec's test endpoint does. */
function testHook(ctx: RequestContext): ApiResponse {
  ctx.requireAdmin();
  const hook = ctx.state.systemHooks.get(ctx.pathInt('id'));
  if (!hook) throw errors.notFound('Hook');
  return ok({
    project_id: 1,
    owner_email: 'example@example.com',
    owner_name: 'Someone',
    name: 'Ruby',
    path: 'ruby',
    event_name: 'project_create',
  });
}

/** 204, or 200 when it was already gone. */
function deleteHook(ctx: RequestContext): ApiResponse {
  ctx.requireAdmin();
  const id = ctx.pathInt('id');
  if (!ctx.state.systemHooks.delete(id)) return alreadyDeleted();
  return noContent();
}
