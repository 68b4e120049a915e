/**
 * A merge request panel's snapshot: the merge request, its changes, commits, notes and award emoji
 * loaded together (a part that fails is named in `errors`, the rest still shows), and the
 * preliminary snapshot a first paint needs.
 */
import type { HostingClient, MergeRequest, MergeRequestDiff, Note, Project } from '../../../api/hosting';
import { describeError } from '../../../platform/commands/registerCommand';
import { NotFoundError } from '../../../api/http';
import { diffPositionOf } from '../../../api/hosting';
import { notePlace } from '../../../domain/diffPositions';
import { type ThreadPlace, inThreadOrder, threadPlaces } from '../../../domain/noteThreads';
import {
  defaultMergeCommitMessage,
  describeMergeStatus,
  isDraft,
  isOpenState,
} from '../../../domain/mergeRequestStatus';
import {
  type ApprovalsView,
  type Viewer,
  approvalsView,
  diffStats,
  displayPath,
  fileBadge,
  headerActions,
  summarizeAwards,
  unifiedDiff,
} from '../../../domain/mergeRequestView';
import { firstItems } from '../../../state/firstItems';
import { type MergeRequestTarget, projectPath } from '../mergeRequestTargets';
import type { CommitView, FileView, MergeRequestSnapshot, NoteView } from './protocol';
import { loadNoteAwards, noteViews, personView, settler } from '../../../webviews/shared/discussionSnapshot';
import * as l10n from '@vscode/l10n';

/** How many commits and notes a panel loads at most. */
const MAX_COMMITS = 500;
const MAX_NOTES = 1000;
/** Notes whose award emoji are loaded (one request each, a few at a time). */
const MAX_NOTES_WITH_AWARDS = 100;

function fileView(change: MergeRequestDiff): FileView {
  const stats = diffStats(change.diff);
  return {
    oldPath: change.old_path,
    newPath: change.new_path,
    path: displayPath(change),
    badge: fileBadge(change),
    diff: unifiedDiff(change),
    ...stats,
  };
}

/** Approvals, or undefined on a server without them (404); other failures are named in `errors`. */
function loadApprovals(
  client: HostingClient,
  projectId: number,
  iid: number,
  errors: string[],
): Promise<ApprovalsView | undefined> {
  return client.getApprovals(projectId, iid).then(approvalsView, (error: unknown) => {
    if (!(error instanceof NotFoundError)) errors.push(l10n.t('Approvals: {0}', describeError(error)));
    return undefined;
  });
}

/** How many review comments the viewer holds (draft notes); undefined on a server without them (404). */
async function loadPendingReview(
  client: HostingClient,
  projectId: number,
  iid: number,
  errors: string[],
): Promise<number | undefined> {
  try {
    return (await client.listDraftNotes(projectId, iid).toArray()).length;
  } catch (error) {
    if (!(error instanceof NotFoundError)) errors.push(l10n.t('Pending review: {0}', describeError(error)));
    return undefined;
  }
}

/** The header's actions once the approvals are known: approve an open one not yet approved, or revoke. */
function withApprovals(
  actions: MergeRequestSnapshot['actions'],
  mergeRequest: MergeRequest,
  approved: ApprovalsView | undefined,
): MergeRequestSnapshot['actions'] {
  const open = isOpenState(mergeRequest.state);
  return {
    ...actions,
    approve: approved !== undefined && open && approved.canApprove && !approved.youApproved,
    unapprove: approved?.youApproved === true,
  };
}

/** The header, Overview and actions of a merge request: all a first paint needs. */
function headerOf(
  mr: MergeRequest,
  project: Project,
): Pick<MergeRequestSnapshot, 'mergeRequest' | 'actions'> {
  const assignees = mr.assignees?.length ? mr.assignees : mr.assignee ? [mr.assignee] : [];
  return {
    mergeRequest: {
      iid: mr.iid,
      title: mr.title,
      description: mr.description ?? '',
      state: mr.state,
      draft: isDraft(mr),
      sourceBranch: mr.source_branch,
      targetBranch: mr.target_branch,
      author: personView(mr.author),
      assignees: assignees.map(personView),
      labels: mr.labels ?? [],
      ...(mr.milestone?.title ? { milestone: mr.milestone.title } : {}),
      mergeStatusText: describeMergeStatus(mr),
      mergeWhenPipelineSucceeds: mr.merge_when_pipeline_succeeds === true,
      ...(mr.subscribed !== undefined ? { subscribed: mr.subscribed } : {}),
      upvotes: mr.upvotes ?? 0,
      downvotes: mr.downvotes ?? 0,
      ...(mr.sha ? { sha: mr.sha } : {}),
      ...(mr.web_url ? { webUrl: mr.web_url } : {}),
      ...(mr.created_at ? { createdAt: mr.created_at } : {}),
      ...(mr.updated_at ? { updatedAt: mr.updated_at } : {}),
      defaultMergeMessage: defaultMergeCommitMessage(mr, projectPath(project)),
    },
    actions: headerActions({ ...mr, squash: (mr as { squash?: unknown }).squash === true }),
  };
}

export function preliminarySnapshot(
  key: string,
  target: MergeRequestTarget,
  draft: string,
): MergeRequestSnapshot {
  const { account, project, mergeRequest } = target;
  return {
    key,
    accountLabel: account.label,
    projectPath: projectPath(project),
    ...headerOf(mergeRequest, project),
    awards: [],
    files: [],
    commits: [],
    notes: [],
    closesIssues: [],
    draft,
    opensDiffs: false,
    errors: [],
    loadedAt: new Date().toISOString(),
    partial: true,
  };
}

export interface LoadedMergeRequest {
  snapshot: MergeRequestSnapshot;
  /** The target with the merge request as loaded now. */
  target: MergeRequestTarget;
  changes: MergeRequestDiff[];
  /** Notes with a body, oldest first. */
  notes: Note[];
}

/** Where a diff comment is (GitLab's notes API gives diff notes their `position`). */
function placeView(note: Note, headSha: string | null | undefined): Pick<NoteView, 'place'> {
  const place = notePlace(diffPositionOf(note), headSha ?? undefined);
  return place ? { place } : {};
}

/** Which thread each comment is in; none on a server without discussions or when they fail to load. */
function loadThreadPlaces(
  client: HostingClient,
  projectId: number,
  iid: number,
): Promise<Map<number, ThreadPlace>> {
  return firstItems(client.listDiscussions(projectId, iid), MAX_NOTES).then(threadPlaces, () => new Map());
}

function commitView(commit: {
  id: string;
  short_id: string;
  title: string;
  author_name?: string | null;
  created_at?: string | null;
}): CommitView {
  return {
    id: commit.id,
    shortId: commit.short_id,
    title: commit.title,
    authorName: commit.author_name ?? '',
    ...(commit.created_at ? { createdAt: commit.created_at } : {}),
  };
}

/** The project's issues merging it closes (an external tracker's have no iid and are left out). */
async function loadClosesIssues(
  client: HostingClient,
  projectId: number,
  iid: number,
): Promise<MergeRequestSnapshot['closesIssues']> {
  const issues = await firstItems(client.listMergeRequestClosesIssues(projectId, iid), MAX_COMMITS);
  return issues.flatMap((issue) =>
    'iid' in issue && typeof issue.iid === 'number'
      ? [{ iid: issue.iid, title: issue.title, state: typeof issue.state === 'string' ? issue.state : '' }]
      : [],
  );
}

export async function loadSnapshot(input: {
  client: HostingClient;
  target: MergeRequestTarget;
  key: string;
  username: Promise<string | undefined>;
  draft: () => string;
  /** The review feature is there to open files in the diff editor. */
  opensDiffs: boolean;
}): Promise<LoadedMergeRequest> {
  const { client, key } = input;
  const { account, project } = input.target;
  const iid = input.target.mergeRequest.iid;
  const errors: string[] = [];
  const settle = settler(errors);
  const parent = { kind: 'mergeRequest' as const, project: project.id, iid };
  const review = Promise.all([
    loadApprovals(client, project.id, iid, errors),
    loadPendingReview(client, project.id, iid, errors),
    loadThreadPlaces(client, project.id, iid),
  ]);
  const closing = settle(l10n.t('Closed issues'), loadClosesIssues(client, project.id, iid), []);
  const [mergeRequest, changes, commits, notes, awards, username, [approved, pending, places]] =
    await Promise.all([
      client.getMergeRequest(project.id, iid),
      settle(l10n.t('Changes'), client.getMergeRequestChanges(project.id, iid), undefined),
      settle(l10n.t('Commits'), firstItems(client.listMergeRequestCommits(project.id, iid), MAX_COMMITS), []),
      settle(l10n.t('Comments'), firstItems(client.listNotes(parent), MAX_NOTES), []),
      settle(
        l10n.t('Reactions'),
        firstItems(client.listAwardEmoji({ kind: 'mergeRequest', project: project.id, iid }), MAX_NOTES),
        [],
      ),
      input.username,
      review,
    ]);
  const target = { account, project, mergeRequest };
  const files = changes?.changes ?? [];
  const sorted = inThreadOrder(
    notes
      .filter((note): note is Note => typeof (note as Note).body === 'string')
      .sort((a, b) => (a.created_at ?? '').localeCompare(b.created_at ?? '') || a.id - b.id),
    places,
  );
  const viewer: Viewer = { username, isAdmin: account.isAdmin };
  const noteParent = { kind: 'mergeRequestNote' as const, project: project.id, iid };
  const noteAwards = await loadNoteAwards(client, noteParent, sorted, {
    most: MAX_NOTES_WITH_AWARDS,
    errors,
  });
  const header = headerOf(mergeRequest, project);
  const snapshot: MergeRequestSnapshot = {
    key,
    accountLabel: account.label,
    projectPath: projectPath(project),
    ...header,
    actions: { ...withApprovals(header.actions, mergeRequest, approved), submitReview: (pending ?? 0) > 0 },
    ...(approved ? { approvals: approved } : {}),
    ...(pending === undefined ? {} : { pendingReview: pending }),
    awards: summarizeAwards(awards, viewer),
    files: files.map(fileView),
    commits: commits.map(commitView),
    notes: noteViews(sorted, {
      viewer,
      noteAwards,
      places,
      more: (note) => placeView(note, mergeRequest.sha),
    }),
    closesIssues: await closing,
    draft: input.draft(),
    opensDiffs: input.opensDiffs,
    ...(username ? { viewer: username } : {}),
    errors,
    loadedAt: new Date().toISOString(),
  };
  return { snapshot, target, changes: files, notes: sorted };
}
