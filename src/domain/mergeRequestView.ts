/**
 * What the merge request panel shows and offers, as pure functions (used by the panel host and by the
 * page's bundle alike): which header actions the server would allow, file badges, the git header a
 * change needs so a unified-diff parser reads it, diff statistics, cutting a long diff into chunks
 * the page renders lazily, award emoji grouped per name, and which links may be followed.
 */
import { type MergeRequestFacts, isDraft, isOpenState, mergeBlocker } from './mergeRequestStatus';
import * as l10n from '@vscode/l10n';

/** The fields the panel reads beyond those of `MergeRequestFacts`. */
export interface PanelMergeRequestFacts extends MergeRequestFacts {
  sha?: string | null;
  squash?: boolean;
  should_remove_source_branch?: boolean | null;
  force_remove_source_branch?: boolean | null;
  /** The pipeline of the head (a single merge request's read has it). */
  head_pipeline?: { id: number; status?: string } | null;
}

export interface Viewer {
  /** The account's user; undefined when the server has no `GET /user`. */
  username?: string;
  isAdmin?: boolean;
}

/** The header buttons: `true` shows the button; a reason says why merging is not offered. */
export interface HeaderActions {
  merge: boolean;
  /** Why `merge` is false, in a sentence, when it is false for a reason the person can act on. */
  mergeBlockedReason?: string;
  cancelMergeWhenPipelineSucceeds: boolean;
  close: boolean;
  reopen: boolean;
  subscribe: boolean;
  unsubscribe: boolean;
  addTodo: boolean;
  /** Take the draft mark off the title: the fix for a draft that cannot merge. */
  markReady: boolean;
  /** Approve, or take one's approval back (`GET .../approvals` says which; false until it is read). */
  approve: boolean;
  unapprove: boolean;
  /** Publish the viewer's pending review comments (draft notes) at once. */
  submitReview: boolean;
  /** Rebase the source branch onto the target: the fix for `need_rebase`. */
  rebase: boolean;
  /** Open the diff with its threads: the fix for `discussions_not_resolved`. */
  openThreads: boolean;
  /** Open the trace of the head pipeline's failed job: the fix for `ci_must_pass`. */
  openFailingJob: boolean;
  /** The merge form's defaults. */
  mergeDefaults: { squash: boolean; removeSourceBranch: boolean };
}

/**
 * Which actions the server accepts for this merge request, as far as its fields tell (permissions are
 * the server's to check; a refusal comes back as an error the panel shows):
 * - merge: opened, not a draft, no conflicts, not already set to merge when the pipeline succeeds, and
 *   a known head SHA (the panel always sends the SHA it shows, so a moved branch is refused);
 * - cancel "merge when pipeline succeeds": opened and set to do so;
 * - close when opened, reopen when closed (merged and locked ones neither);
 * - subscribe / unsubscribe by `subscribed`; both when the server did not say;
 * - a todo can be added to any merge request (the server answers 304 when there is one).
 */
export function headerActions(mr: PanelMergeRequestFacts): HeaderActions {
  const opened = isOpenState(mr.state);
  const draft = isDraft(mr);
  const conflicts = mr.merge_status === 'cannot_be_merged';
  const scheduled = mr.merge_when_pipeline_succeeds === true;
  const hasSha = typeof mr.sha === 'string' && mr.sha.length > 0;
  const status = typeof mr.detailed_merge_status === 'string' ? mr.detailed_merge_status : undefined;
  let mergeBlockedReason: string | undefined;
  if (!opened) mergeBlockedReason = l10n.t('This merge request is {0}.', mr.state);
  else if (draft) mergeBlockedReason = l10n.t('It is a draft: mark it ready before merging.');
  else if (conflicts) mergeBlockedReason = l10n.t('It has conflicts: resolve them before merging.');
  else if (scheduled) mergeBlockedReason = l10n.t('It merges when the pipeline succeeds.');
  else if (!hasSha) mergeBlockedReason = l10n.t('The server did not say which commit is the head: refresh.');
  else {
    // What else the server says blocks it (approvals, threads, a rebase …), in its words.
    mergeBlockedReason = mergeBlocker({ ...mr, detailed_merge_status: status })?.message;
  }
  return {
    merge: mergeBlockedReason === undefined,
    ...(mergeBlockedReason !== undefined ? { mergeBlockedReason } : {}),
    cancelMergeWhenPipelineSucceeds: opened && scheduled,
    close: opened,
    reopen: mr.state === 'closed',
    subscribe: mr.subscribed !== true,
    unsubscribe: mr.subscribed !== false,
    addTodo: true,
    mergeDefaults: {
      squash: mr.squash === true,
      removeSourceBranch: mr.force_remove_source_branch === true || mr.should_remove_source_branch === true,
    },
    approve: false,
    unapprove: false,
    submitReview: false,
    markReady: opened && draft,
    rebase: opened && status === 'need_rebase',
    openThreads: opened && status === 'discussions_not_resolved',
    openFailingJob: opened && status === 'ci_must_pass' && mr.head_pipeline?.status === 'failed',
  };
}

/** Whether the viewer may edit or delete a note: its author, or an administrator. */
export function canChangeNote(note: { author?: { username: string } | null }, viewer: Viewer): boolean {
  if (viewer.isAdmin) return true;
  if (!viewer.username || !note.author) return false;
  return note.author.username.toLowerCase() === viewer.username.toLowerCase();
}

// ---- files ----------------------------------------------------------------------------------------

/** The fields of one file of the changes endpoint. */
export interface ChangeFacts {
  old_path: string;
  new_path: string;
  a_mode?: string | null;
  b_mode?: string | null;
  diff: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
}

export type FileBadge = 'added' | 'deleted' | 'renamed' | 'modified';

export function fileBadge(change: ChangeFacts): FileBadge {
  if (change.new_file) return 'added';
  if (change.deleted_file) return 'deleted';
  if (change.renamed_file || change.old_path !== change.new_path) return 'renamed';
  return 'modified';
}

/** The path a file is known by in the list: the new one, or the old one for a deleted file. */
export function displayPath(change: ChangeFacts): string {
  return change.deleted_file ? change.old_path : change.new_path;
}

/** Control characters cannot appear in a diff header line; they would end it. */
function headerPath(path: string): string {
  let safe = '';
  for (const character of path) {
    const code = character.charCodeAt(0);
    safe += code < 0x20 || code === 0x7f ? '?' : character;
  }
  return safe;
}

const MODE = /^[0-7]{6}$/;

/**
 * The change as a complete git unified diff: `diff --git`, new/deleted file modes, rename lines,
 * `---`/`+++` (with /dev/null for an added or deleted file) and the hunks. Servers send the hunks with
 * or without their own `---`/`+++` lines; those are replaced so the names always come from the
 * change's paths. A diff without hunks (a pure rename, a binary file) keeps only the header.
 */
export function unifiedDiff(change: ChangeFacts): string {
  const oldPath = headerPath(change.old_path);
  const newPath = headerPath(change.new_path);
  const lines = [`diff --git a/${oldPath} b/${newPath}`];
  if (change.new_file)
    lines.push(`new file mode ${MODE.test(change.b_mode ?? '') ? change.b_mode : '100644'}`);
  else if (change.deleted_file)
    lines.push(`deleted file mode ${MODE.test(change.a_mode ?? '') ? change.a_mode : '100644'}`);
  else if (change.a_mode && change.b_mode && change.a_mode !== change.b_mode && MODE.test(change.a_mode)) {
    if (MODE.test(change.b_mode)) lines.push(`old mode ${change.a_mode}`, `new mode ${change.b_mode}`);
  }
  if (fileBadge(change) === 'renamed' && oldPath !== newPath) {
    lines.push(`rename from ${oldPath}`, `rename to ${newPath}`);
  }
  const hunks = hunkText(change.diff);
  if (hunks === '') return `${lines.join('\n')}\n`;
  lines.push(
    change.new_file ? '--- /dev/null' : `--- a/${oldPath}`,
    change.deleted_file ? '+++ /dev/null' : `+++ b/${newPath}`,
  );
  return `${lines.join('\n')}\n${hunks}${hunks.endsWith('\n') ? '' : '\n'}`;
}

/** The diff from its first hunk header on (any file header lines before it dropped). */
function hunkText(diff: string): string {
  if (diff.startsWith('@@')) return diff;
  const index = diff.indexOf('\n@@');
  return index < 0 ? '' : diff.slice(index + 1);
}

export interface DiffStats {
  added: number;
  removed: number;
  /** Lines of the hunks (context included), a measure of how long the rendering is. */
  lines: number;
}

export function diffStats(diff: string): DiffStats {
  const stats = { added: 0, removed: 0, lines: 0 };
  const text = hunkText(diff);
  if (text === '') return stats;
  for (const line of text.split('\n')) {
    if (line.startsWith('@@') || line.startsWith('\\') || line === '') continue;
    stats.lines++;
    if (line.startsWith('+')) stats.added++;
    else if (line.startsWith('-')) stats.removed++;
  }
  return stats;
}

// ---- award emoji ----------------------------------------------------------------------------------

export interface AwardFacts {
  id: number;
  name: string;
  user: { username: string; name?: string };
}

export interface AwardSummary {
  name: string;
  count: number;
  /** The viewer's own award of this emoji (to remove it), if any. */
  ownAwardId?: number;
  /** Who gave it, for the tooltip. */
  users: string[];
}

/** Awards grouped by emoji name, in the order each name first appeared. */
export function summarizeAwards(awards: readonly AwardFacts[], viewer: Viewer): AwardSummary[] {
  const byName = new Map<string, AwardSummary>();
  const me = viewer.username?.toLowerCase();
  for (const award of awards) {
    const summary = byName.get(award.name) ?? { name: award.name, count: 0, users: [] };
    summary.count++;
    summary.users.push(award.user.name ?? award.user.username);
    if (me !== undefined && award.user.username.toLowerCase() === me) summary.ownAwardId = award.id;
    byName.set(award.name, summary);
  }
  return [...byName.values()];
}

// ---- references and links -------------------------------------------------------------------------

/** One panel per merge request: `account|project|iid`. */
/** The panel's tab: `!12 Title`, the title cut at 40 characters. */
export function mergeRequestPanelTitle(mr: { iid: number; title: string }): string {
  return `!${mr.iid} ${mr.title.length > 40 ? `${mr.title.slice(0, 39)}…` : mr.title}`;
}

export function mergeRequestPanelKey(accountId: string, projectId: number, iid: number): string {
  return [accountId, String(projectId), String(iid)].join('|');
}

export function isCommitSha(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{7,64}$/i.test(value);
}

export interface DiffRefs {
  baseSha: string;
  headSha: string;
  startSha?: string;
}

/** `diff_refs` of a merge request, when the server sent them (real servers do; the spec does not). */
export function diffRefs(mr: unknown): DiffRefs | undefined {
  if (typeof mr !== 'object' || mr === null) return undefined;
  const refs = (mr as { diff_refs?: unknown }).diff_refs;
  if (typeof refs !== 'object' || refs === null) return undefined;
  const { base_sha: base, head_sha: head, start_sha: start } = refs as Record<string, unknown>;
  if (!isCommitSha(base) || !isCommitSha(head)) return undefined;
  return { baseSha: base, headSha: head, ...(isCommitSha(start) ? { startSha: start } : {}) };
}

/** Who approved, how many approvals are still needed, and what the viewer may do. */
export interface ApprovalsView {
  approvedBy: string[];
  /** Approvals still needed (0 when none is required). */
  left: number;
  youApproved: boolean;
  canApprove: boolean;
}

export function approvalsView(approvals: {
  approvals_left?: number | null;
  approved_by?: { user: { name?: string | null; username?: string | null } }[];
  user_has_approved?: boolean;
  user_can_approve?: boolean;
}): ApprovalsView {
  const youApproved = approvals.user_has_approved === true;
  return {
    approvedBy: (approvals.approved_by ?? []).map(({ user }) => user.name ?? user.username ?? '?'),
    left: Math.max(0, approvals.approvals_left ?? 0),
    youApproved,
    canApprove: approvals.user_can_approve ?? !youApproved,
  };
}

/** The Overview's line about approvals. */
export function describeApprovals(view: ApprovalsView): string {
  const who = view.approvedBy.join(', ');
  if (view.approvedBy.length === 0)
    return view.left > 0 ? l10n.t('Not approved yet; {0} needed', view.left) : l10n.t('Not approved yet');
  return view.left > 0
    ? l10n.t('Approved by {0}; {1} more needed', who, view.left)
    : l10n.t('Approved by {0}', who);
}

/** The title without its draft mark (`Draft:`, `[Draft]`, `(Draft)`, `WIP:`, `[WIP]`), as GitLab's "Mark as ready" leaves it. */
export function readyTitle(title: string): string {
  return title.replace(/^\s*(\[draft\]|draft:|\(draft\)|wip:|\[wip\])\s*/i, '');
}
