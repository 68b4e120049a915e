/**
 * Issues, beyond the seed spec (which has only their notes), as GitLab's REST API has them:
 * `GET /issues` (the caller's: `scope` created_by_me by default, assigned_to_me, all), a project's
 * `GET .../issues` (scope all), one issue, `POST` and `PUT` (title, description, labels, assignees,
 * milestone, due date, confidential, `state_event` close/reopen, which adds GitLab's system note).
 * A confidential issue is seen by its author, its assignees and members from Reporter up; anyone
 * else gets 404 for it and does not find it in lists, exactly as GitLab answers.
 */
import type { Handler, RequestContext } from '../context';
import { created, errors, ok, type ApiResponse } from '../http';
import type { Router } from '../router';
import { ACCESS, type Issue } from '../state';
import { canSeeIssue, visibleIssue } from './parents';

const PUBLIC = { public: true };
const BASE = '/projects/:id/issues';
const ONE = `${BASE}/:issue_iid`;

export function registerIssueRoutes(router: Router<Handler>): void {
  router.get('/issues', listAllIssues);
  router.get(BASE, listProjectIssues, PUBLIC);
  router.get(ONE, getIssue, PUBLIC);
  router.post(BASE, createIssue);
  router.put(ONE, updateIssue);
  router.get(`${ONE}/related_merge_requests`, relatedMergeRequests, PUBLIC);
  router.get(`${ONE}/closed_by`, closedBy, PUBLIC);
  router.get('/projects/:id/labels', listLabels, PUBLIC);
  router.get('/projects/:id/milestones', listMilestones, PUBLIC);
}

/** GitLab's closing pattern in a merge request's description: "Closes #4", "fixes #4", "Resolves #4". */
function closes(text: string, iid: number): boolean {
  return new RegExp(`\\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\\s+#${iid}\\b`, 'i').test(text);
}

/** Merge requests of the project that mention the issue (`#iid` in their title or description). */
function relatedMergeRequests(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const issue = visibleIssue(ctx, project);
  const mention = new RegExp(`(^|[^\\w&])#${issue.iid}\\b`);
  const related = [...ctx.state.mergeRequests.values()].filter(
    (mergeRequest) =>
      mergeRequest.projectId === project.id &&
      (mention.test(mergeRequest.title) || mention.test(mergeRequest.description)),
  );
  return ctx.list(related, (mergeRequest) => ctx.present.mergeRequest(mergeRequest));
}

/** Merge requests that close the issue when merged (their description says so). */
function closedBy(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const issue = visibleIssue(ctx, project);
  const closing = [...ctx.state.mergeRequests.values()].filter(
    (mergeRequest) => mergeRequest.projectId === project.id && closes(mergeRequest.description, issue.iid),
  );
  return ctx.list(closing, (mergeRequest) => ctx.present.mergeRequest(mergeRequest));
}

function listLabels(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const labels = [...ctx.state.labels.values()].filter((label) => label.projectId === project.id);
  return ctx.list(labels, (label) => ({
    id: label.id,
    name: label.name,
    color: label.color,
    text_color: '#FFFFFF',
    description: label.description,
  }));
}

function listMilestones(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const state = ctx.params.oneOf('state', ['active', 'closed'] as const);
  const milestones = [...ctx.state.milestones.values()].filter(
    (milestone) => milestone.projectId === project.id && (state === undefined || milestone.state === state),
  );
  return ctx.list(milestones, (milestone) => ctx.present.milestone(milestone.id));
}

/** The filters both lists take (state, labels, milestone, search, iids, author, assignee, order). */
function filtered(
  ctx: RequestContext,
  issues: Issue[],
  scope: 'created_by_me' | 'assigned_to_me' | 'all',
): Issue[] {
  const { params } = ctx;
  const caller = ctx.caller;
  const state = params.oneOf('state', ['opened', 'closed', 'all'] as const) ?? 'all';
  const labels = params
    .string('labels')
    ?.split(',')
    .map((label) => label.trim())
    .filter(Boolean);
  const milestone = params.string('milestone');
  const search = params.string('search')?.toLowerCase();
  const iids = params.integerArray('iids');
  const authorId = params.integer('author_id');
  const assigneeId = params.integer('assignee_id');
  const orderBy = params.oneOf('order_by', ['created_at', 'updated_at'] as const) ?? 'created_at';
  const direction = (params.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc') === 'asc' ? 1 : -1;
  return issues
    .filter((issue) => scope !== 'created_by_me' || issue.authorId === caller?.id)
    .filter((issue) => scope !== 'assigned_to_me' || issue.assigneeId === caller?.id)
    .filter((issue) => state === 'all' || issue.state === state)
    .filter((issue) => !labels || labels.every((label) => issue.labels.includes(label)))
    .filter((issue) => {
      if (milestone === undefined) return true;
      const title =
        issue.milestoneId === null ? undefined : ctx.state.milestones.get(issue.milestoneId)?.title;
      if (milestone === 'None') return title === undefined;
      if (milestone === 'Any') return title !== undefined;
      return title === milestone;
    })
    .filter(
      (issue) =>
        !search ||
        issue.title.toLowerCase().includes(search) ||
        issue.description.toLowerCase().includes(search),
    )
    .filter((issue) => !iids || iids.includes(issue.iid))
    .filter((issue) => authorId === undefined || issue.authorId === authorId)
    .filter((issue) => assigneeId === undefined || issue.assigneeId === assigneeId)
    .sort((a, b) => {
      const left = orderBy === 'created_at' ? a.createdAt : a.updatedAt;
      const right = orderBy === 'created_at' ? b.createdAt : b.updatedAt;
      return (left < right ? -1 : left > right ? 1 : a.id - b.id) * direction;
    });
}

function listAllIssues(ctx: RequestContext): ApiResponse {
  const caller = ctx.requireCaller();
  const scope =
    ctx.params.oneOf('scope', ['created_by_me', 'assigned_to_me', 'all'] as const) ?? 'created_by_me';
  const visible = [...ctx.state.issues.values()].filter((issue) => {
    const project = ctx.state.projects.get(issue.projectId);
    return project !== undefined && canSeeIssue(ctx, project, issue, caller);
  });
  return ctx.list(filtered(ctx, visible, scope), (issue) => ctx.present.issue(issue));
}

function listProjectIssues(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const scope = ctx.params.oneOf('scope', ['created_by_me', 'assigned_to_me', 'all'] as const) ?? 'all';
  const visible = [...ctx.state.issues.values()].filter(
    (issue) => issue.projectId === project.id && canSeeIssue(ctx, project, issue, ctx.caller),
  );
  return ctx.list(filtered(ctx, visible, scope), (issue) => ctx.present.issue(issue));
}

function getIssue(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  return ok(ctx.present.issue(visibleIssue(ctx, project)));
}

/** The fields create and edit share, checked as GitLab checks them. */
function applyFields(ctx: RequestContext, issue: Issue): void {
  const { params } = ctx;
  const title = params.string('title');
  if (title !== undefined) {
    if (title.trim() === '') throw errors.badRequest('{"title":["can\'t be blank"]}');
    issue.title = title;
  }
  const description = params.string('description');
  if (description !== undefined) issue.description = description;
  const labels = params.string('labels');
  if (labels !== undefined)
    issue.labels = labels
      .split(',')
      .map((label) => label.trim())
      .filter(Boolean);
  const assignees = params.integerArray('assignee_ids');
  if (assignees !== undefined) issue.assigneeId = assignees[0] ?? null;
  if (params.has('milestone_id')) issue.milestoneId = params.integer('milestone_id') ?? null;
  const confidential = params.string('confidential');
  if (confidential !== undefined) issue.confidential = confidential === 'true';
  if (params.has('due_date')) {
    const due = params.string('due_date') ?? '';
    if (due !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(due)) throw errors.badParameter('due_date is invalid');
    issue.dueDate = due === '' ? null : due;
  }
}

function createIssue(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const caller = ctx.requireCaller();
  if (!ctx.state.canReadProject(project, caller)) throw errors.notFound('Project');
  if (!ctx.params.string('title')) throw errors.badParameter('title is missing');
  const now = ctx.state.now();
  const issue: Issue = {
    id: ctx.state.nextId('issue'),
    iid: ctx.state.nextIid(project.id, ctx.state.issues.values()),
    projectId: project.id,
    title: '',
    description: '',
    state: 'opened',
    authorId: caller.id,
    assigneeId: null,
    labels: [],
    milestoneId: null,
    confidential: false,
    createdAt: now,
    updatedAt: now,
  };
  applyFields(ctx, issue);
  ctx.state.issues.set(issue.id, issue);
  return created(ctx.present.issue(issue));
}

function updateIssue(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const caller = ctx.requireCaller();
  const issue = visibleIssue(ctx, project);
  // The author may edit their issue; others need Reporter.
  if (
    issue.authorId !== caller.id &&
    !caller.isAdmin &&
    ctx.state.accessLevel(project, caller) < ACCESS.reporter
  )
    throw errors.forbidden();
  applyFields(ctx, issue);
  const stateEvent = ctx.params.oneOf('state_event', ['close', 'reopen'] as const);
  const next = stateEvent === 'close' ? 'closed' : stateEvent === 'reopen' ? 'opened' : issue.state;
  const now = ctx.state.now();
  if (next !== issue.state) {
    issue.state = next;
    issue.closedAt = next === 'closed' ? now : null;
    issue.closedById = next === 'closed' ? caller.id : null;
    // GitLab's system note for a state change.
    const note = {
      id: ctx.state.nextId('note'),
      projectId: project.id,
      noteableType: 'Issue' as const,
      noteableId: issue.id,
      body: next === 'closed' ? 'closed' : 'reopened',
      authorId: caller.id,
      system: true,
      createdAt: now,
      updatedAt: now,
    };
    ctx.state.notes.set(note.id, note);
  }
  issue.updatedAt = now;
  return ok(ctx.present.issue(issue));
}
