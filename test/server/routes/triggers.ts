import type { Handler, RequestContext } from '../context';
import { alreadyDeleted, created, errors, noContent, ok, type ApiResponse } from '../http';
import type { Router } from '../router';
import { ACCESS, type Project, type Trigger } from '../state';

/** Pipeline triggers need a maintainer (or an administrator), as on real servers. */
export function registerTriggerRoutes(router: Router<Handler>): void {
  router.get('/projects/:id/triggers', listTriggers);
  router.get('/projects/:id/triggers/:trigger_id', getTrigger);
  router.post('/projects/:id/triggers', createTrigger);
  router.put('/projects/:id/triggers/:trigger_id', updateTrigger);
  router.post('/projects/:id/triggers/:trigger_id/take_ownership', takeOwnership);
  router.delete('/projects/:id/triggers/:trigger_id', deleteTrigger);
}

function maintainedProject(ctx: RequestContext): Project {
  const project = ctx.project();
  ctx.requireAccess(project, ACCESS.maintainer);
  return project;
}

function findTrigger(ctx: RequestContext, project: Project): Trigger {
  const trigger = ctx.state.triggers.get(ctx.pathInt('trigger_id'));
  if (!trigger || trigger.projectId !== project.id) throw errors.notFound('Trigger');
  return trigger;
}

function listTriggers(ctx: RequestContext): ApiResponse {
  const project = maintainedProject(ctx);
  const triggers = [...ctx.state.triggers.values()]
    .filter((trigger) => trigger.projectId === project.id)
    .sort((a, b) => a.id - b.id);
  return ctx.list(triggers, (trigger) => ctx.present.trigger(trigger));
}

function getTrigger(ctx: RequestContext): ApiResponse {
  return ok(ctx.present.trigger(findTrigger(ctx, maintainedProject(ctx))));
}

function createTrigger(ctx: RequestContext): ApiResponse {
  const project = maintainedProject(ctx);
  const caller = ctx.requireCaller();
  ctx.params.require('description');
  const now = ctx.state.now();
  const trigger: Trigger = {
    id: ctx.state.nextId('trigger'),
    projectId: project.id,
    description: ctx.params.string('description') as string,
    token: `glptt-${ctx.state.random.hex(40)}`,
    ownerId: caller.id,
    createdAt: now,
    updatedAt: now,
    lastUsed: null,
  };
  ctx.state.triggers.set(trigger.id, trigger);
  return created(ctx.present.trigger(trigger));
}

function updateTrigger(ctx: RequestContext): ApiResponse {
  const trigger = findTrigger(ctx, maintainedProject(ctx));
  const description = ctx.params.string('description');
  if (description !== undefined) trigger.description = description;
  trigger.updatedAt = ctx.state.now();
  return ok(ctx.present.trigger(trigger));
}

function takeOwnership(ctx: RequestContext): ApiResponse {
  const trigger = findTrigger(ctx, maintainedProject(ctx));
  trigger.ownerId = ctx.requireCaller().id;
  trigger.updatedAt = ctx.state.now();
  return ok(ctx.present.trigger(trigger));
}

/** 204, or 200 when it was already gone. */
function deleteTrigger(ctx: RequestContext): ApiResponse {
  const project = maintainedProject(ctx);
  const trigger = ctx.state.triggers.get(ctx.pathInt('trigger_id'));
  if (!trigger || trigger.projectId !== project.id) return alreadyDeleted();
  ctx.state.triggers.delete(trigger.id);
  return noContent();
}
