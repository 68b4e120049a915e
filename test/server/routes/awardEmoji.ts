import type { Handler, RequestContext } from '../context';
import { alreadyDeleted, created, errors, noContent, ok, type ApiResponse } from '../http';
import type { Router } from '../router';
import type { AwardEmoji } from '../state';
import {
  EMOJI_NAMES,
  PARENT_PATHS,
  normaliseEmojiName,
  resolveAwardable,
  type Awardable,
  type ParentKind,
} from './parents';

const PUBLIC = { public: true };

/**
 * Award emoji on issues, merge requests and snippets, and on their notes
 * (`/projects/:id/<parent>/notes/:note_id/award_emoji`).
 */
export function registerAwardEmojiRoutes(router: Router<Handler>): void {
  for (const kind of Object.keys(PARENT_PATHS) as ParentKind[]) {
    for (const withNote of [false, true]) {
      const base = `${PARENT_PATHS[kind]}${withNote ? '/notes/:note_id' : ''}/award_emoji`;
      router.get(base, (ctx) => listAwards(ctx, resolveAwardable(ctx, kind, withNote)), PUBLIC);
      router.get(`${base}/:award_id`, (ctx) => getAward(ctx, resolveAwardable(ctx, kind, withNote)), PUBLIC);
      router.post(base, (ctx) => createAward(ctx, resolveAwardable(ctx, kind, withNote)));
      router.delete(`${base}/:award_id`, (ctx) => deleteAward(ctx, resolveAwardable(ctx, kind, withNote)));
    }
  }
}

function awardsOf(ctx: RequestContext, awardable: Awardable): AwardEmoji[] {
  return [...ctx.state.awardEmoji.values()]
    .filter((award) => award.awardableType === awardable.type && award.awardableId === awardable.id)
    .sort((a, b) => a.id - b.id);
}

function findAward(ctx: RequestContext, awardable: Awardable): AwardEmoji | undefined {
  const award = ctx.state.awardEmoji.get(ctx.pathInt('award_id'));
  return award && award.awardableType === awardable.type && award.awardableId === awardable.id
    ? award
    : undefined;
}

function listAwards(ctx: RequestContext, awardable: Awardable): ApiResponse {
  return ctx.list(awardsOf(ctx, awardable), (award) => ctx.present.awardEmoji(award));
}

function getAward(ctx: RequestContext, awardable: Awardable): ApiResponse {
  const award = findAward(ctx, awardable);
  if (!award) throw errors.notFound('Award Emoji');
  return ok(ctx.present.awardEmoji(award));
}

/** 201. An unknown name or the same emoji twice from the same user is a 400 validation error. */
function createAward(ctx: RequestContext, awardable: Awardable): ApiResponse {
  const caller = ctx.requireCaller();
  if (awardable.project.archived) throw errors.forbidden();
  ctx.params.require('name');
  const name = normaliseEmojiName(ctx.params.string('name') as string);
  if (!EMOJI_NAMES.has(name)) throw errors.validation({ name: ['is not a valid emoji name'] });
  if (awardsOf(ctx, awardable).some((award) => award.userId === caller.id && award.name === name)) {
    throw errors.validation({ name: ['has already been taken'] });
  }
  const now = ctx.state.now();
  const award: AwardEmoji = {
    id: ctx.state.nextId('award'),
    projectId: awardable.project.id,
    name,
    userId: caller.id,
    awardableType: awardable.type,
    awardableId: awardable.id,
    createdAt: now,
    updatedAt: now,
  };
  ctx.state.awardEmoji.set(award.id, award);
  return created(ctx.present.awardEmoji(award));
}

/** Only an administrator or the award's author; 204, or 200 when it was already gone. */
function deleteAward(ctx: RequestContext, awardable: Awardable): ApiResponse {
  const caller = ctx.requireCaller();
  const award = findAward(ctx, awardable);
  if (!award) return alreadyDeleted();
  if (award.userId !== caller.id && !caller.isAdmin) throw errors.forbidden();
  ctx.state.awardEmoji.delete(award.id);
  return noContent();
}
