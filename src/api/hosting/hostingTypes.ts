/** What the client's methods take and give besides the server's records (those are in schemas.ts). */

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
  /** GitLab 17.11+: merge once the checks pass (the pipeline among them). */
  auto_merge?: boolean;
  /** The same before GitLab 17.11 (deprecated since, still accepted). */
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

/** `GET /projects/:id/pipelines` filters, named as the API names them. */
export interface PipelineFilter {
  scope?: 'running' | 'pending' | 'finished' | 'branches' | 'tags';
  status?: string;
  source?: string;
  ref?: string;
  sha?: string;
  username?: string;
  name?: string;
  updated_after?: string;
  updated_before?: string;
  order_by?: 'id' | 'status' | 'ref' | 'updated_at' | 'user_id';
  sort?: 'asc' | 'desc';
}

/** A variable for a new pipeline; `file` makes GitLab write the value to a file and put its path in the variable. */
export interface NewPipelineVariable {
  key: string;
  value: string;
  variable_type?: 'env_var' | 'file';
}
