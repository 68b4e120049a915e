import type { Handler, RequestContext } from '../context';
import { errors, ok, type ApiResponse } from '../http';
import type { Router } from '../router';

/** No credentials needed. The path segment is the service's own name, as on real servers. */
export function registerTemplateRoutes(router: Router<Handler>): void {
  router.get('/templates/gitlab_ci_ymls', listTemplates, { public: true });
  router.get('/templates/gitlab_ci_ymls/:key', getTemplate, { public: true });
}

function listTemplates(ctx: RequestContext): ApiResponse {
  return ctx.list(ctx.state.ciTemplates, (template) => ({ key: template.key, name: template.name }));
}

function getTemplate(ctx: RequestContext): ApiResponse {
  const key = ctx.pathString('key');
  const template = ctx.state.ciTemplates.find((candidate) => candidate.key === key);
  if (!template) throw errors.notFound('Template');
  return ok({ name: template.name, content: template.content });
}
