import type { Handler, RequestContext } from '../context';
import { ok, type ApiResponse } from '../http';
import type { Router } from '../router';

/**
 * Two real endpoints outside the spec's tables that clients use to check a token and a server:
 * GET /user (the caller) and GET /version.
 */
export function registerMiscRoutes(router: Router<Handler>): void {
  router.get('/user', currentUser);
  router.get('/version', version);
}

function currentUser(ctx: RequestContext): ApiResponse {
  const caller = ctx.requireCaller();
  return ok(ctx.present.userForKey(caller));
}

function version(_ctx: RequestContext): ApiResponse {
  return ok({ version: '16.11.1-fake', revision: 'f0rge000', kas: { enabled: false }, enterprise: false });
}
