import type { Handler, RequestContext } from '../context';
import { alreadyDeleted, created, errors, noContent, ok, type ApiResponse } from '../http';
import type { Router } from '../router';
import type { BroadcastMessage } from '../state';

/** Administrators only: a guest gets 401, a normal user 403 (spec, Authentication 4). */
export function registerBroadcastMessageRoutes(router: Router<Handler>): void {
  router.get('/broadcast_messages', listMessages);
  router.get('/broadcast_messages/:id', getMessage);
  router.post('/broadcast_messages', createMessage);
  router.put('/broadcast_messages/:id', updateMessage);
  router.delete('/broadcast_messages/:id', deleteMessage);
}

const HOUR_MS = 3_600_000;
const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

function findMessage(ctx: RequestContext): BroadcastMessage {
  const message = ctx.state.broadcastMessages.get(ctx.pathInt('id'));
  if (!message) throw errors.notFound('Broadcast Message');
  return message;
}

function validate(message: BroadcastMessage): void {
  const problems: Record<string, string[]> = {};
  if (message.message.trim() === '') problems['message'] = ["can't be blank"];
  if (Date.parse(message.endsAt) < Date.parse(message.startsAt))
    problems['ends_at'] = ['must be after start'];
  if (!COLOR.test(message.color)) problems['color'] = ['must be a valid color code'];
  if (!COLOR.test(message.font)) problems['font'] = ['must be a valid color code'];
  if (Object.keys(problems).length > 0) throw errors.validation(problems);
}

function listMessages(ctx: RequestContext): ApiResponse {
  ctx.requireAdmin();
  const messages = [...ctx.state.broadcastMessages.values()].sort((a, b) => a.id - b.id);
  return ctx.list(messages, (message) => ctx.present.broadcastMessage(message));
}

function getMessage(ctx: RequestContext): ApiResponse {
  ctx.requireAdmin();
  return ok(ctx.present.broadcastMessage(findMessage(ctx)));
}

/** starts_at defaults to now and ends_at to an hour later. */
function createMessage(ctx: RequestContext): ApiResponse {
  ctx.requireAdmin();
  ctx.params.require('message');
  const startsAt = ctx.params.dateTime('starts_at') ?? ctx.state.now();
  const message: BroadcastMessage = {
    id: 0,
    message: ctx.params.string('message') as string,
    startsAt,
    endsAt: ctx.params.dateTime('ends_at') ?? new Date(Date.now() + HOUR_MS).toISOString(),
    color: ctx.params.string('color') ?? '#E75E40',
    font: ctx.params.string('font') ?? '#FFFFFF',
  };
  validate(message);
  message.id = ctx.state.nextId('broadcast');
  ctx.state.broadcastMessages.set(message.id, message);
  return created(ctx.present.broadcastMessage(message));
}

function updateMessage(ctx: RequestContext): ApiResponse {
  ctx.requireAdmin();
  const current = findMessage(ctx);
  const next: BroadcastMessage = {
    ...current,
    message: ctx.params.string('message') ?? current.message,
    startsAt: ctx.params.dateTime('starts_at') ?? current.startsAt,
    endsAt: ctx.params.dateTime('ends_at') ?? current.endsAt,
    color: ctx.params.string('color') ?? current.color,
    font: ctx.params.string('font') ?? current.font,
  };
  validate(next);
  Object.assign(current, next);
  return ok(ctx.present.broadcastMessage(current));
}

/** 204, or 200 when it was already gone. */
function deleteMessage(ctx: RequestContext): ApiResponse {
  ctx.requireAdmin();
  if (!ctx.state.broadcastMessages.delete(ctx.pathInt('id'))) return alreadyDeleted();
  return noContent();
}
