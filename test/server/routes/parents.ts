import type { RequestContext } from '../context';
import { errors } from '../http';
import {
  ACCESS,
  type AwardableType,
  type Issue,
  type MergeRequest,
  type NoteableType,
  type Project,
  type Snippet,
  type User,
} from '../state';

/** Resolution of the things notes and award emoji hang off. */

export type ParentKind = 'issues' | 'merge_requests' | 'snippets';

export const PARENT_PATHS: Record<ParentKind, string> = {
  issues: '/projects/:id/issues/:issue_iid',
  merge_requests: '/projects/:id/merge_requests/:merge_request_iid',
  snippets: '/projects/:id/snippets/:snippet_id',
};

export interface Parent {
  project: Project;
  type: NoteableType;
  /** Global id. */
  id: number;
  title: string;
  /** Issues and merge requests only, for todos and mentions. */
  todoTarget?: { type: 'Issue' | 'MergeRequest'; id: number };
}

export function findIssue(ctx: RequestContext, project: Project): Issue {
  const issue = ctx.state.findIssue(project.id, ctx.pathInt('issue_iid'));
  if (!issue) throw errors.notFound('Issue');
  return issue;
}

export function findMergeRequest(ctx: RequestContext, project: Project): MergeRequest {
  const mergeRequest = ctx.state.findMergeRequest(project.id, ctx.pathInt('merge_request_iid'));
  if (!mergeRequest) throw errors.notFound('Merge Request');
  return mergeRequest;
}

export function findSnippet(ctx: RequestContext, project: Project): Snippet {
  const snippet = ctx.state.snippets.get(ctx.pathInt('snippet_id'));
  if (!snippet || snippet.projectId !== project.id) throw errors.notFound('Snippet');
  return snippet;
}

export function resolveParent(ctx: RequestContext, kind: ParentKind): Parent {
  const project = ctx.project();
  switch (kind) {
    case 'issues': {
      const issue = visibleIssue(ctx, project);
      return {
        project,
        type: 'Issue',
        id: issue.id,
        title: issue.title,
        todoTarget: { type: 'Issue', id: issue.id },
      };
    }
    case 'merge_requests': {
      const mergeRequest = findMergeRequest(ctx, project);
      return {
        project,
        type: 'MergeRequest',
        id: mergeRequest.id,
        title: mergeRequest.title,
        todoTarget: { type: 'MergeRequest', id: mergeRequest.id },
      };
    }
    case 'snippets': {
      const snippet = findSnippet(ctx, project);
      return { project, type: 'Snippet', id: snippet.id, title: snippet.title };
    }
  }
}

export interface Awardable {
  project: Project;
  type: AwardableType;
  id: number;
}

/** The parent itself, or with `withNote`, one of its notes (`.../notes/:note_id/award_emoji`). */
export function resolveAwardable(ctx: RequestContext, kind: ParentKind, withNote: boolean): Awardable {
  const parent = resolveParent(ctx, kind);
  if (!withNote) return { project: parent.project, type: parent.type, id: parent.id };
  const note = ctx.state.notes.get(ctx.pathInt('note_id'));
  if (!note || note.noteableType !== parent.type || note.noteableId !== parent.id)
    throw errors.notFound('Note');
  return { project: parent.project, type: 'Note', id: note.id };
}

/** Emoji names the fake forge accepts (a subset of the real list), and the aliases real servers normalise. */
export const EMOJI_NAMES: ReadonlySet<string> = new Set([
  'thumbsup',
  'thumbsdown',
  'smile',
  'laughing',
  'heart',
  'tada',
  'rocket',
  'eyes',
  'star',
  'fire',
  'clap',
  'pray',
  'thinking',
  'confused',
  'white_check_mark',
  'x',
  'warning',
  'bug',
  'sparkles',
  '100',
  'ok_hand',
  'wave',
  'coffee',
  'party_popper',
  'microphone',
  'mood_bubble_lightning',
  'slight_smile',
  'cry',
  'sob',
  'sweat_smile',
]);

const EMOJI_ALIASES: Readonly<Record<string, string>> = {
  '+1': 'thumbsup',
  '-1': 'thumbsdown',
  thumbs_up: 'thumbsup',
};

export function normaliseEmojiName(name: string): string {
  return EMOJI_ALIASES[name] ?? name;
}

/** `:thumbsup:` (and only that, give or take whitespace) is an award, not a comment. */
export function awardInNoteBody(body: string): string | undefined {
  const match = /^\s*:([a-z0-9_+-]+):\s*$/.exec(body);
  if (!match?.[1]) return undefined;
  const name = normaliseEmojiName(match[1]);
  return EMOJI_NAMES.has(name) ? name : undefined;
}

/** GitLab's rule for confidential issues. */
export function canSeeIssue(
  ctx: RequestContext,
  project: Project,
  issue: Issue,
  user: User | undefined,
): boolean {
  if (!ctx.state.canReadProject(project, user)) return false;
  if (!issue.confidential) return true;
  if (!user) return false;
  if (user.isAdmin || issue.authorId === user.id || issue.assigneeId === user.id) return true;
  return ctx.state.accessLevel(project, user) >= ACCESS.reporter;
}

export function visibleIssue(ctx: RequestContext, project: Project): Issue {
  const issue = findIssue(ctx, project);
  if (!canSeeIssue(ctx, project, issue, ctx.caller)) throw errors.notFound('Issue');
  return issue;
}
