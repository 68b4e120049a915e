import { trimBothOf } from '../text/linearText';
import * as l10n from '@vscode/l10n';
/**
 * How a merge request looks and what can be done with it, as pure functions of its fields: capability
 * tokens for menus, icon and colour, a short merge status, the groups of the Merge Requests view,
 * and what a failed merge means.
 */

/** The fields these helpers read; a MergeRequest from the API has all of them. */
export interface MergeRequestFacts {
  iid: number;
  title: string;
  state: string;
  source_branch: string;
  target_branch: string;
  merge_status?: string;
  /** GitLab 15.6+: why it cannot merge (`draft_status`, `not_approved`, `need_rebase` …). */
  detailed_merge_status?: unknown;
  draft?: boolean;
  work_in_progress?: boolean;
  merge_when_pipeline_succeeds?: boolean;
  subscribed?: boolean;
  upvotes?: number;
  downvotes?: number;
  author?: { username: string };
  assignee?: { username: string } | null;
  assignees?: { username: string }[];
  updated_at?: string;
}

export function isDraft(mr: MergeRequestFacts): boolean {
  return (
    mr.draft === true ||
    mr.work_in_progress === true ||
    /^\s*(\[draft\]|draft:|\(draft\)|wip:|\[wip\])/i.test(mr.title)
  );
}

/**
 * Whether a merge request is open. Real servers report one that was closed and reopened as
 * `reopened`, which is as open as `opened`: compare states only through this.
 */
export function isOpenState(state: string): boolean {
  return state === 'opened' || state === 'reopened';
}

/**
 * Space-separated tokens for `contextValue`: `mergeRequest`, the state, and `mergeable` (opened,
 * not a draft, no conflicts), `mwps` (set to merge when the pipeline succeeds), `subscribed` or
 * `unsubscribed` when known, `draft`, `conflicts`.
 */
export function mergeRequestCapabilities(mr: MergeRequestFacts): string[] {
  const opened = isOpenState(mr.state);
  // Menus match the `opened` token; a reopened one carries both.
  const tokens = ['mergeRequest', opened ? 'opened' : mr.state];
  if (mr.state === 'reopened') tokens.push('reopened');
  const draft = isDraft(mr);
  if (draft) tokens.push('draft');
  if (mr.merge_status === 'cannot_be_merged') tokens.push('conflicts');
  if (opened && !draft && mr.merge_status !== 'cannot_be_merged' && !mr.merge_when_pipeline_succeeds) {
    tokens.push('mergeable');
  }
  if (opened && mr.merge_when_pipeline_succeeds) tokens.push('mwps');
  if (mr.subscribed === true) tokens.push('subscribed');
  else if (mr.subscribed === false) tokens.push('unsubscribed');
  return tokens;
}

export interface MergeRequestAppearance {
  codicon: string;
  /** A theme colour id. */
  color: string;
  label: string;
}

export function mergeRequestAppearance(mr: MergeRequestFacts): MergeRequestAppearance {
  switch (mr.state) {
    case 'merged':
      return { codicon: 'git-merge', color: 'charts.purple', label: l10n.t('merged') };
    case 'closed':
      return { codicon: 'git-pull-request-closed', color: 'charts.red', label: l10n.t('closed') };
    case 'locked':
      return { codicon: 'lock', color: 'charts.orange', label: l10n.t('locked') };
    case 'opened':
    case 'reopened':
      return isDraft(mr)
        ? { codicon: 'git-pull-request-draft', color: 'descriptionForeground', label: l10n.t('draft') }
        : { codicon: 'git-pull-request', color: 'charts.green', label: l10n.t('opened') };
    default:
      return { codicon: 'git-pull-request', color: 'descriptionForeground', label: mr.state };
  }
}

/** What the server says blocks a merge, in a word or two; undefined when nothing (or nothing known). */
function blockerWord(status: unknown): string | undefined {
  switch (status) {
    case 'not_approved':
      return l10n.t('needs approval');
    case 'need_rebase':
      return l10n.t('needs rebase');
    case 'discussions_not_resolved':
      return l10n.t('unresolved threads');
    case 'ci_must_pass':
      return l10n.t('pipeline must pass');
    case 'requested_changes':
      return l10n.t('changes requested');
    case 'blocked_status':
      return l10n.t('blocked');
    default:
      return undefined;
  }
}

/**
 * "mergeable", "conflicts", "checking", "needs approval", "merges when pipeline succeeds"; empty once
 * merged or closed.
 */
export function describeMergeStatus(mr: MergeRequestFacts): string {
  if (!isOpenState(mr.state)) return '';
  if (mr.merge_when_pipeline_succeeds) return l10n.t('merges when pipeline succeeds');
  switch (mr.merge_status) {
    case 'can_be_merged':
      return isDraft(mr) ? 'draft' : (blockerWord(mr.detailed_merge_status) ?? 'mergeable');
    case 'cannot_be_merged':
      return 'conflicts';
    case 'unchecked':
    case 'checking':
    case 'cannot_be_merged_recheck':
    case 'cannot_be_merged_rechecking':
      return 'checking';
    case undefined:
      return isDraft(mr) ? 'draft' : (blockerWord(mr.detailed_merge_status) ?? '');
    default:
      return mr.merge_status.replace(/_/g, ' ');
  }
}

/** "👍2 👎1". */
export function describeVotes(mr: MergeRequestFacts): string {
  return `👍${mr.upvotes ?? 0} 👎${mr.downvotes ?? 0}`;
}

export interface MergeRequestGroups<T> {
  assigned: T[];
  created: T[];
  all: T[];
}

/**
 * The three groups of the Merge Requests view, newest update first. Without a username (the
 * server has no `GET /user`) only `all` is filled.
 */
export function groupMergeRequests<T extends MergeRequestFacts>(
  mergeRequests: readonly T[],
  username: string | undefined,
): MergeRequestGroups<T> {
  const all = [...mergeRequests].sort((a, b) => (b.updated_at ?? '').localeCompare(a.updated_at ?? ''));
  if (username === undefined) return { assigned: [], created: [], all };
  const wanted = username.toLowerCase();
  const isAssigned = (mr: T): boolean =>
    mr.assignee?.username.toLowerCase() === wanted ||
    (mr.assignees ?? []).some((assignee) => assignee.username.toLowerCase() === wanted);
  return {
    assigned: all.filter(isAssigned),
    created: all.filter((mr) => mr.author?.username.toLowerCase() === wanted),
    all,
  };
}

export type MergeFailureReason = 'sha-changed' | 'cannot-be-merged' | 'not-open' | 'no-permission';

export interface MergeFailure {
  reason: MergeFailureReason;
  message: string;
}

/** The 40-hex (or shorter) commit id in a server message such as "SHA does not match HEAD …: abc123". */
export function shaInMessage(message: string): string | undefined {
  return /\b([0-9a-f]{7,40})\b/i.exec(message)?.[1];
}

/**
 * What a refused merge means for the person, by status (spec, accept merge request errors):
 * 409 the source branch moved since they looked, 405 it cannot be merged, 406 it is no longer
 * open, 401 they may not merge. Undefined for any other status (a real error).
 */
export function mergeFailure(
  status: number,
  mr: Pick<MergeRequestFacts, 'iid' | 'target_branch'>,
  details: { serverMessage?: string; currentSha?: string } = {},
): MergeFailure | undefined {
  switch (status) {
    case 409: {
      const sha = details.currentSha ?? shaInMessage(details.serverMessage ?? '');
      return {
        reason: 'sha-changed',
        message: sha
          ? l10n.t(
              'The source branch changed since you looked (now {0}). Review the new commits and merge again.',
              sha.slice(0, 8),
            )
          : l10n.t('The source branch changed since you looked. Review the new commits and merge again.'),
      };
    }
    case 405:
      return {
        reason: 'cannot-be-merged',
        message: l10n.t(
          '!{0} cannot be merged: it has conflicts, is a draft, lost its source branch, or needs a successful pipeline first.',
          mr.iid,
        ),
      };
    case 406:
      return { reason: 'not-open', message: l10n.t('!{0} is already merged or closed.', mr.iid) };
    case 401:
      return {
        reason: 'no-permission',
        message: l10n.t('You are not allowed to merge !{0} into {1}.', mr.iid, mr.target_branch),
      };
    default:
      return undefined;
  }
}

/**
 * Why a merge request cannot be merged now, before anyone is asked how to merge it; undefined when
 * it can, or when only its pipeline is missing (it can merge when the pipeline succeeds) or the server
 * is still checking. Reads `detailed_merge_status` (GitLab 15.6+), else `merge_status` and the draft
 * flags.
 */
export function mergeBlocker(mr: MergeRequestFacts & { has_conflicts?: boolean }): MergeFailure | undefined {
  const blocked = (message: string): MergeFailure => ({
    reason: 'cannot-be-merged',
    message: `!${mr.iid} ${message}`,
  });
  switch (mr.detailed_merge_status) {
    case 'draft_status':
      return blocked(l10n.t('is a draft: mark it as ready first.'));
    case 'broken_status':
    case 'conflict':
      return blocked(l10n.t('has conflicts with {0}: resolve them, then merge.', mr.target_branch));
    case 'discussions_not_resolved':
      return blocked(l10n.t('has unresolved discussions: resolve them first.'));
    case 'not_approved':
      return blocked(l10n.t('needs approval first.'));
    case 'blocked_status':
      return blocked(l10n.t('is blocked by another merge request.'));
    case 'need_rebase':
      return blocked(l10n.t('needs a rebase onto {0} first.', mr.target_branch));
    case 'ci_must_pass':
      return blocked(l10n.t('needs its pipeline to pass first.'));
    case 'requested_changes':
      return blocked(l10n.t('has changes requested by a reviewer.'));
    case 'not_open':
      return { reason: 'not-open', message: l10n.t('!{0} is already merged or closed.', mr.iid) };
    case undefined:
    case null:
      break;
    default:
      // mergeable, ci_still_running (merge when it succeeds), checking, unchecked …: the server decides.
      return undefined;
  }
  if (mr.merge_status === 'cannot_be_merged' || mr.has_conflicts === true)
    return blocked(l10n.t('has conflicts with {0}: resolve them, then merge.', mr.target_branch));
  if (isDraft(mr)) return blocked(l10n.t('is a draft: mark it as ready first.'));
  return undefined;
}

/** The message real servers write when none is given; shown as the default in the merge dialog. */
export function defaultMergeCommitMessage(
  mr: Pick<MergeRequestFacts, 'iid' | 'title' | 'source_branch' | 'target_branch'>,
  projectPath?: string,
): string {
  const head = `Merge branch '${mr.source_branch}' into '${mr.target_branch}'`;
  return `${head}\n\n${mr.title}\n\nSee merge request ${projectPath ?? ''}!${mr.iid}`;
}

/** Emoji names offered first when awarding. */
export const COMMON_EMOJI: readonly { name: string; glyph: string }[] = [
  { name: 'thumbsup', glyph: '👍' },
  { name: 'thumbsdown', glyph: '👎' },
  { name: 'smile', glyph: '😄' },
  { name: 'tada', glyph: '🎉' },
  { name: 'heart', glyph: '❤️' },
  { name: 'rocket', glyph: '🚀' },
  { name: 'eyes', glyph: '👀' },
  { name: 'confused', glyph: '😕' },
];

/** An emoji name as typed (`:tada:`, ` Tada `) in the API's spelling (`tada`), or undefined if not a name. */
export function normalizeEmojiName(input: string): string | undefined {
  const name = trimBothOf(input.trim(), ':').trim().toLowerCase();
  return /^[a-z0-9_+-]+$/.test(name) ? name : undefined;
}

/** The first line of a note, shortened for a tree row. */
export function firstLine(text: string, max = 80): string {
  const line = text.split(/\r?\n/).find((candidate) => candidate.trim() !== '') ?? '';
  const trimmed = line.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}

/** Labels typed as "bug, ui ,, backend" → "bug,ui,backend". */
export function normalizeLabels(input: string): string {
  return input
    .split(',')
    .map((label) => label.trim())
    .filter(Boolean)
    .join(',');
}
