/**
 * An issue panel's snapshot: the issue, its comments in their threads, award emoji, and the merge
 * requests related to it, loaded together. A part that fails is named in `errors` and the rest still
 * shows; a server without the discussions or related merge requests endpoints (404) shows plain
 * comments and no links.
 */
import type { Discussion, HostingClient, Issue, MergeRequest, Note } from '../../../api/hosting';
import { NotFoundError } from '../../../api/http';
import { labelTextColor, safeLabelColor } from '../../../domain/issueView';
import { type Viewer, summarizeAwards } from '../../../domain/mergeRequestView';
import { type ThreadPlace, inThreadOrder, threadPlaces } from '../../../domain/noteThreads';
import { describeError } from '../../../platform/commands/registerCommand';
import { firstItems } from '../../../state/firstItems';
import type { IssueTarget } from '../issueTarget';
import type { IssueSnapshot, IssueView, LabelView, RelatedMergeRequestView } from './protocol';
import { loadNoteAwards, noteViews, personView, settler } from '../../../webviews/shared/discussionSnapshot';
import * as l10n from '@vscode/l10n';

const MAX_NOTES = 1000;
const MAX_RELATED = 100;
/** Comments whose award emoji are read (one request each, a few at a time). */
const MAX_NOTES_WITH_AWARDS = 50;

function labelView(name: string, colors: ReadonlyMap<string, string>): LabelView {
  const color = safeLabelColor(colors.get(name));
  return color ? { name, color, textColor: labelTextColor(color) } : { name };
}

export function issueView(issue: Issue, colors: ReadonlyMap<string, string> = new Map()): IssueView {
  const assignees = issue.assignees?.length ? issue.assignees : issue.assignee ? [issue.assignee] : [];
  const tasks = issue.task_completion_status;
  return {
    iid: issue.iid,
    title: issue.title,
    description: issue.description ?? '',
    state: issue.state ?? 'opened',
    confidential: issue.confidential === true,
    ...(issue.author ? { author: personView(issue.author) } : {}),
    assignees: assignees.map(personView),
    labels: (issue.labels ?? []).map((name) => labelView(name, colors)),
    ...(issue.milestone?.title ? { milestone: issue.milestone.title } : {}),
    ...(issue.due_date ? { dueDate: issue.due_date } : {}),
    ...(issue.web_url ? { webUrl: issue.web_url } : {}),
    ...(issue.created_at ? { createdAt: issue.created_at } : {}),
    ...(issue.updated_at ? { updatedAt: issue.updated_at } : {}),
    ...(issue.closed_at ? { closedAt: issue.closed_at } : {}),
    ...(issue.closed_by ? { closedBy: personView(issue.closed_by) } : {}),
    ...(tasks && tasks.count > 0 ? { tasks: { count: tasks.count, done: tasks.completed_count } } : {}),
  };
}

export function preliminaryIssueSnapshot(key: string, target: IssueTarget, draft: string): IssueSnapshot {
  return {
    partial: true,
    key,
    accountLabel: target.account.label,
    projectPath: target.projectPath,
    issue: issueView(target.issue),
    canEdit: false,
    awards: [],
    notes: [],
    threads: false,
    related: [],
    draft,
    errors: [],
    loadedAt: new Date().toISOString(),
  };
}

/** Undefined on a server without the endpoint (404); other failures are named in `errors`. */
async function optional<T>(what: string, read: Promise<T>, errors: string[]): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (!(error instanceof NotFoundError)) errors.push(`${what}: ${describeError(error)}`);
    return undefined;
  }
}

function relatedViews(
  related: readonly MergeRequest[] | undefined,
  closing: readonly MergeRequest[] | undefined,
): RelatedMergeRequestView[] {
  const closes = new Set((closing ?? []).map((mergeRequest) => mergeRequest.iid));
  const all = new Map<number, MergeRequest>();
  for (const mergeRequest of [...(closing ?? []), ...(related ?? [])])
    all.set(mergeRequest.iid, mergeRequest);
  return [...all.values()].map((mergeRequest) => ({
    iid: mergeRequest.iid,
    title: mergeRequest.title,
    state: mergeRequest.state,
    closes: closes.has(mergeRequest.iid),
  }));
}

export interface LoadedIssue {
  snapshot: IssueSnapshot;
  issue: Issue;
  notes: Note[];
  /** The merge requests in the order the snapshot lists them. */
  related: RelatedMergeRequestView[];
}

export async function loadIssueSnapshot(input: {
  client: HostingClient;
  target: IssueTarget;
  key: string;
  username: Promise<string | undefined>;
  draft: () => string;
}): Promise<LoadedIssue> {
  const { client, target, key } = input;
  const { projectId } = target;
  const iid = target.issue.iid;
  const errors: string[] = [];
  const settle = settler(errors);
  const parent = { kind: 'issue' as const, project: projectId, iid };
  const [issue, notes, discussions, awards, related, closing, labels, username] = await Promise.all([
    client.getIssue(projectId, iid),
    settle(l10n.t('Comments'), firstItems(client.listNotes(parent), MAX_NOTES), []),
    optional<Discussion[]>(
      l10n.t('Threads'),
      firstItems(client.listIssueDiscussions(projectId, iid), MAX_NOTES),
      errors,
    ),
    settle(l10n.t('Reactions'), firstItems(client.listAwardEmoji(parent), MAX_NOTES), []),
    optional(
      l10n.t('Related merge requests'),
      firstItems(client.listRelatedMergeRequests(projectId, iid), MAX_RELATED),
      errors,
    ),
    optional(
      l10n.t('Closing merge requests'),
      firstItems(client.listClosedBy(projectId, iid), MAX_RELATED),
      errors,
    ),
    optional(l10n.t('Labels'), firstItems(client.listLabels(projectId), 500), errors),
    input.username,
  ]);
  const places = discussions ? threadPlaces(discussions) : new Map<number, ThreadPlace>();
  const sorted = inThreadOrder(
    notes
      .filter((note): note is Note => typeof (note as Note).body === 'string')
      .sort((a, b) => (a.created_at ?? '').localeCompare(b.created_at ?? '') || a.id - b.id),
    places,
  );
  const viewer: Viewer = { username, isAdmin: target.account.isAdmin };
  const noteAwards = await loadNoteAwards(client, { kind: 'issueNote', project: projectId, iid }, sorted, {
    most: MAX_NOTES_WITH_AWARDS,
    errors,
  });
  const colors = new Map((labels ?? []).map((label) => [label.name, label.color] as const));
  const relatedList = relatedViews(related, closing);
  const snapshot: IssueSnapshot = {
    key,
    accountLabel: target.account.label,
    projectPath: target.projectPath,
    issue: issueView(issue, colors),
    canEdit: username !== undefined,
    awards: summarizeAwards(awards, viewer),
    notes: noteViews(sorted, { viewer, noteAwards, places }),
    threads: discussions !== undefined,
    related: relatedList,
    draft: input.draft(),
    ...(username ? { viewer: username } : {}),
    errors,
    loadedAt: new Date().toISOString(),
  };
  return { snapshot, issue, notes: sorted, related: relatedList };
}
