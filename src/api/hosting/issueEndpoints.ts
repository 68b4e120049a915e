import type { CallOptions, ProjectRef } from './hostingTypes';
import { projectParam } from './hostingCore';
import { PipelineEndpoints } from './pipelineEndpoints';
import {
  DiscussionNoteSchema,
  DiscussionSchema,
  IssueSchema,
  LabelSchema,
  MergeRequestSchema,
  MilestoneSchema,
} from './schemas';

/** The filters of `GET /issues` and `GET /projects/:id/issues`, as GitLab names them. */
export interface IssueFilter {
  /** `created_by_me` (the default of `/issues`), `assigned_to_me`, `all` (a project's default). */
  scope?: 'created_by_me' | 'assigned_to_me' | 'all';
  state?: 'opened' | 'closed' | 'all';
  /** Issues must have all of them. */
  labels?: readonly string[];
  /** A milestone's title, `None` or `Any`. */
  milestone?: string;
  search?: string;
  iids?: readonly number[];
  authorId?: number;
  assigneeId?: number;
  orderBy?: 'created_at' | 'updated_at';
  sort?: 'asc' | 'desc';
}

/** What creating or editing an issue sets; what is left out stays as it is. */
export interface IssueInput {
  title?: string;
  description?: string;
  labels?: readonly string[];
  assigneeIds?: readonly number[];
  /** null removes the milestone. */
  milestoneId?: number | null;
  /** `YYYY-MM-DD`; null removes it. */
  dueDate?: string | null;
  confidential?: boolean;
  stateEvent?: 'close' | 'reopen';
}

function filterQuery(filter: IssueFilter): Record<string, string | number | boolean | readonly number[]> {
  return {
    ...(filter.scope ? { scope: filter.scope } : {}),
    ...(filter.state ? { state: filter.state } : {}),
    ...(filter.labels && filter.labels.length > 0 ? { labels: filter.labels.join(',') } : {}),
    ...(filter.milestone ? { milestone: filter.milestone } : {}),
    ...(filter.search ? { search: filter.search } : {}),
    ...(filter.iids && filter.iids.length > 0 ? { iids: filter.iids } : {}),
    ...(filter.authorId === undefined ? {} : { author_id: filter.authorId }),
    ...(filter.assigneeId === undefined ? {} : { assignee_id: filter.assigneeId }),
    ...(filter.orderBy ? { order_by: filter.orderBy } : {}),
    ...(filter.sort ? { sort: filter.sort } : {}),
  };
}

function inputBody(input: IssueInput): Record<string, unknown> {
  return {
    ...(input.title === undefined ? {} : { title: input.title }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.labels === undefined ? {} : { labels: input.labels.join(',') }),
    ...(input.assigneeIds === undefined ? {} : { assignee_ids: [...input.assigneeIds] }),
    ...(input.milestoneId === undefined ? {} : { milestone_id: input.milestoneId }),
    ...(input.dueDate === undefined ? {} : { due_date: input.dueDate }),
    ...(input.confidential === undefined ? {} : { confidential: input.confidential }),
    ...(input.stateEvent === undefined ? {} : { state_event: input.stateEvent }),
  };
}

/**
 * Issues, beyond the seed spec (`beyondSpecEndpoints.ts`): the caller's across projects and a
 * project's, one issue, creating and editing (closing and reopening with `state_event`). A server
 * without an endpoint answers 404 (`NotFoundError`); writes are never repeated.
 */
export class IssueEndpoints extends PipelineEndpoints {
  /** The caller's issues across projects (`scope` created_by_me unless said). */
  listIssues(filter: IssueFilter = {}) {
    return this.list('issues.listAll', {}, IssueSchema, filterQuery(filter));
  }

  /** A project's issues (every issue the caller may see unless `scope` says otherwise). */
  listProjectIssues(project: ProjectRef, filter: IssueFilter = {}) {
    return this.list('issues.list', { id: projectParam(project) }, IssueSchema, filterQuery(filter));
  }

  getIssue(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.call('issues.get', { id: projectParam(project), issue_iid: iid }, IssueSchema, {
      signal: options?.signal,
    });
  }

  createIssue(project: ProjectRef, input: IssueInput & { title: string }, options?: CallOptions) {
    return this.call('issues.create', { id: projectParam(project) }, IssueSchema, {
      body: inputBody(input),
      signal: options?.signal,
    });
  }

  updateIssue(project: ProjectRef, iid: number, input: IssueInput, options?: CallOptions) {
    return this.call('issues.update', { id: projectParam(project), issue_iid: iid }, IssueSchema, {
      body: inputBody(input),
      signal: options?.signal,
    });
  }

  /** Merge requests that mention the issue. */
  listRelatedMergeRequests(project: ProjectRef, iid: number) {
    return this.list(
      'issues.relatedMergeRequests',
      { id: projectParam(project), issue_iid: iid },
      MergeRequestSchema,
    );
  }

  /** Merge requests that close the issue when merged. */
  listClosedBy(project: ProjectRef, iid: number) {
    return this.list('issues.closedBy', { id: projectParam(project), issue_iid: iid }, MergeRequestSchema);
  }

  /** The issue's threads (a single comment is a thread of one, `individual_note`). */
  listIssueDiscussions(project: ProjectRef, iid: number) {
    return this.list('issues.discussions', { id: projectParam(project), issue_iid: iid }, DiscussionSchema);
  }

  createIssueDiscussion(project: ProjectRef, iid: number, body: string, options?: CallOptions) {
    return this.call(
      'issues.createDiscussion',
      { id: projectParam(project), issue_iid: iid },
      DiscussionSchema,
      { body: { body }, signal: options?.signal },
    );
  }

  /** A reply in a thread; a reply to a single comment makes it a thread. */
  replyToIssueDiscussion(
    project: ProjectRef,
    iid: number,
    discussionId: string,
    body: string,
    options?: CallOptions,
  ) {
    return this.call(
      'issues.replyToDiscussion',
      { id: projectParam(project), issue_iid: iid, discussion_id: discussionId },
      DiscussionNoteSchema,
      { body: { body }, signal: options?.signal },
    );
  }

  listLabels(project: ProjectRef) {
    return this.list('labels.list', { id: projectParam(project) }, LabelSchema);
  }

  listMilestones(project: ProjectRef, state?: 'active' | 'closed') {
    return this.list(
      'milestones.list',
      { id: projectParam(project) },
      MilestoneSchema,
      state === undefined ? undefined : { state },
    );
  }
}
