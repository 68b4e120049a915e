import type { HttpMethod } from '../http';

export interface EndpointDefinition {
  method: HttpMethod;
  /** Path template under `/api/v4`, as real servers spell it. */
  path: string;
  /** How the spec spells the path where real servers differ (the coverage test matches on this). */
  specPath?: string;
  /** Why `path` differs from the spec, or another fact about real servers. */
  note?: string;
}

const NOTE_PARENTS = {
  issue: '/projects/:id/issues/:issue_iid',
  snippet: '/projects/:id/snippets/:snippet_id',
  mergeRequest: '/projects/:id/merge_requests/:merge_request_iid',
} as const;

const AWARD_PARENTS = {
  ...NOTE_PARENTS,
  issueNote: '/projects/:id/issues/:issue_iid/notes/:note_id',
  mergeRequestNote: '/projects/:id/merge_requests/:merge_request_iid/notes/:note_id',
} as const;

export type NoteParentKind = keyof typeof NOTE_PARENTS;
export type AwardableKind = keyof typeof AWARD_PARENTS;

const MR = '/projects/:id/merge_requests/:merge_request_iid';

/**
 * One entry per row of the spec's endpoint tables, with shorthand rows written out in full:
 * notes once per parent, award emoji once per awardable.
 */
export const ENDPOINTS = {
  // Jobs
  'jobs.list': { method: 'GET', path: '/projects/:id/jobs' },
  'jobs.listForPipeline': {
    method: 'GET',
    path: '/projects/:id/pipelines/:pipeline_id/jobs',
    specPath: '/projects/:id/pipeline/:pipeline_id/jobs',
    note: 'Real servers (and the spec sample request) use the plural `pipelines` segment.',
  },
  'jobs.get': { method: 'GET', path: '/projects/:id/jobs/:job_id' },
  'jobs.artifacts': { method: 'GET', path: '/projects/:id/jobs/:job_id/artifacts' },
  'jobs.artifactsByRef': { method: 'GET', path: '/projects/:id/jobs/artifacts/:ref_name/download' },
  'jobs.trace': { method: 'GET', path: '/projects/:id/jobs/:job_id/trace' },
  'jobs.cancel': { method: 'POST', path: '/projects/:id/jobs/:job_id/cancel' },
  'jobs.retry': { method: 'POST', path: '/projects/:id/jobs/:job_id/retry' },
  'jobs.erase': { method: 'POST', path: '/projects/:id/jobs/:job_id/erase' },
  'jobs.keepArtifacts': { method: 'POST', path: '/projects/:id/jobs/:job_id/artifacts/keep' },
  'jobs.play': { method: 'POST', path: '/projects/:id/jobs/:job_id/play' },

  // Projects
  'projects.list': { method: 'GET', path: '/projects' },
  'projects.get': { method: 'GET', path: '/projects/:id' },
  'projects.users': { method: 'GET', path: '/projects/:id/users' },
  'projects.events': { method: 'GET', path: '/projects/:id/events' },
  'projects.create': { method: 'POST', path: '/projects' },
  'projects.createForUser': { method: 'POST', path: '/projects/user/:user_id' },
  'projects.edit': { method: 'PUT', path: '/projects/:id' },
  'projects.fork': { method: 'POST', path: '/projects/:id/fork' },
  'projects.star': { method: 'POST', path: '/projects/:id/star' },
  'projects.unstar': { method: 'POST', path: '/projects/:id/unstar' },
  'projects.archive': { method: 'POST', path: '/projects/:id/archive' },
  'projects.unarchive': { method: 'POST', path: '/projects/:id/unarchive' },
  'projects.delete': { method: 'DELETE', path: '/projects/:id' },

  // Branches
  'branches.list': { method: 'GET', path: '/projects/:id/repository/branches' },
  'branches.get': { method: 'GET', path: '/projects/:id/repository/branches/:branch' },
  'branches.protect': { method: 'PUT', path: '/projects/:id/repository/branches/:branch/protect' },
  'branches.unprotect': { method: 'PUT', path: '/projects/:id/repository/branches/:branch/unprotect' },
  'branches.create': { method: 'POST', path: '/projects/:id/repository/branches' },
  'branches.delete': { method: 'DELETE', path: '/projects/:id/repository/branches/:branch' },
  'branches.deleteMerged': { method: 'DELETE', path: '/projects/:id/repository/merged_branches' },

  // Merge requests
  'mergeRequests.list': { method: 'GET', path: '/projects/:id/merge_requests' },
  'mergeRequests.get': { method: 'GET', path: MR },
  'mergeRequests.commits': { method: 'GET', path: `${MR}/commits` },
  'mergeRequests.changes': { method: 'GET', path: `${MR}/changes` },
  'mergeRequests.create': { method: 'POST', path: '/projects/:id/merge_requests' },
  'mergeRequests.update': { method: 'PUT', path: MR },
  'mergeRequests.delete': { method: 'DELETE', path: MR },
  'mergeRequests.merge': { method: 'PUT', path: `${MR}/merge` },
  'mergeRequests.cancelMergeWhenPipelineSucceeds': {
    method: 'PUT',
    path: `${MR}/cancel_merge_when_pipeline_succeeds`,
  },
  'mergeRequests.closesIssues': { method: 'GET', path: `${MR}/closes_issues` },
  'mergeRequests.subscribe': { method: 'POST', path: `${MR}/subscribe` },
  'mergeRequests.unsubscribe': { method: 'POST', path: `${MR}/unsubscribe` },
  'mergeRequests.createTodo': { method: 'POST', path: `${MR}/todo` },

  // Notes, once per parent
  'issueNotes.list': { method: 'GET', path: `${NOTE_PARENTS.issue}/notes` },
  'issueNotes.get': { method: 'GET', path: `${NOTE_PARENTS.issue}/notes/:note_id` },
  'issueNotes.create': { method: 'POST', path: `${NOTE_PARENTS.issue}/notes` },
  'issueNotes.update': { method: 'PUT', path: `${NOTE_PARENTS.issue}/notes/:note_id` },
  'issueNotes.delete': { method: 'DELETE', path: `${NOTE_PARENTS.issue}/notes/:note_id` },
  'snippetNotes.list': { method: 'GET', path: `${NOTE_PARENTS.snippet}/notes` },
  'snippetNotes.get': { method: 'GET', path: `${NOTE_PARENTS.snippet}/notes/:note_id` },
  'snippetNotes.create': { method: 'POST', path: `${NOTE_PARENTS.snippet}/notes` },
  'snippetNotes.update': { method: 'PUT', path: `${NOTE_PARENTS.snippet}/notes/:note_id` },
  'snippetNotes.delete': { method: 'DELETE', path: `${NOTE_PARENTS.snippet}/notes/:note_id` },
  'mergeRequestNotes.list': { method: 'GET', path: `${NOTE_PARENTS.mergeRequest}/notes` },
  'mergeRequestNotes.get': { method: 'GET', path: `${NOTE_PARENTS.mergeRequest}/notes/:note_id` },
  'mergeRequestNotes.create': { method: 'POST', path: `${NOTE_PARENTS.mergeRequest}/notes` },
  'mergeRequestNotes.update': { method: 'PUT', path: `${NOTE_PARENTS.mergeRequest}/notes/:note_id` },
  'mergeRequestNotes.delete': { method: 'DELETE', path: `${NOTE_PARENTS.mergeRequest}/notes/:note_id` },

  // Award emoji, once per awardable
  'issueAwardEmoji.list': { method: 'GET', path: `${AWARD_PARENTS.issue}/award_emoji` },
  'issueAwardEmoji.get': { method: 'GET', path: `${AWARD_PARENTS.issue}/award_emoji/:award_id` },
  'issueAwardEmoji.create': { method: 'POST', path: `${AWARD_PARENTS.issue}/award_emoji` },
  'issueAwardEmoji.delete': { method: 'DELETE', path: `${AWARD_PARENTS.issue}/award_emoji/:award_id` },
  'mergeRequestAwardEmoji.list': { method: 'GET', path: `${AWARD_PARENTS.mergeRequest}/award_emoji` },
  'mergeRequestAwardEmoji.get': {
    method: 'GET',
    path: `${AWARD_PARENTS.mergeRequest}/award_emoji/:award_id`,
  },
  'mergeRequestAwardEmoji.create': { method: 'POST', path: `${AWARD_PARENTS.mergeRequest}/award_emoji` },
  'mergeRequestAwardEmoji.delete': {
    method: 'DELETE',
    path: `${AWARD_PARENTS.mergeRequest}/award_emoji/:award_id`,
  },
  'snippetAwardEmoji.list': { method: 'GET', path: `${AWARD_PARENTS.snippet}/award_emoji` },
  'snippetAwardEmoji.get': { method: 'GET', path: `${AWARD_PARENTS.snippet}/award_emoji/:award_id` },
  'snippetAwardEmoji.create': { method: 'POST', path: `${AWARD_PARENTS.snippet}/award_emoji` },
  'snippetAwardEmoji.delete': { method: 'DELETE', path: `${AWARD_PARENTS.snippet}/award_emoji/:award_id` },
  'issueNoteAwardEmoji.list': { method: 'GET', path: `${AWARD_PARENTS.issueNote}/award_emoji` },
  'issueNoteAwardEmoji.get': { method: 'GET', path: `${AWARD_PARENTS.issueNote}/award_emoji/:award_id` },
  'issueNoteAwardEmoji.create': { method: 'POST', path: `${AWARD_PARENTS.issueNote}/award_emoji` },
  'issueNoteAwardEmoji.delete': {
    method: 'DELETE',
    path: `${AWARD_PARENTS.issueNote}/award_emoji/:award_id`,
  },
  'mergeRequestNoteAwardEmoji.list': { method: 'GET', path: `${AWARD_PARENTS.mergeRequestNote}/award_emoji` },
  'mergeRequestNoteAwardEmoji.get': {
    method: 'GET',
    path: `${AWARD_PARENTS.mergeRequestNote}/award_emoji/:award_id`,
  },
  'mergeRequestNoteAwardEmoji.create': {
    method: 'POST',
    path: `${AWARD_PARENTS.mergeRequestNote}/award_emoji`,
  },
  'mergeRequestNoteAwardEmoji.delete': {
    method: 'DELETE',
    path: `${AWARD_PARENTS.mergeRequestNote}/award_emoji/:award_id`,
  },

  // Issue boards
  'boards.list': { method: 'GET', path: '/projects/:id/boards' },
  'boardLists.list': { method: 'GET', path: '/projects/:id/boards/:board_id/lists' },
  'boardLists.get': { method: 'GET', path: '/projects/:id/boards/:board_id/lists/:list_id' },
  'boardLists.create': { method: 'POST', path: '/projects/:id/boards/:board_id/lists' },
  'boardLists.move': { method: 'PUT', path: '/projects/:id/boards/:board_id/lists/:list_id' },
  'boardLists.delete': { method: 'DELETE', path: '/projects/:id/boards/:board_id/lists/:list_id' },

  // Pipeline triggers
  'triggers.list': { method: 'GET', path: '/projects/:id/triggers' },
  'triggers.get': { method: 'GET', path: '/projects/:id/triggers/:trigger_id' },
  'triggers.create': { method: 'POST', path: '/projects/:id/triggers' },
  'triggers.update': { method: 'PUT', path: '/projects/:id/triggers/:trigger_id' },
  'triggers.takeOwnership': { method: 'POST', path: '/projects/:id/triggers/:trigger_id/take_ownership' },
  'triggers.delete': { method: 'DELETE', path: '/projects/:id/triggers/:trigger_id' },

  // System hooks (administrators)
  'systemHooks.list': { method: 'GET', path: '/hooks' },
  'systemHooks.create': { method: 'POST', path: '/hooks' },
  'systemHooks.test': { method: 'GET', path: '/hooks/:id' },
  'systemHooks.delete': { method: 'DELETE', path: '/hooks/:id' },

  // Todos
  'todos.list': { method: 'GET', path: '/todos' },
  'todos.markAsDone': { method: 'POST', path: '/todos/:id/mark_as_done' },
  'todos.markAllAsDone': { method: 'POST', path: '/todos/mark_as_done' },

  // Broadcast messages (administrators)
  'broadcastMessages.list': { method: 'GET', path: '/broadcast_messages' },
  'broadcastMessages.get': { method: 'GET', path: '/broadcast_messages/:id' },
  'broadcastMessages.create': { method: 'POST', path: '/broadcast_messages' },
  'broadcastMessages.update': { method: 'PUT', path: '/broadcast_messages/:id' },
  'broadcastMessages.delete': { method: 'DELETE', path: '/broadcast_messages/:id' },

  // CI templates and keys
  'ciTemplates.list': {
    method: 'GET',
    path: '/templates/gitlab_ci_ymls',
    specPath: '/templates/service_ci_ymls',
    note: 'The segment carries the service name; real servers use `gitlab_ci_ymls`.',
  },
  'ciTemplates.get': {
    method: 'GET',
    path: '/templates/gitlab_ci_ymls/:key',
    specPath: '/templates/service_ci_ymls/:key',
    note: 'The segment carries the service name; real servers use `gitlab_ci_ymls`.',
  },
  'keys.get': { method: 'GET', path: '/keys/:id' },
} as const satisfies Record<string, EndpointDefinition>;

/** An entry of the spec's registry. */
export type SpecEndpointId = keyof typeof ENDPOINTS;

export const NOTE_ENDPOINT_PREFIX = {
  issue: 'issueNotes',
  snippet: 'snippetNotes',
  mergeRequest: 'mergeRequestNotes',
} as const satisfies Record<NoteParentKind, string>;

export const AWARD_ENDPOINT_PREFIX = {
  issue: 'issueAwardEmoji',
  snippet: 'snippetAwardEmoji',
  mergeRequest: 'mergeRequestAwardEmoji',
  issueNote: 'issueNoteAwardEmoji',
  mergeRequestNote: 'mergeRequestNoteAwardEmoji',
} as const satisfies Record<AwardableKind, string>;

export type PathParams = Readonly<Record<string, string | number>>;

/**
 * Fills a path template. Every value is percent-encoded as one segment, so a project path
 * `group/project` becomes `group%2Fproject` and a branch `feature/x` stays one segment.
 */
export function fillPath(template: string, params: PathParams): string {
  return template.replace(/:([a-z_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === '')
      throw new Error(`Missing path parameter :${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
}
