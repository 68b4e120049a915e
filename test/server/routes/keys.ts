import type { Handler, RequestContext } from '../context';
import { errors, ok, type ApiResponse } from '../http';
import type { Router } from '../router';

/** SSH key lookup by id: administrators only. */
export function registerKeyRoutes(router: Router<Handler>): void {
  router.get('/keys/:id', getKey);
}

function getKey(ctx: RequestContext): ApiResponse {
  ctx.requireAdmin();
  const key = ctx.state.sshKeys.get(ctx.pathInt('id'));
  if (!key) throw errors.notFound('Key');
  return ok(ctx.present.sshKey(key));
}
