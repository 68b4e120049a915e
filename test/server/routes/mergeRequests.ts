import type { Handler, RequestContext } from '../context';
import {
  alreadyDeleted,
  created,
  errors,
  HttpError,
  noContent,
  notModified,
  ok,
  type ApiResponse,
} from '../http';
import { isDraftTitle } from '../present';
import type { Router } from '../router';
import { ACCESS, type MergeRequest, type Project, type User } from '../state';
import { findMergeRequest } from './parents';
import { rebaseProgress } from './approvals';

const PUBLIC = { public: true };
const BASE = '/projects/:id/merge_requests';
const ONE = `${BASE}/:merge_request_iid`;

export function registerMergeRequestRoutes(router: Router<Handler>): void {
  router.get(BASE, listMergeRequests, PUBLIC);
  router.get(ONE, getMergeRequest, PUBLIC);
  router.get(`${ONE}/commits`, listCommits, PUBLIC);
  router.get(`${ONE}/changes`, getChanges, PUBLIC);
  router.post(BASE, createMergeRequest);
  router.put(ONE, updateMergeRequest);
  router.delete(ONE, deleteMergeRequest);
  router.put(`${ONE}/merge`, acceptMergeRequest);
  // The spec says PUT; real servers use POST. Both are accepted.
  router.put(`${ONE}/cancel_merge_when_pipeline_succeeds`, cancelMergeWhenPipelineSucceeds);
  router.post(`${ONE}/cancel_merge_when_pipeline_succeeds`, cancelMergeWhenPipelineSucceeds);
  router.get(`${ONE}/closes_issues`, listClosesIssues, PUBLIC);
  router.post(`${ONE}/subscribe`, subscribe);
  router.post(`${ONE}/unsubscribe`, unsubscribe);
  router.post(`${ONE}/todo`, createTodo);
}

function listMergeRequests(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const { params } = ctx;
  const state = params.oneOf('state', ['opened', 'closed', 'merged', 'locked', 'all'] as const) ?? 'all';
  const iids =
    params.integerArray('iids') ?? (params.has('iid') ? [params.integer('iid') as number] : undefined);
  const sourceBranch = params.string('source_branch');
  const targetBranch = params.string('target_branch');
  const search = params.string('search')?.toLowerCase();
  const orderBy = params.oneOf('order_by', ['created_at', 'updated_at'] as const) ?? 'created_at';
  const direction = (params.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc') === 'asc' ? 1 : -1;

  const mergeRequests = [...ctx.state.mergeRequests.values()]
    .filter((mergeRequest) => mergeRequest.projectId === project.id)
    .filter((mergeRequest) => state === 'all' || mergeRequest.state === state)
    .filter((mergeRequest) => !iids || iids.includes(mergeRequest.iid))
    .filter((mergeRequest) => sourceBranch === undefined || mergeRequest.sourceBranch === sourceBranch)
    .filter((mergeRequest) => targetBranch === undefined || mergeRequest.targetBranch === targetBranch)
    .filter(
      (mergeRequest) =>
        !search ||
        mergeRequest.title.toLowerCase().includes(search) ||
        mergeRequest.description.toLowerCase().includes(search),
    )
    .sort((a, b) => {
      const left = orderBy === 'created_at' ? a.createdAt : a.updatedAt;
      const right = orderBy === 'created_at' ? b.createdAt : b.updatedAt;
      return (left < right ? -1 : left > right ? 1 : a.id - b.id) * direction;
    });
  return ctx.list(mergeRequests, (mergeRequest) => ctx.present.mergeRequest(mergeRequest));
}

function getMergeRequest(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const mergeRequest = findMergeRequest(ctx, project);
  if (ctx.params.string('include_rebase_in_progress') !== 'true')
    return ok(ctx.present.mergeRequest(mergeRequest));
  const inProgress = rebaseProgress(project, mergeRequest);
  return ok({ ...(ctx.present.mergeRequest(mergeRequest) as object), rebase_in_progress: inProgress });
}

function listCommits(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const mergeRequest = findMergeRequest(ctx, project);
  const commits = ctx.state.commitsBetween(mergeRequest.baseSha, ctx.state.mergeRequestHeadSha(mergeRequest));
  return ctx.list(commits, (commit) => ctx.present.mergeRequestCommit(commit));
}

function getChanges(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  return ok(ctx.present.mergeRequest(findMergeRequest(ctx, project), true));
}

function labelsParam(ctx: RequestContext): string[] | undefined {
  const labels = ctx.params.stringArray('labels');
  if (!labels) return undefined;
  return labels
    .flatMap((label) => label.split(','))
    .map((label) => label.trim())
    .filter(Boolean);
}

function milestoneParam(ctx: RequestContext, project: Project): number | null | undefined {
  if (!ctx.params.has('milestone_id')) return undefined;
  const id = ctx.params.integer('milestone_id');
  const milestone = id === undefined ? undefined : ctx.state.milestones.get(id);
  return milestone && milestone.projectId === project.id ? milestone.id : null;
}

function assigneeParam(ctx: RequestContext): number | null | undefined {
  if (!ctx.params.has('assignee_id')) return undefined;
  const id = ctx.params.integer('assignee_id');
  return id !== undefined && ctx.state.users.has(id) ? id : null;
}

function createMergeRequest(ctx: RequestContext): ApiResponse {
  const source = ctx.project();
  const author = ctx.requireWrite(source);
  const { params, state } = ctx;
  params.require('source_branch', 'target_branch', 'title');
  const sourceBranch = params.string('source_branch') as string;
  const targetBranch = params.string('target_branch') as string;
  const title = params.string('title') as string;

  const targetProjectId = params.integer('target_project_id') ?? source.id;
  const target = state.projects.get(targetProjectId);
  if (
    !target ||
    (target.id !== source.id && target.id !== source.forkedFromId) ||
    !state.canReadProject(target, author)
  ) {
    throw errors.validation({ target_project_id: ['is not valid'] });
  }
  const sourceHead = source.branches.get(sourceBranch);
  const targetHead = target.branches.get(targetBranch);
  const problems: Record<string, string[]> = {};
  if (!sourceHead) problems['source_branch'] = [`"${sourceBranch}" does not exist`];
  if (!targetHead) problems['target_branch'] = [`"${targetBranch}" does not exist`];
  if (source.id === target.id && sourceBranch === targetBranch) {
    problems['validate_branches'] = ["You can't use same project/branch for source and target"];
  }
  if (Object.keys(problems).length > 0 || !sourceHead || !targetHead) throw errors.validation(problems);
  for (const other of state.mergeRequests.values()) {
    if (
      other.state === 'opened' &&
      other.projectId === target.id &&
      other.sourceProjectId === source.id &&
      other.sourceBranch === sourceBranch &&
      other.targetBranch === targetBranch
    ) {
      throw errors.conflict([
        `Another open merge request already exists for this source branch: !${other.iid}`,
      ]);
    }
  }

  const now = state.now();
  const assigneeId = assigneeParam(ctx) ?? null;
  const mergeRequest: MergeRequest = {
    id: state.nextId('mergeRequest'),
    iid: state.nextIid(target.id, state.mergeRequests.values()),
    projectId: target.id,
    sourceProjectId: source.id,
    targetProjectId: target.id,
    title,
    description: params.string('description') ?? '',
    sourceBranch,
    targetBranch,
    state: 'opened',
    authorId: author.id,
    assigneeId,
    labels: labelsParam(ctx) ?? [],
    milestoneId: milestoneParam(ctx, target) ?? null,
    mergeWhenPipelineSucceeds: false,
    mergeStatus: 'can_be_merged',
    mergeCommitSha: null,
    shouldRemoveSourceBranch: null,
    forceRemoveSourceBranch: params.boolean('remove_source_branch') ?? false,
    subscriberIds: new Set(assigneeId === null ? [author.id] : [author.id, assigneeId]),
    createdAt: now,
    updatedAt: now,
    mergedAt: null,
    mergedById: null,
    closedAt: null,
    closedById: null,
    headSha: sourceHead.commitSha,
    baseSha: targetHead.commitSha,
  };
  state.mergeRequests.set(mergeRequest.id, mergeRequest);
  state.addEvent({
    projectId: target.id,
    actionName: 'opened',
    authorId: author.id,
    targetType: 'MergeRequest',
    targetId: mergeRequest.id,
    targetIid: mergeRequest.iid,
    targetTitle: title,
  });
  if (assigneeId !== null && assigneeId !== author.id) {
    ctx.state.addTodo({
      userId: assigneeId,
      projectId: target.id,
      authorId: author.id,
      actionName: 'assigned',
      targetType: 'MergeRequest',
      targetId: mergeRequest.id,
      body: title,
    });
  }
  return created(ctx.present.mergeRequest(mergeRequest));
}

const UPDATABLE = [
  'target_branch',
  'title',
  'assignee_id',
  'description',
  'state_event',
  'labels',
  'milestone_id',
  'remove_source_branch',
] as const;

function updateMergeRequest(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const mergeRequest = findMergeRequest(ctx, project);
  const caller = ctx.requireCaller();
  if (mergeRequest.authorId !== caller.id) ctx.requireWrite(project);
  else if (project.archived) throw errors.forbidden();
  const { params, state } = ctx;
  params.requireOneOf(...UPDATABLE);
  const stateEvent = params.oneOf('state_event', ['close', 'reopen'] as const);
  const targetBranch = params.string('target_branch');
  if (targetBranch !== undefined && !project.branches.has(targetBranch)) {
    throw errors.validation({ target_branch: [`"${targetBranch}" does not exist`] });
  }

  if (targetBranch !== undefined) mergeRequest.targetBranch = targetBranch;
  const title = params.string('title');
  if (title !== undefined) mergeRequest.title = title;
  const description = params.string('description');
  if (description !== undefined) mergeRequest.description = description;
  const assigneeId = assigneeParam(ctx);
  if (assigneeId !== undefined) mergeRequest.assigneeId = assigneeId;
  const labels = labelsParam(ctx);
  if (labels) mergeRequest.labels = labels;
  const milestoneId = milestoneParam(ctx, project);
  if (milestoneId !== undefined) mergeRequest.milestoneId = milestoneId;
  const removeSource = params.boolean('remove_source_branch');
  if (removeSource !== undefined) mergeRequest.forceRemoveSourceBranch = removeSource;

  const now = state.now();
  if (stateEvent === 'close' && mergeRequest.state === 'opened') {
    mergeRequest.state = 'closed';
    mergeRequest.closedAt = now;
    mergeRequest.closedById = caller.id;
    addStateEvent(ctx, mergeRequest, caller, 'closed');
  } else if (stateEvent === 'reopen' && mergeRequest.state === 'closed') {
    mergeRequest.state = 'opened';
    mergeRequest.reopened = true;
    mergeRequest.closedAt = null;
    mergeRequest.closedById = null;
    addStateEvent(ctx, mergeRequest, caller, 'reopened');
  }
  mergeRequest.updatedAt = now;
  return ok(ctx.present.mergeRequest(mergeRequest));
}

function addStateEvent(
  ctx: RequestContext,
  mergeRequest: MergeRequest,
  caller: User,
  actionName: string,
): void {
  ctx.state.addEvent({
    projectId: mergeRequest.projectId,
    actionName,
    authorId: caller.id,
    targetType: 'MergeRequest',
    targetId: mergeRequest.id,
    targetIid: mergeRequest.iid,
    targetTitle: mergeRequest.title,
  });
}

/** Administrators and project owners; 204, or 200 when it was already gone. */
function deleteMergeRequest(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireCaller();
  const mergeRequest = ctx.state.findMergeRequest(project.id, ctx.pathInt('merge_request_iid'));
  if (!mergeRequest) return alreadyDeleted();
  ctx.requireOwner(project);
  ctx.state.mergeRequests.delete(mergeRequest.id);
  ctx.state.deleteAwardable('MergeRequest', mergeRequest.id);
  for (const todo of ctx.state.todos.values()) {
    if (todo.targetType === 'MergeRequest' && todo.targetId === mergeRequest.id)
      ctx.state.todos.delete(todo.id);
  }
  return noContent();
}

/** Whether the caller may merge into the target branch; failing this is 401 for merge requests. */
function canMerge(ctx: RequestContext, project: Project, mergeRequest: MergeRequest): boolean {
  if (project.archived) return false;
  const level = ctx.accessLevel(project);
  if (level >= ACCESS.maintainer) return true;
  if (level < ACCESS.developer) return false;
  const target = project.branches.get(mergeRequest.targetBranch);
  return !target?.protected || target.developersCanMerge;
}

const cannotBeMerged = (): HttpError => errors.status(405, 'Branch cannot be merged');

/**
 * Accept (spec, Errors 6): no permission 401; merged or closed 406; conflicts, drafts, a missing source
 * branch or (when the project requires it) no successful pipeline 405; a `sha` other than the source head 409.
 */
function acceptMergeRequest(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const mergeRequest = findMergeRequest(ctx, project);
  const caller = ctx.requireCaller();
  if (!canMerge(ctx, project, mergeRequest)) throw errors.unauthorized();
  if (mergeRequest.state !== 'opened') throw errors.status(406, 'Method Not Allowed');
  const { params, state } = ctx;
  const source = state.projects.get(mergeRequest.sourceProjectId);
  const sourceBranch = source?.branches.get(mergeRequest.sourceBranch);
  const targetBranch = project.branches.get(mergeRequest.targetBranch);
  if (
    mergeRequest.mergeStatus === 'cannot_be_merged' ||
    isDraftTitle(mergeRequest.title) ||
    !sourceBranch ||
    !targetBranch
  ) {
    throw cannotBeMerged();
  }
  const sha = params.string('sha');
  if (sha !== undefined && sha !== sourceBranch.commitSha) {
    throw errors.conflict(`SHA does not match HEAD of source branch: ${sourceBranch.commitSha}`);
  }
  const shouldRemove = params.boolean('should_remove_source_branch');
  // `auto_merge` (GitLab 17.11+) or its older name.
  if (params.boolean('auto_merge') || params.boolean('merge_when_pipeline_succeeds')) {
    mergeRequest.mergeWhenPipelineSucceeds = true;
    if (shouldRemove !== undefined) mergeRequest.shouldRemoveSourceBranch = shouldRemove;
    mergeRequest.updatedAt = state.now();
    return ok(ctx.present.mergeRequest(mergeRequest));
  }
  if (
    project.settings.only_allow_merge_if_pipeline_succeeds &&
    latestPipelineStatus(ctx, sourceBranch.commitSha) !== 'success'
  ) {
    throw cannotBeMerged();
  }

  const now = state.now();
  const title = `Merge branch '${mergeRequest.sourceBranch}' into '${mergeRequest.targetBranch}'`;
  const message =
    params.string('merge_commit_message') ??
    `${title}\n\n${mergeRequest.title}\n\nSee merge request ${state.pathWithNamespace(project)}!${mergeRequest.iid}`;
  const mergeSha = state.addCommit({
    parentIds: [targetBranch.commitSha, sourceBranch.commitSha],
    title: message.split('\n')[0] ?? title,
    message,
    by: caller,
    at: now,
    changes: [],
  });
  targetBranch.commitSha = mergeSha;
  mergeRequest.headSha = sourceBranch.commitSha;
  mergeRequest.state = 'merged';
  mergeRequest.mergeCommitSha = mergeSha;
  mergeRequest.mergedAt = now;
  mergeRequest.mergedById = caller.id;
  mergeRequest.updatedAt = now;
  mergeRequest.mergeWhenPipelineSucceeds = false;
  if (shouldRemove !== undefined) mergeRequest.shouldRemoveSourceBranch = shouldRemove;
  if ((shouldRemove ?? mergeRequest.forceRemoveSourceBranch) && source && !sourceBranch.protected) {
    source.branches.delete(sourceBranch.name);
  }
  for (const issue of closedIssues(ctx, mergeRequest)) {
    issue.state = 'closed';
    issue.updatedAt = now;
    issue.closedAt = now;
    issue.closedById = caller.id;
  }
  addStateEvent(ctx, mergeRequest, caller, 'accepted');
  return ok(ctx.present.mergeRequest(mergeRequest));
}

function latestPipelineStatus(ctx: RequestContext, sha: string): string | undefined {
  const pipeline = ctx.state.latestPipeline(sha);
  return pipeline ? ctx.state.pipelineStatus(pipeline) : undefined;
}

/** Spec, Errors 7: no permission 401; merged or closed 405; not set to merge when the pipeline succeeds 406. */
function cancelMergeWhenPipelineSucceeds(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const mergeRequest = findMergeRequest(ctx, project);
  ctx.requireCaller();
  if (!canMerge(ctx, project, mergeRequest)) throw errors.unauthorized();
  if (mergeRequest.state !== 'opened') throw errors.status(405, '405 Method Not Allowed');
  if (!mergeRequest.mergeWhenPipelineSucceeds) throw errors.status(406, '406 Not Acceptable');
  mergeRequest.mergeWhenPipelineSucceeds = false;
  mergeRequest.updatedAt = ctx.state.now();
  return ok(ctx.present.mergeRequest(mergeRequest));
}

/** Issues named by "Closes #1", "fixes #2", "Resolves #3" in the title or description. */
function closedIssues(ctx: RequestContext, mergeRequest: MergeRequest) {
  const text = `${mergeRequest.title}\n${mergeRequest.description}`;
  const iids = new Set<number>();
  for (const match of text.matchAll(
    /\b(?:close[sd]?|closing|fix(?:e[sd])?|fixing|resolve[sd]?|resolving)\s*:?\s+#(\d+)/gi,
  )) {
    if (match[1]) iids.add(Number(match[1]));
  }
  return [...iids].flatMap((iid) => {
    const issue = ctx.state.findIssue(mergeRequest.projectId, iid);
    return issue ? [issue] : [];
  });
}

function listClosesIssues(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const mergeRequest = findMergeRequest(ctx, project);
  return ctx.list(closedIssues(ctx, mergeRequest), (issue) => ctx.present.issue(issue));
}

function subscribe(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const mergeRequest = findMergeRequest(ctx, project);
  const caller = ctx.requireCaller();
  if (mergeRequest.subscriberIds.has(caller.id)) return notModified();
  mergeRequest.subscriberIds.add(caller.id);
  return ok(ctx.present.mergeRequest(mergeRequest));
}

function unsubscribe(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const mergeRequest = findMergeRequest(ctx, project);
  const caller = ctx.requireCaller();
  if (!mergeRequest.subscriberIds.has(caller.id)) return notModified();
  mergeRequest.subscriberIds.delete(caller.id);
  return ok(ctx.present.mergeRequest(mergeRequest));
}

/** A `marked` todo for the caller (201); 304 when the caller already has a pending one for this request. */
function createTodo(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const mergeRequest = findMergeRequest(ctx, project);
  const caller = ctx.requireCaller();
  for (const todo of ctx.state.todos.values()) {
    if (
      todo.userId === caller.id &&
      todo.state === 'pending' &&
      todo.targetType === 'MergeRequest' &&
      todo.targetId === mergeRequest.id
    ) {
      return notModified();
    }
  }
  const todo = ctx.state.addTodo({
    userId: caller.id,
    projectId: project.id,
    authorId: caller.id,
    actionName: 'marked',
    targetType: 'MergeRequest',
    targetId: mergeRequest.id,
    body: mergeRequest.title,
  });
  return created(ctx.present.todo(todo));
}
