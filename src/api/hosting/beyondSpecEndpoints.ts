/**
 * Endpoints real servers have that the seed spec does not (GitLab 15-18, from its REST API
 * documentation), kept apart from the spec's registry (`endpoints.ts`, one entry per spec row).
 * `since` says from which GitLab version (and tier) a server has it: an older server answers 404,
 * and the UI says what is unavailable instead of offering the action.
 */
import type { EndpointDefinition } from './endpoints';

const MR = '/projects/:id/merge_requests/:merge_request_iid';
const PIPELINE = '/projects/:id/pipelines/:pipeline_id';

export interface BeyondSpecDefinition extends EndpointDefinition {
  since: string;
}

export const BEYOND_SPEC_ENDPOINTS = {
  'mergeRequests.approvals': {
    method: 'GET',
    path: `${MR}/approvals`,
    since: 'GitLab 8.9; who approved and how many are left (rules need Premium, Free has 0 required)',
  },
  'mergeRequests.approve': {
    method: 'POST',
    path: `${MR}/approve`,
    since: 'GitLab 8.9 (Free); `sha` must be the head (409 otherwise), 401 when the caller may not approve',
  },
  'mergeRequests.unapprove': {
    method: 'POST',
    path: `${MR}/unapprove`,
    since: 'GitLab 9.0 (Free); 404 when the caller had not approved',
  },
  'mergeRequests.rebase': {
    method: 'PUT',
    path: `${MR}/rebase`,
    since: 'GitLab 11.6; 202 with `rebase_in_progress`, then the merge request reports the outcome',
  },
  'mergeRequests.discussions': {
    method: 'GET',
    path: `${MR}/discussions`,
    since: 'GitLab 10.0; threads, diff notes with their `position`',
  },
  'mergeRequests.createDiscussion': {
    method: 'POST',
    path: `${MR}/discussions`,
    since: 'GitLab 10.0; a `position` on a line the diff does not show is refused (400)',
  },
  'mergeRequests.replyToDiscussion': {
    method: 'POST',
    path: `${MR}/discussions/:discussion_id/notes`,
    since: 'GitLab 10.0',
  },
  'mergeRequests.resolveDiscussion': {
    method: 'PUT',
    path: `${MR}/discussions/:discussion_id`,
    since: 'GitLab 10.0; `resolved` true or false',
  },
  'suggestions.apply': {
    method: 'PUT',
    path: '/suggestions/:id/apply',
    since: 'GitLab 13.x; commits the suggested change on the source branch, 400 when it is not appliable',
  },
  'mergeRequests.draftNotes': {
    method: 'GET',
    path: `${MR}/draft_notes`,
    since: "GitLab 15.9; the caller's own pending review comments",
  },
  'mergeRequests.createDraftNote': {
    method: 'POST',
    path: `${MR}/draft_notes`,
    since: 'GitLab 15.9; the text is `note`, not `body`',
  },
  'mergeRequests.deleteDraftNote': {
    method: 'DELETE',
    path: `${MR}/draft_notes/:draft_note_id`,
    since: 'GitLab 15.9',
  },
  'mergeRequests.publishDraftNotes': {
    method: 'POST',
    path: `${MR}/draft_notes/bulk_publish`,
    since: "GitLab 15.9; publishes all of the caller's drafts at once (204)",
  },
  'mergeRequests.versions': {
    method: 'GET',
    path: `${MR}/versions`,
    since: 'GitLab 8.12; each push a version, with its base, start and head commits',
  },
  'repository.rawFile': {
    method: 'GET',
    path: '/projects/:id/repository/files/:file_path/raw',
    since: 'GitLab 8.x; `ref` (branch, tag or commit) required; the path URL-encoded as one segment',
  },
  'repository.commitDiff': {
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha/diff',
    since: "GitLab 8.x; a commit's files against its first parent, paged; `a_mode` may be null",
  },
  'repository.compare': {
    method: 'GET',
    path: '/projects/:id/repository/compare',
    since:
      'GitLab 8.x; `from`...`to` through the merge base unless `straight=true`; diffs may be empty past the diff limits',
  },
  'repository.tree': {
    method: 'GET',
    path: '/projects/:id/repository/tree',
    since: 'GitLab 8.x; a folder of a ref, paged; 404 when the folder is not there',
  },
  'issues.listAll': {
    method: 'GET',
    path: '/issues',
    since: "GitLab 9.5 (`scope`); the caller's issues, created_by_me unless `scope` says otherwise",
  },
  'issues.list': {
    method: 'GET',
    path: '/projects/:id/issues',
    since: 'GitLab 8.x; confidential issues only for their author, assignees and Reporter or above',
  },
  'issues.get': {
    method: 'GET',
    path: '/projects/:id/issues/:issue_iid',
    since: 'GitLab 8.x; 404 for a confidential issue the caller may not see',
  },
  'issues.create': { method: 'POST', path: '/projects/:id/issues', since: 'GitLab 8.x; `title` required' },
  'issues.update': {
    method: 'PUT',
    path: '/projects/:id/issues/:issue_iid',
    since: 'GitLab 8.x; `state_event` close or reopen; the author or Reporter and above',
  },
  'issues.relatedMergeRequests': {
    method: 'GET',
    path: '/projects/:id/issues/:issue_iid/related_merge_requests',
    since: 'GitLab 10.x; merge requests that mention the issue',
  },
  'issues.closedBy': {
    method: 'GET',
    path: '/projects/:id/issues/:issue_iid/closed_by',
    since: 'GitLab 8.x; merge requests that close the issue when merged ("Closes #n")',
  },
  'issues.discussions': {
    method: 'GET',
    path: '/projects/:id/issues/:issue_iid/discussions',
    since: 'GitLab 10.0; threads of comments (issue threads are not resolvable)',
  },
  'issues.createDiscussion': {
    method: 'POST',
    path: '/projects/:id/issues/:issue_iid/discussions',
    since: 'GitLab 10.0',
  },
  'issues.replyToDiscussion': {
    method: 'POST',
    path: '/projects/:id/issues/:issue_iid/discussions/:discussion_id/notes',
    since: 'GitLab 10.0; a reply to a single comment makes it a thread',
  },
  'labels.list': {
    method: 'GET',
    path: '/projects/:id/labels',
    since: 'GitLab 8.x; names, colours, descriptions',
  },
  'milestones.list': {
    method: 'GET',
    path: '/projects/:id/milestones',
    since: 'GitLab 8.x; `state` active or closed',
  },
  'mergeRequests.diffs': {
    method: 'GET',
    path: `${MR}/diffs`,
    since: 'GitLab 15.7; the files of the diff a page at a time (`.../changes` before)',
  },
  'pipelines.list': {
    method: 'GET',
    path: '/projects/:id/pipelines',
    since: 'GitLab 8.11; child pipelines only with `source=parent_pipeline` (17.0), `name` since 16.3',
  },
  'pipelines.get': {
    method: 'GET',
    path: `${PIPELINE}`,
    since: 'GitLab 8.11; with who, when, how long and `detailed_status`',
  },
  'pipelines.latest': {
    method: 'GET',
    path: '/projects/:id/pipelines/latest',
    since: "GitLab 12.3; the newest pipeline of the ref's head commit, 403 when it has none",
  },
  'pipelines.variables': {
    method: 'GET',
    path: `${PIPELINE}/variables`,
    since: 'GitLab 11.11; the variables it was created with (Developer and up)',
  },
  'pipelines.create': {
    method: 'POST',
    path: '/projects/:id/pipeline',
    since: 'GitLab 8.14; `ref` and `variables` (`variable_type` env_var or file); 400 with the reason',
  },
  'pipelines.retry': {
    method: 'POST',
    path: `${PIPELINE}/retry`,
    since: 'GitLab 8.11; runs its failed and canceled jobs again',
  },
  'pipelines.cancel': {
    method: 'POST',
    path: `${PIPELINE}/cancel`,
    since: 'GitLab 8.11; 200 whatever the state',
  },
  'pipelines.delete': {
    method: 'DELETE',
    path: `${PIPELINE}`,
    since: 'GitLab 11.6; Owner only, cannot be undone',
  },
  'pipelines.bridges': {
    method: 'GET',
    path: `${PIPELINE}/bridges`,
    since: 'GitLab 13.0; trigger jobs with their `downstream_pipeline`',
  },
  'pipelines.testReportSummary': {
    method: 'GET',
    path: `${PIPELINE}/test_report_summary`,
    since: 'GitLab 14.0; totals of the unit test reports',
  },
  'ciConfig.lint': {
    method: 'POST',
    path: '/projects/:id/ci/lint',
    since: 'GitLab 13.6; `content`, `dry_run`, `ref`, `include_jobs`; changes nothing (a check, not a write)',
  },
  'ciConfig.lintCommitted': {
    method: 'GET',
    path: '/projects/:id/ci/lint',
    since: 'GitLab 13.5; the committed `.gitlab-ci.yml` (`content_ref` from 16.x, `ref` before)',
  },
  'ciConfig.projectVariables': {
    method: 'GET',
    path: '/projects/:id/variables',
    since: 'GitLab 9.x; Maintainer and up (403 below); `hidden` values are null from 17.4',
  },
} as const satisfies Record<string, BeyondSpecDefinition>;

export type BeyondSpecEndpointId = keyof typeof BEYOND_SPEC_ENDPOINTS;
