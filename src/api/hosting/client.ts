import * as z from 'zod';
import {
  type DownloadOptions,
  type DownloadResult,
  type HttpClientOptions,
  HttpTransport,
  ListRequest,
  type Query,
  headerValue,
  parseReply,
  saveStreamToFile,
} from '../http';
import {
  AWARD_ENDPOINT_PREFIX,
  type AwardableKind,
  ENDPOINTS,
  type EndpointId,
  NOTE_ENDPOINT_PREFIX,
  type NoteParentKind,
  type PathParams,
  fillPath,
} from './endpoints';
import {
  AwardEmojiSchema,
  BoardListSchema,
  BoardSchema,
  BranchSchema,
  BroadcastMessageSchema,
  CiTemplateSchema,
  CiTemplateSummarySchema,
  ClosesIssueSchema,
  JobSchema,
  MergeRequestChangesSchema,
  MergeRequestCommitSchema,
  type MergeRequest,
  MergeRequestSchema,
  NoteOrAwardSchema,
  NoteSchema,
  ProjectEventSchema,
  ProjectMemberSchema,
  ProjectSchema,
  SnippetNoteResponseSchema,
  SshKeySchema,
  SystemHookSchema,
  SystemHookTestSchema,
  TodoSchema,
  TriggerSchema,
} from './schemas';

/** A numeric project id or its `namespace/project` path. */
export type ProjectRef = number | string;

export interface CallOptions {
  signal?: AbortSignal;
}

/** Result of an action that answers 304 when the thing is already in the asked-for state. */
export type StateChange<T> = { changed: true; value: T } | { changed: false };

export type TraceResult =
  | { unchanged: true }
  | {
      unchanged: false;
      /** The trace from `offset` on, as received; `text` decodes it (a follower decodes only what is new). */
      bytes: Buffer;
      /** `from` as asked for, or the whole size when the trace is shorter; 0 without `from`. */
      offset: number;
      readonly text: string;
      etag: string | undefined;
    };

export type NoteParent =
  | { kind: 'issue'; project: ProjectRef; iid: number }
  | { kind: 'mergeRequest'; project: ProjectRef; iid: number }
  | { kind: 'snippet'; project: ProjectRef; snippetId: number };

export type Awardable =
  | NoteParent
  | { kind: 'issueNote'; project: ProjectRef; iid: number; noteId: number }
  | { kind: 'mergeRequestNote'; project: ProjectRef; iid: number; noteId: number };

export const JOB_SCOPES = [
  'created',
  'pending',
  'running',
  'failed',
  'success',
  'canceled',
  'skipped',
] as const;
export type JobScope = (typeof JOB_SCOPES)[number];

export interface ProjectListFilter {
  archived?: boolean;
  visibility?: 'private' | 'internal' | 'public';
  orderBy?: 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at';
  sort?: 'asc' | 'desc';
  search?: string;
  simple?: boolean;
  owned?: boolean;
  membership?: boolean;
  starred?: boolean;
}

/** Settings shared by create and edit, named as the API names them. */
export interface ProjectSettings {
  description?: string;
  issues_enabled?: boolean;
  merge_requests_enabled?: boolean;
  jobs_enabled?: boolean;
  wiki_enabled?: boolean;
  snippets_enabled?: boolean;
  container_registry_enabled?: boolean;
  shared_runners_enabled?: boolean;
  visibility?: 'private' | 'internal' | 'public';
  import_url?: string;
  public_jobs?: boolean;
  only_allow_merge_if_pipeline_succeeds?: boolean;
  only_allow_merge_if_all_discussions_are_resolved?: boolean;
  lfs_enabled?: boolean;
  request_access_enabled?: boolean;
}

export interface CreateProjectInput extends ProjectSettings {
  name?: string;
  path?: string;
  namespace_id?: number;
}

export interface CreateProjectForUserInput extends ProjectSettings {
  name: string;
  path?: string;
  default_branch?: string;
  namespace_id?: number;
}

export interface EditProjectInput extends ProjectSettings {
  name: string;
  path?: string;
  default_branch?: string;
}

export interface MergeRequestListFilter {
  iid?: number;
  iids?: number[];
  state?: 'opened' | 'closed' | 'merged' | 'all';
  orderBy?: 'created_at' | 'updated_at';
  sort?: 'asc' | 'desc';
}

export interface CreateMergeRequestInput {
  source_branch: string;
  target_branch: string;
  title: string;
  assignee_id?: number;
  description?: string;
  target_project_id?: number;
  labels?: string;
  milestone_id?: number;
  remove_source_branch?: boolean;
}

export interface UpdateMergeRequestInput {
  target_branch?: string;
  title?: string;
  assignee_id?: number;
  description?: string;
  state_event?: 'close' | 'reopen';
  labels?: string;
  milestone_id?: number;
  remove_source_branch?: boolean;
}

export interface MergeInput {
  /** The source branch HEAD the user saw; the server refuses the merge (409) if it moved. */
  sha?: string;
  merge_commit_message?: string;
  /** Not in the spec; real servers squash the source commits into one when true. */
  squash?: boolean;
  should_remove_source_branch?: boolean;
  merge_when_pipeline_succeeds?: boolean;
}

export interface TodoFilter {
  action?: 'assigned' | 'mentioned' | 'build_failed' | 'marked' | 'approval_required';
  authorId?: number;
  projectId?: number;
  state?: 'pending' | 'done';
  type?: 'Issue' | 'MergeRequest';
}

export interface CreateSystemHookInput {
  url: string;
  token?: string;
  push_events?: boolean;
  tag_push_events?: boolean;
  enable_ssl_verification?: boolean;
}

export interface BroadcastMessageInput {
  message?: string;
  starts_at?: string;
  ends_at?: string;
  color?: string;
  font?: string;
}

const SystemHookCreateReplySchema = z.union([SystemHookSchema, z.array(SystemHookSchema).length(1)]);

function projectParam(project: ProjectRef): string {
  return String(project);
}

function noteParentParams(parent: NoteParent): Record<string, string | number> {
  const id = projectParam(parent.project);
  switch (parent.kind) {
    case 'issue':
      return { id, issue_iid: parent.iid };
    case 'mergeRequest':
      return { id, merge_request_iid: parent.iid };
    case 'snippet':
      return { id, snippet_id: parent.snippetId };
  }
}

function awardableParams(target: Awardable): Record<string, string | number> {
  switch (target.kind) {
    case 'issueNote':
      return { id: projectParam(target.project), issue_iid: target.iid, note_id: target.noteId };
    case 'mergeRequestNote':
      return { id: projectParam(target.project), merge_request_iid: target.iid, note_id: target.noteId };
    default:
      return noteParentParams(target);
  }
}

function noteEndpoint(
  kind: NoteParentKind,
  operation: 'list' | 'get' | 'create' | 'update' | 'delete',
): EndpointId {
  return `${NOTE_ENDPOINT_PREFIX[kind]}.${operation}`;
}

function awardEndpoint(kind: AwardableKind, operation: 'list' | 'get' | 'create' | 'delete'): EndpointId {
  return `${AWARD_ENDPOINT_PREFIX[kind]}.${operation}`;
}

/**
 * The project-hosting REST API v4. Every endpoint of the spec has one method here; paths come
 * from the registry in `endpoints.ts`.
 */
export class HostingClient {
  constructor(readonly transport: HttpTransport) {}

  static create(options: Omit<HttpClientOptions, 'apiPrefix'>): HostingClient {
    return new HostingClient(new HttpTransport({ ...options, apiPrefix: '/api/v4' }));
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  // ---- plumbing -------------------------------------------------------------------------------

  private label(id: EndpointId): string {
    const endpoint = ENDPOINTS[id];
    return `${endpoint.method} ${endpoint.path}`;
  }

  private async call<S extends z.ZodType>(
    id: EndpointId,
    params: PathParams,
    schema: S,
    options: { query?: Query; body?: object; signal?: AbortSignal } = {},
  ): Promise<z.infer<S>> {
    const endpoint = ENDPOINTS[id];
    const response = await this.transport.requestJson({
      method: endpoint.method,
      path: fillPath(endpoint.path, params),
      query: options.query,
      json: options.body,
      signal: options.signal,
    });
    return parseReply(schema, response.data, this.label(id));
  }

  /** For endpoints that answer 304 when nothing had to change. */
  private async callStateChange<S extends z.ZodType>(
    id: EndpointId,
    params: PathParams,
    schema: S,
    options: CallOptions = {},
  ): Promise<StateChange<z.infer<S>>> {
    const endpoint = ENDPOINTS[id];
    const response = await this.transport.requestJson({
      method: endpoint.method,
      path: fillPath(endpoint.path, params),
      signal: options.signal,
    });
    if (response.notModified) return { changed: false };
    return { changed: true, value: parseReply(schema, response.data, this.label(id)) };
  }

  /** For endpoints whose reply body is not shown or not needed (DELETE, mark all done). */
  private async callNoContent(
    id: EndpointId,
    params: PathParams,
    options: { query?: Query; body?: object; signal?: AbortSignal } = {},
  ): Promise<void> {
    const endpoint = ENDPOINTS[id];
    await this.transport.requestText({
      method: endpoint.method,
      path: fillPath(endpoint.path, params),
      query: options.query,
      json: options.body,
      signal: options.signal,
    });
  }

  private list<S extends z.ZodType>(
    id: EndpointId,
    params: PathParams,
    schema: S,
    query?: Query,
  ): ListRequest<S> {
    const endpoint = ENDPOINTS[id];
    return new ListRequest(
      this.transport,
      { path: fillPath(endpoint.path, params), query, endpoint: this.label(id) },
      schema,
    );
  }

  private async download(
    id: EndpointId,
    params: PathParams,
    destination: string,
    options: DownloadOptions & { query?: Query },
  ): Promise<DownloadResult> {
    const endpoint = ENDPOINTS[id];
    const response = await this.transport.requestStream({
      method: endpoint.method,
      path: fillPath(endpoint.path, params),
      query: options.query,
      signal: options.signal,
    });
    return saveStreamToFile(response, destination, options, this.label(id));
  }

  // ---- jobs -----------------------------------------------------------------------------------

  listJobs(project: ProjectRef, scope?: readonly JobScope[]) {
    return this.list('jobs.list', { id: projectParam(project) }, JobSchema, { scope });
  }

  listPipelineJobs(project: ProjectRef, pipelineId: number, scope?: readonly JobScope[]) {
    return this.list(
      'jobs.listForPipeline',
      { id: projectParam(project), pipeline_id: pipelineId },
      JobSchema,
      {
        scope,
      },
    );
  }

  getJob(project: ProjectRef, jobId: number, options?: CallOptions) {
    return this.call('jobs.get', { id: projectParam(project), job_id: jobId }, JobSchema, options);
  }

  /** Streams the job's artifacts archive to `destination` (via a `.part` file). */
  downloadArtifacts(project: ProjectRef, jobId: number, destination: string, options: DownloadOptions = {}) {
    return this.download(
      'jobs.artifacts',
      { id: projectParam(project), job_id: jobId },
      destination,
      options,
    );
  }

  /** The artifacts of the latest successful job named `jobName` on `ref`. */
  downloadArtifactsByRef(
    project: ProjectRef,
    ref: string,
    jobName: string,
    destination: string,
    options: DownloadOptions = {},
  ) {
    return this.download('jobs.artifactsByRef', { id: projectParam(project), ref_name: ref }, destination, {
      ...options,
      query: { job: jobName },
    });
  }

  /**
   * The trace, or "unchanged" when it still has the ETag given. Real servers have no offset
   * parameter and send the whole trace: with `from`, the bytes before it are dropped as they arrive.
   */
  async getTrace(
    project: ProjectRef,
    jobId: number,
    options: CallOptions & {
      etag?: string;
      from?: number;
      /** Each piece of the body as it arrives, with where it starts (again from 0 after a retry). */
      onBytes?: (bytes: Uint8Array, offset: number) => void;
    } = {},
  ): Promise<TraceResult> {
    const endpoint = ENDPOINTS['jobs.trace'];
    const response = await this.transport.requestBytes(
      {
        method: endpoint.method,
        path: fillPath(endpoint.path, { id: projectParam(project), job_id: jobId }),
        headers: options.etag
          ? { 'if-none-match': options.etag, accept: 'text/plain, */*' }
          : { accept: 'text/plain, */*' },
        signal: options.signal,
      },
      { keepFrom: options.from, onChunk: options.onBytes },
    );
    if (response.notModified) return { unchanged: true };
    const { bytes, offset } = response;
    return {
      unchanged: false,
      bytes,
      offset,
      get text() {
        return bytes.toString('utf8');
      },
      etag: headerValue(response.headers, 'etag'),
    };
  }

  cancelJob(project: ProjectRef, jobId: number, options?: CallOptions) {
    return this.call('jobs.cancel', { id: projectParam(project), job_id: jobId }, JobSchema, options);
  }

  retryJob(project: ProjectRef, jobId: number, options?: CallOptions) {
    return this.call('jobs.retry', { id: projectParam(project), job_id: jobId }, JobSchema, options);
  }

  eraseJob(project: ProjectRef, jobId: number, options?: CallOptions) {
    return this.call('jobs.erase', { id: projectParam(project), job_id: jobId }, JobSchema, options);
  }

  keepArtifacts(project: ProjectRef, jobId: number, options?: CallOptions) {
    return this.call('jobs.keepArtifacts', { id: projectParam(project), job_id: jobId }, JobSchema, options);
  }

  playJob(project: ProjectRef, jobId: number, options?: CallOptions) {
    return this.call('jobs.play', { id: projectParam(project), job_id: jobId }, JobSchema, options);
  }

  // ---- projects -------------------------------------------------------------------------------

  listProjects(filter: ProjectListFilter = {}) {
    return this.list('projects.list', {}, ProjectSchema, {
      archived: filter.archived,
      visibility: filter.visibility,
      order_by: filter.orderBy,
      sort: filter.sort,
      search: filter.search,
      simple: filter.simple,
      owned: filter.owned,
      membership: filter.membership,
      starred: filter.starred,
    });
  }

  getProject(project: ProjectRef, options?: CallOptions) {
    return this.call('projects.get', { id: projectParam(project) }, ProjectSchema, options);
  }

  listProjectUsers(project: ProjectRef, search?: string) {
    return this.list('projects.users', { id: projectParam(project) }, ProjectMemberSchema, { search });
  }

  listProjectEvents(project: ProjectRef) {
    return this.list('projects.events', { id: projectParam(project) }, ProjectEventSchema);
  }

  createProject(input: CreateProjectInput, options?: CallOptions) {
    return this.call('projects.create', {}, ProjectSchema, { body: input, ...options });
  }

  /** Administrators only. */
  createProjectForUser(userId: number, input: CreateProjectForUserInput, options?: CallOptions) {
    return this.call('projects.createForUser', { user_id: userId }, ProjectSchema, {
      body: input,
      ...options,
    });
  }

  editProject(project: ProjectRef, input: EditProjectInput, options?: CallOptions) {
    return this.call('projects.edit', { id: projectParam(project) }, ProjectSchema, {
      body: input,
      ...options,
    });
  }

  forkProject(project: ProjectRef, namespace: number | string, options?: CallOptions) {
    return this.call('projects.fork', { id: projectParam(project) }, ProjectSchema, {
      body: { namespace },
      ...options,
    });
  }

  starProject(project: ProjectRef, options?: CallOptions) {
    return this.callStateChange('projects.star', { id: projectParam(project) }, ProjectSchema, options);
  }

  unstarProject(project: ProjectRef, options?: CallOptions) {
    return this.callStateChange('projects.unstar', { id: projectParam(project) }, ProjectSchema, options);
  }

  archiveProject(project: ProjectRef, options?: CallOptions) {
    return this.call('projects.archive', { id: projectParam(project) }, ProjectSchema, options);
  }

  unarchiveProject(project: ProjectRef, options?: CallOptions) {
    return this.call('projects.unarchive', { id: projectParam(project) }, ProjectSchema, options);
  }

  deleteProject(project: ProjectRef, options?: CallOptions) {
    return this.callNoContent('projects.delete', { id: projectParam(project) }, options);
  }

  // ---- branches -------------------------------------------------------------------------------

  listBranches(project: ProjectRef) {
    return this.list('branches.list', { id: projectParam(project) }, BranchSchema);
  }

  getBranch(project: ProjectRef, branch: string, options?: CallOptions) {
    return this.call('branches.get', { id: projectParam(project), branch }, BranchSchema, options);
  }

  protectBranch(
    project: ProjectRef,
    branch: string,
    settings: { developers_can_push?: boolean; developers_can_merge?: boolean } = {},
    options?: CallOptions,
  ) {
    return this.call('branches.protect', { id: projectParam(project), branch }, BranchSchema, {
      body: settings,
      ...options,
    });
  }

  unprotectBranch(project: ProjectRef, branch: string, options?: CallOptions) {
    return this.call('branches.unprotect', { id: projectParam(project), branch }, BranchSchema, options);
  }

  /** `ref` is a branch name or a commit SHA to start from. */
  createBranch(project: ProjectRef, branch: string, ref: string, options?: CallOptions) {
    return this.call('branches.create', { id: projectParam(project) }, BranchSchema, {
      body: { branch, ref },
      ...options,
    });
  }

  deleteBranch(project: ProjectRef, branch: string, options?: CallOptions) {
    return this.callNoContent('branches.delete', { id: projectParam(project), branch }, options);
  }

  deleteMergedBranches(project: ProjectRef, options?: CallOptions) {
    return this.callNoContent('branches.deleteMerged', { id: projectParam(project) }, options);
  }

  // ---- merge requests -------------------------------------------------------------------------

  listMergeRequests(project: ProjectRef, filter: MergeRequestListFilter = {}) {
    return this.list('mergeRequests.list', { id: projectParam(project) }, MergeRequestSchema, {
      iid: filter.iid,
      iids: filter.iids,
      state: filter.state,
      order_by: filter.orderBy,
      sort: filter.sort,
    });
  }

  getMergeRequest(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.call('mergeRequests.get', this.mrParams(project, iid), MergeRequestSchema, options);
  }

  listMergeRequestCommits(project: ProjectRef, iid: number) {
    return this.list('mergeRequests.commits', this.mrParams(project, iid), MergeRequestCommitSchema);
  }

  getMergeRequestChanges(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.call(
      'mergeRequests.changes',
      this.mrParams(project, iid),
      MergeRequestChangesSchema,
      options,
    );
  }

  createMergeRequest(project: ProjectRef, input: CreateMergeRequestInput, options?: CallOptions) {
    return this.call('mergeRequests.create', { id: projectParam(project) }, MergeRequestSchema, {
      body: input,
      ...options,
    });
  }

  updateMergeRequest(
    project: ProjectRef,
    iid: number,
    input: UpdateMergeRequestInput,
    options?: CallOptions,
  ): Promise<MergeRequest> {
    if (Object.values(input).every((value) => value === undefined)) {
      // Rejected, not thrown: callers chaining .catch() on the promise must see it too.
      return Promise.reject(new Error('Nothing to update: give at least one field'));
    }
    return this.call('mergeRequests.update', this.mrParams(project, iid), MergeRequestSchema, {
      body: input,
      ...options,
    });
  }

  deleteMergeRequest(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.callNoContent('mergeRequests.delete', this.mrParams(project, iid), options);
  }

  /** Merges; send the `sha` the user saw so a branch that moved is refused (409) instead of merged. */
  mergeMergeRequest(project: ProjectRef, iid: number, input: MergeInput = {}, options?: CallOptions) {
    return this.call('mergeRequests.merge', this.mrParams(project, iid), MergeRequestSchema, {
      body: input,
      ...options,
    });
  }

  cancelMergeWhenPipelineSucceeds(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.call(
      'mergeRequests.cancelMergeWhenPipelineSucceeds',
      this.mrParams(project, iid),
      MergeRequestSchema,
      options,
    );
  }

  listMergeRequestClosesIssues(project: ProjectRef, iid: number) {
    return this.list('mergeRequests.closesIssues', this.mrParams(project, iid), ClosesIssueSchema);
  }

  subscribeToMergeRequest(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.callStateChange(
      'mergeRequests.subscribe',
      this.mrParams(project, iid),
      MergeRequestSchema,
      options,
    );
  }

  unsubscribeFromMergeRequest(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.callStateChange(
      'mergeRequests.unsubscribe',
      this.mrParams(project, iid),
      MergeRequestSchema,
      options,
    );
  }

  createMergeRequestTodo(project: ProjectRef, iid: number, options?: CallOptions) {
    return this.callStateChange('mergeRequests.createTodo', this.mrParams(project, iid), TodoSchema, options);
  }

  private mrParams(project: ProjectRef, iid: number): PathParams {
    return { id: projectParam(project), merge_request_iid: iid };
  }

  // ---- notes ----------------------------------------------------------------------------------

  private noteSchema(parent: NoteParent) {
    // The snippet note sample has a snippet-like shape.
    return parent.kind === 'snippet' ? SnippetNoteResponseSchema : NoteSchema;
  }

  listNotes(parent: NoteParent) {
    return this.list(noteEndpoint(parent.kind, 'list'), noteParentParams(parent), this.noteSchema(parent));
  }

  getNote(parent: NoteParent, noteId: number, options?: CallOptions) {
    return this.call(
      noteEndpoint(parent.kind, 'get'),
      { ...noteParentParams(parent), note_id: noteId },
      this.noteSchema(parent),
      options,
    );
  }

  /** A body that is only an award emoji (`:thumbsup:`) comes back as an award emoji. */
  createNote(parent: NoteParent, body: string, options: CallOptions & { createdAt?: string } = {}) {
    return this.call(noteEndpoint(parent.kind, 'create'), noteParentParams(parent), NoteOrAwardSchema, {
      body: { body, created_at: parent.kind === 'issue' ? options.createdAt : undefined },
      signal: options.signal,
    });
  }

  updateNote(parent: NoteParent, noteId: number, body: string, options?: CallOptions) {
    return this.call(
      noteEndpoint(parent.kind, 'update'),
      { ...noteParentParams(parent), note_id: noteId },
      this.noteSchema(parent),
      { body: { body }, ...options },
    );
  }

  deleteNote(parent: NoteParent, noteId: number, options?: CallOptions) {
    return this.callNoContent(
      noteEndpoint(parent.kind, 'delete'),
      { ...noteParentParams(parent), note_id: noteId },
      options,
    );
  }

  // ---- award emoji ----------------------------------------------------------------------------

  listAwardEmoji(target: Awardable) {
    return this.list(awardEndpoint(target.kind, 'list'), awardableParams(target), AwardEmojiSchema);
  }

  getAwardEmoji(target: Awardable, awardId: number, options?: CallOptions) {
    return this.call(
      awardEndpoint(target.kind, 'get'),
      { ...awardableParams(target), award_id: awardId },
      AwardEmojiSchema,
      options,
    );
  }

  /** `name` without colons, e.g. `thumbsup`. */
  awardEmoji(target: Awardable, name: string, options?: CallOptions) {
    return this.call(awardEndpoint(target.kind, 'create'), awardableParams(target), AwardEmojiSchema, {
      body: { name: name.replace(/^:|:$/g, '') },
      ...options,
    });
  }

  deleteAwardEmoji(target: Awardable, awardId: number, options?: CallOptions) {
    return this.callNoContent(
      awardEndpoint(target.kind, 'delete'),
      { ...awardableParams(target), award_id: awardId },
      options,
    );
  }

  // ---- boards ---------------------------------------------------------------------------------

  listBoards(project: ProjectRef) {
    return this.list('boards.list', { id: projectParam(project) }, BoardSchema);
  }

  listBoardLists(project: ProjectRef, boardId: number) {
    return this.list('boardLists.list', { id: projectParam(project), board_id: boardId }, BoardListSchema);
  }

  getBoardList(project: ProjectRef, boardId: number, listId: number, options?: CallOptions) {
    return this.call(
      'boardLists.get',
      { id: projectParam(project), board_id: boardId, list_id: listId },
      BoardListSchema,
      options,
    );
  }

  createBoardList(project: ProjectRef, boardId: number, labelId: number, options?: CallOptions) {
    return this.call('boardLists.create', { id: projectParam(project), board_id: boardId }, BoardListSchema, {
      body: { label_id: labelId },
      ...options,
    });
  }

  moveBoardList(
    project: ProjectRef,
    boardId: number,
    listId: number,
    position: number,
    options?: CallOptions,
  ) {
    return this.call(
      'boardLists.move',
      { id: projectParam(project), board_id: boardId, list_id: listId },
      BoardListSchema,
      { body: { position }, ...options },
    );
  }

  deleteBoardList(project: ProjectRef, boardId: number, listId: number, options?: CallOptions) {
    return this.callNoContent(
      'boardLists.delete',
      { id: projectParam(project), board_id: boardId, list_id: listId },
      options,
    );
  }

  // ---- pipeline triggers ----------------------------------------------------------------------

  listTriggers(project: ProjectRef) {
    return this.list('triggers.list', { id: projectParam(project) }, TriggerSchema);
  }

  getTrigger(project: ProjectRef, triggerId: number, options?: CallOptions) {
    return this.call(
      'triggers.get',
      { id: projectParam(project), trigger_id: triggerId },
      TriggerSchema,
      options,
    );
  }

  createTrigger(project: ProjectRef, description: string, options?: CallOptions) {
    return this.call('triggers.create', { id: projectParam(project) }, TriggerSchema, {
      body: { description },
      ...options,
    });
  }

  updateTrigger(
    project: ProjectRef,
    triggerId: number,
    description: string | undefined,
    options?: CallOptions,
  ) {
    return this.call('triggers.update', { id: projectParam(project), trigger_id: triggerId }, TriggerSchema, {
      body: { description },
      ...options,
    });
  }

  takeTriggerOwnership(project: ProjectRef, triggerId: number, options?: CallOptions) {
    return this.call(
      'triggers.takeOwnership',
      { id: projectParam(project), trigger_id: triggerId },
      TriggerSchema,
      options,
    );
  }

  deleteTrigger(project: ProjectRef, triggerId: number, options?: CallOptions) {
    return this.callNoContent(
      'triggers.delete',
      { id: projectParam(project), trigger_id: triggerId },
      options,
    );
  }

  // ---- system hooks (administrators) ----------------------------------------------------------

  listSystemHooks() {
    return this.list('systemHooks.list', {}, SystemHookSchema);
  }

  /** The sample reply is an array of one hook; both shapes are accepted. */
  async createSystemHook(input: CreateSystemHookInput, options?: CallOptions) {
    const reply = await this.call('systemHooks.create', {}, SystemHookCreateReplySchema, {
      body: input,
      ...options,
    });
    return Array.isArray(reply) ? (reply[0] as z.infer<typeof SystemHookSchema>) : reply;
  }

  /** Asks the server for a sample event of the hook. */
  testSystemHook(hookId: number, options?: CallOptions) {
    return this.call('systemHooks.test', { id: hookId }, SystemHookTestSchema, options);
  }

  deleteSystemHook(hookId: number, options?: CallOptions) {
    return this.callNoContent('systemHooks.delete', { id: hookId }, options);
  }

  // ---- todos ----------------------------------------------------------------------------------

  listTodos(filter: TodoFilter = {}) {
    return this.list('todos.list', {}, TodoSchema, {
      action: filter.action,
      author_id: filter.authorId,
      project_id: filter.projectId,
      state: filter.state,
      type: filter.type,
    });
  }

  markTodoAsDone(todoId: number, options?: CallOptions) {
    return this.call('todos.markAsDone', { id: todoId }, TodoSchema, options);
  }

  markAllTodosAsDone(options?: CallOptions) {
    return this.callNoContent('todos.markAllAsDone', {}, options);
  }

  // ---- broadcast messages (administrators) ----------------------------------------------------

  listBroadcastMessages() {
    return this.list('broadcastMessages.list', {}, BroadcastMessageSchema);
  }

  getBroadcastMessage(messageId: number, options?: CallOptions) {
    return this.call('broadcastMessages.get', { id: messageId }, BroadcastMessageSchema, options);
  }

  createBroadcastMessage(input: BroadcastMessageInput & { message: string }, options?: CallOptions) {
    return this.call('broadcastMessages.create', {}, BroadcastMessageSchema, { body: input, ...options });
  }

  updateBroadcastMessage(messageId: number, input: BroadcastMessageInput, options?: CallOptions) {
    return this.call('broadcastMessages.update', { id: messageId }, BroadcastMessageSchema, {
      body: input,
      ...options,
    });
  }

  deleteBroadcastMessage(messageId: number, options?: CallOptions) {
    return this.callNoContent('broadcastMessages.delete', { id: messageId }, options);
  }

  // ---- CI templates and keys ------------------------------------------------------------------

  listCiTemplates() {
    return this.list('ciTemplates.list', {}, CiTemplateSummarySchema);
  }

  getCiTemplate(key: string, options?: CallOptions) {
    return this.call('ciTemplates.get', { key }, CiTemplateSchema, options);
  }

  /** Administrators only. */
  getSshKey(keyId: number, options?: CallOptions) {
    return this.call('keys.get', { id: keyId }, SshKeySchema, options);
  }
}
