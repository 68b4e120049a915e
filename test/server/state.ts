import { createHash } from 'node:crypto';
import { Prng } from './prng';
import { TraceWriter, type TraceOutcome } from './trace';
import { buildArtifactsZip } from './zip';

/*
 * The fake forge's in-memory data. Records are stored in camelCase; `present.ts` turns them into the
 * snake_case JSON shapes of the API. Tests may read and change anything here directly.
 */

export type Visibility = 'private' | 'internal' | 'public';
export const VISIBILITIES: readonly Visibility[] = ['private', 'internal', 'public'];

export type JobStatus =
  'created' | 'pending' | 'running' | 'failed' | 'success' | 'canceled' | 'skipped' | 'manual';
/** Values accepted by the jobs list `scope` filter (the spec's list plus `manual`, which real servers accept). */
export const JOB_STATUSES: readonly JobStatus[] = [
  'created',
  'pending',
  'running',
  'failed',
  'success',
  'canceled',
  'skipped',
  'manual',
];
const FINISHED_JOB_STATUSES: ReadonlySet<JobStatus> = new Set(['failed', 'success', 'canceled', 'skipped']);
export function isFinishedJobStatus(status: JobStatus): boolean {
  return FINISHED_JOB_STATUSES.has(status);
}

/** GitLab access levels. */
export const ACCESS = { none: 0, guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 } as const;

export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  state: 'active' | 'blocked';
  isAdmin: boolean;
  createdAt: string;
  bio: string | null;
  websiteUrl: string;
  avatarUrl: string | null;
  namespaceId: number;
  currentSignInAt: string | null;
}

export interface Namespace {
  id: number;
  name: string;
  path: string;
  kind: 'user' | 'group';
  /** The user of a user namespace; null for groups. */
  ownerId: number | null;
  /** Group members and their access levels (empty for user namespaces). */
  members: Map<number, number>;
  createdAt: string;
}

export const BOOLEAN_PROJECT_SETTINGS = [
  'issues_enabled',
  'merge_requests_enabled',
  'jobs_enabled',
  'wiki_enabled',
  'snippets_enabled',
  'container_registry_enabled',
  'shared_runners_enabled',
  'public_jobs',
  'only_allow_merge_if_pipeline_succeeds',
  'only_allow_merge_if_all_discussions_are_resolved',
  'lfs_enabled',
  'request_access_enabled',
] as const;
export type ProjectSettingName = (typeof BOOLEAN_PROJECT_SETTINGS)[number];

export function defaultProjectSettings(): Record<ProjectSettingName, boolean> {
  return {
    issues_enabled: true,
    merge_requests_enabled: true,
    jobs_enabled: true,
    wiki_enabled: true,
    snippets_enabled: true,
    container_registry_enabled: true,
    shared_runners_enabled: true,
    public_jobs: true,
    only_allow_merge_if_pipeline_succeeds: false,
    only_allow_merge_if_all_discussions_are_resolved: false,
    lfs_enabled: true,
    request_access_enabled: false,
  };
}

export interface Project {
  id: number;
  name: string;
  path: string;
  namespaceId: number;
  description: string | null;
  defaultBranch: string;
  visibility: Visibility;
  tagList: string[];
  creatorId: number;
  createdAt: string;
  lastActivityAt: string;
  archived: boolean;
  settings: Record<ProjectSettingName, boolean>;
  importUrl: string | null;
  runnersToken: string;
  avatarUrl: string | null;
  starredBy: Set<number>;
  /** Direct members and their access levels. */
  members: Map<number, number>;
  forkedFromId: number | null;
  forksCount: number;
  sharedWithGroups: { groupId: number; groupName: string; groupAccessLevel: number }[];
  branches: Map<string, Branch>;
  /**
   * How merges land (beyond the seed spec): `merge` (the default) or a linear history, which makes a
   * merge request behind its target report `need_rebase`.
   */
  mergeMethod?: 'merge' | 'rebase_merge' | 'ff';
  /** CI/CD variables set in the project's settings (beyond the seed spec, issue 38). */
  ciVariables?: ProjectCiVariable[];
}

export interface ProjectCiVariable {
  key: string;
  value: string;
  masked: boolean;
  /** Masked and hidden (GitLab 17.4+): the API answers `null` for its value. */
  hidden: boolean;
  protected: boolean;
  environmentScope: string;
  description: string | null;
}

export interface Branch {
  name: string;
  commitSha: string;
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
}

export interface FileChange {
  oldPath: string;
  newPath: string;
  aMode: string;
  bMode: string;
  diff: string;
  newFile: boolean;
  renamedFile: boolean;
  deletedFile: boolean;
}

export interface Commit {
  id: string;
  parentIds: string[];
  title: string;
  message: string;
  authorName: string;
  authorEmail: string;
  authoredDate: string;
  committerName: string;
  committerEmail: string;
  committedDate: string;
  /** The change this commit makes; merge requests show the union of their commits' changes. */
  changes: FileChange[];
}

export interface Pipeline {
  id: number;
  iid: number;
  projectId: number;
  ref: string;
  sha: string;
  tag: boolean;
  userId: number | null;
  createdAt: string;
  updatedAt: string;
  jobIds: number[];
  /** What started it (`push` when not given): `web`, `api`, `trigger`, `parent_pipeline`, `pipeline` ... */
  source?: string;
  name?: string | null;
  /** Variables given when it was created (`POST /projects/:id/pipeline`). */
  variables?: PipelineVariable[];
  /** The trigger job that started it (a child or downstream pipeline). */
  parentJobId?: number;
}

export interface PipelineVariable {
  key: string;
  value: string;
  variable_type: 'env_var' | 'file';
}

export interface JobArtifacts {
  filename: string;
  /** null once kept ("keep artifacts"): no longer deleted on expiry. */
  expireAt: string | null;
  /** Byte size of the zip, filled in the first time the zip is built. */
  size?: number;
}

export interface Job {
  id: number;
  projectId: number;
  pipelineId: number;
  name: string;
  stage: string;
  ref: string;
  tag: boolean;
  status: JobStatus;
  allowFailure: boolean;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  erasedAt: string | null;
  userId: number | null;
  commitSha: string;
  artifacts: JobArtifacts | null;
  failureReason: string | null;
  /** Replaced by a newer attempt (run again): real servers leave it out of a pipeline's jobs. */
  retried?: boolean;
  /** Jobs it waits for (`needs:`), by name; undefined: the whole previous stage. */
  needs?: string[];
  /** A `when: manual` job that holds the stages after it (no `allow_failure: true`). */
  blocking?: boolean;
  /** A trigger job (a bridge): not among the jobs, listed by `/bridges`, its status is its pipeline's. */
  bridge?: { downstreamPipelineId: number | null; depend: boolean };
}

export interface Milestone {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: 'active' | 'closed';
  createdAt: string;
  updatedAt: string;
  dueDate: string | null;
}

export interface Label {
  id: number;
  projectId: number;
  name: string;
  color: string;
  description: string | null;
}

export interface Issue {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: 'opened' | 'closed';
  authorId: number;
  assigneeId: number | null;
  labels: string[];
  milestoneId: number | null;
  confidential: boolean;
  createdAt: string;
  updatedAt: string;
  /** `YYYY-MM-DD`. */
  dueDate?: string | null;
  closedAt?: string | null;
  closedById?: number | null;
}

export interface Snippet {
  id: number;
  projectId: number;
  title: string;
  fileName: string;
  authorId: number;
  createdAt: string;
  updatedAt: string;
}

export type MergeRequestState = 'opened' | 'closed' | 'merged' | 'locked';

export interface MergeRequest {
  /** Reopened after being closed: real servers then report the state `reopened` (still open). */
  reopened?: boolean;
  id: number;
  iid: number;
  projectId: number;
  sourceProjectId: number;
  targetProjectId: number;
  title: string;
  description: string;
  sourceBranch: string;
  targetBranch: string;
  state: MergeRequestState;
  authorId: number;
  assigneeId: number | null;
  labels: string[];
  milestoneId: number | null;
  mergeWhenPipelineSucceeds: boolean;
  mergeStatus: 'can_be_merged' | 'cannot_be_merged' | 'unchecked';
  mergeCommitSha: string | null;
  shouldRemoveSourceBranch: boolean | null;
  forceRemoveSourceBranch: boolean;
  subscriberIds: Set<number>;
  createdAt: string;
  updatedAt: string;
  mergedAt: string | null;
  mergedById: number | null;
  closedAt: string | null;
  closedById: number | null;
  /** Source head when last seen; the live branch head wins while the branch exists. */
  headSha: string;
  /** Target head when the request was opened: its commits and changes are those of the source beyond this. */
  baseSha: string;
  /** Who approved (beyond the seed spec; GitLab's approvals API). */
  approvedByIds?: Set<number>;
  /** Approvals needed before it can merge: 0 on Free servers; rules set it on Premium. */
  approvalsRequired?: number;
  /**
   * A rebase started (`PUT .../rebase`): it stays in progress for `readsLeft` reads of the merge
   * request, as GitLab's runs in the background, then lands, or fails with `error`.
   */
  rebase?: { readsLeft: number; error?: string };
  /** Why the last rebase or merge failed (`merge_error`). */
  mergeError?: string | null;
}

export type NoteableType = 'Issue' | 'MergeRequest' | 'Snippet';

export interface Note {
  id: number;
  projectId: number;
  noteableType: NoteableType;
  /** Global id of the issue, merge request or snippet. */
  noteableId: number;
  body: string;
  authorId: number;
  system: boolean;
  createdAt: string;
  updatedAt: string;
  /** Beyond the seed spec: the thread it belongs to (40 hex digits, as GitLab's). */
  discussionId?: string;
  /** A comment on a line of the diff (`DiffNote`). */
  position?: DiffPosition;
  /** Threads on a merge request can be resolved. */
  resolvable?: boolean;
  resolvedById?: number | null;
  /** Which of its ```suggestion blocks were applied (beyond the seed spec). */
  appliedSuggestions?: number[];
}

/** A review comment held until its author publishes the review (GitLab's draft notes API). */
export interface DraftNote {
  id: number;
  mergeRequestId: number;
  authorId: number;
  note: string;
  position?: DiffPosition;
  /** A reply to this thread, once published. */
  discussionId?: string;
}

/** Where a diff comment sits, as GitLab's discussions API takes and returns it. */
export interface DiffPosition {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  old_path: string;
  new_path: string;
  position_type: 'text';
  old_line: number | null;
  new_line: number | null;
  /** A comment on several lines: its first and last (`old_line`/`new_line` name the last). */
  line_range?: { start: LineRangeEnd; end: LineRangeEnd };
}

export interface LineRangeEnd {
  line_code: string;
  type: 'new' | 'old' | null;
  old_line: number | null;
  new_line: number | null;
}

export type AwardableType = NoteableType | 'Note';

export interface AwardEmoji {
  id: number;
  projectId: number;
  name: string;
  userId: number;
  awardableType: AwardableType;
  awardableId: number;
  createdAt: string;
  updatedAt: string;
}

export interface BoardList {
  id: number;
  labelId: number;
  position: number;
}

export interface Board {
  id: number;
  projectId: number;
  name: string;
  lists: BoardList[];
}

export interface Trigger {
  id: number;
  projectId: number;
  description: string;
  token: string;
  ownerId: number | null;
  createdAt: string;
  updatedAt: string;
  lastUsed: string | null;
}

export interface SystemHook {
  id: number;
  url: string;
  /** Kept to validate deliveries; never returned. */
  token: string | null;
  pushEvents: boolean;
  tagPushEvents: boolean;
  enableSslVerification: boolean;
  createdAt: string;
}

export type TodoAction = 'assigned' | 'mentioned' | 'build_failed' | 'marked' | 'approval_required';
export const TODO_ACTIONS: readonly TodoAction[] = [
  'assigned',
  'mentioned',
  'build_failed',
  'marked',
  'approval_required',
];

export interface Todo {
  id: number;
  /** Whose todo list this is on. */
  userId: number;
  projectId: number;
  authorId: number;
  actionName: TodoAction;
  targetType: 'Issue' | 'MergeRequest';
  /** Global id of the issue or merge request. */
  targetId: number;
  body: string;
  state: 'pending' | 'done';
  createdAt: string;
}

export interface BroadcastMessage {
  id: number;
  message: string;
  startsAt: string;
  endsAt: string;
  color: string;
  font: string;
}

export interface SshKey {
  id: number;
  userId: number;
  title: string;
  key: string;
  createdAt: string;
}

export interface PushData {
  before: string;
  after: string;
  ref: string;
  commitShas: string[];
}

export interface ProjectEvent {
  id: number;
  projectId: number;
  actionName: string;
  authorId: number;
  targetType: 'Issue' | 'MergeRequest' | 'Note' | null;
  targetId: number | null;
  targetIid: number | null;
  targetTitle: string | null;
  createdAt: string;
  push: PushData | null;
  noteId: number | null;
}

export interface CiTemplate {
  key: string;
  name: string;
  content: string;
}

interface TraceGrowth {
  writer: TraceWriter;
  plannedChars: number;
  outcome: Extract<TraceOutcome, 'success' | 'failed'>;
}

interface TraceRecord {
  /** undefined until a lazily generated trace is first read. */
  text: string | undefined;
  build?: () => string;
  /** A trace that is not UTF-8 (a tool that printed Latin-1 or binary): served as these bytes. */
  bytes?: Buffer;
  revision: number;
  growth?: TraceGrowth;
  rendered?: { revision: number; body: Buffer; etag: string };
}

export interface RenderedTrace {
  body: Buffer;
  etag: string;
}

/** Ids of notable seeded records, so tests need not search for them. */
export interface SeedFixtures {
  groupNamespaceId: number;
  projects: {
    /** acme/web: public, the richest project. */
    web: number;
    /** acme/api: internal. */
    api: number;
    /** acme/infra: private, alice is a developer. */
    infra: number;
    /** acme/secret: private, alice is not a member. */
    secret: number;
    /** alice/dotfiles: private, owned by alice. */
    dotfiles: number;
    /** root/legacy: public, archived. */
    legacy: number;
    /** bob/sandbox: internal, owned by bob. */
    sandbox: number;
    /** acme/monorepo (large seed only): thousands of jobs. */
    monorepo?: number;
  };
  jobs: {
    running: number;
    manual: number;
    /** The latest successful `build` on master of acme/web, with artifacts. */
    build: number;
    /** An older successful `build` on master with artifacts. */
    olderBuild: number;
    failed: number;
    success: number;
    pending: number;
    created: number;
    canceled: number;
    skipped: number;
    /** Large seed only: a finished job whose trace is about 20 MB. */
    hugeTrace?: number;
  };
  pipelines: { masterSuccess: number; featureRunning: number; masterFailed: number };
  /** iids in acme/web. */
  mergeRequests: { opened: number; merged: number; closed: number; conflict: number; draft: number };
  /** iids in acme/web. */
  issues: { crash: number; darkMode: number; closed: number };
  snippets: { checklist: number };
  boards: { development: number };
}

type IdKind =
  | 'user'
  | 'namespace'
  | 'project'
  | 'pipeline'
  | 'job'
  | 'issue'
  | 'snippet'
  | 'milestone'
  | 'label'
  | 'mergeRequest'
  | 'note'
  | 'draftNote'
  | 'award'
  | 'board'
  | 'boardList'
  | 'trigger'
  | 'hook'
  | 'todo'
  | 'broadcast'
  | 'sshKey'
  | 'event';

export interface StartJobOptions {
  /** Total trace length (characters) at which the job finishes. */
  plannedChars?: number;
  outcome?: 'success' | 'failed';
}

const ARTIFACT_CACHE_SIZE = 8;

export class ForgeState {
  readonly users = new Map<number, User>();
  readonly namespaces = new Map<number, Namespace>();
  readonly projects = new Map<number, Project>();
  readonly commits = new Map<string, Commit>();
  readonly pipelines = new Map<number, Pipeline>();
  readonly jobs = new Map<number, Job>();
  readonly milestones = new Map<number, Milestone>();
  readonly labels = new Map<number, Label>();
  readonly issues = new Map<number, Issue>();
  readonly snippets = new Map<number, Snippet>();
  readonly mergeRequests = new Map<number, MergeRequest>();
  readonly notes = new Map<number, Note>();
  /** Review comments not published yet, each visible to its author only. */
  readonly draftNotes = new Map<number, DraftNote>();
  readonly awardEmoji = new Map<number, AwardEmoji>();
  readonly boards = new Map<number, Board>();
  readonly triggers = new Map<number, Trigger>();
  readonly systemHooks = new Map<number, SystemHook>();
  readonly todos = new Map<number, Todo>();
  readonly broadcastMessages = new Map<number, BroadcastMessage>();
  readonly sshKeys = new Map<number, SshKey>();
  readonly events = new Map<number, ProjectEvent>();
  readonly ciTemplates: CiTemplate[] = [];
  /** Personal access tokens (PRIVATE-TOKEN, private_token, and also accepted as Bearer). */
  readonly personalAccessTokens = new Map<string, number>();
  /** OAuth 2 access tokens (Authorization: Bearer, access_token). */
  readonly oauthTokens = new Map<string, number>();
  fixtures: SeedFixtures | undefined;
  /** Origin used in web_url fields; set once the server listens. */
  webOrigin = 'http://127.0.0.1';

  private readonly counters = new Map<IdKind, number>();
  private readonly traces = new Map<number, TraceRecord>();
  private readonly artifactCache = new Map<number, Uint8Array>();
  private readonly runCounts = new Map<number, number>();
  /** Randomness for things created at run time (tokens, shas, trace growth), still deterministic. */
  readonly random: Prng;

  constructor(seed: string) {
    this.random = Prng.derive(seed, 'runtime');
  }

  now(): string {
    return new Date().toISOString();
  }

  nextId(kind: IdKind): number {
    const next = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, next);
    return next;
  }

  // ---- users and projects ------------------------------------------------------------------------

  findUser(idOrUsername: string | number): User | undefined {
    const text = String(idOrUsername);
    if (/^\d+$/.test(text)) return this.users.get(Number(text));
    const lower = text.toLowerCase();
    for (const user of this.users.values()) if (user.username.toLowerCase() === lower) return user;
    return undefined;
  }

  namespaceOf(project: Project): Namespace {
    const namespace = this.namespaces.get(project.namespaceId);
    if (!namespace) throw new Error(`project ${project.id} has no namespace ${project.namespaceId}`);
    return namespace;
  }

  pathWithNamespace(project: Project): string {
    return `${this.namespaceOf(project).path}/${project.path}`;
  }

  nameWithNamespace(project: Project): string {
    return `${this.namespaceOf(project).name} / ${project.name}`;
  }

  /** By numeric id or by `namespace/project` path (already percent-decoded). */
  findProject(ref: string | number): Project | undefined {
    const text = String(ref);
    if (/^\d+$/.test(text)) return this.projects.get(Number(text));
    const lower = text.toLowerCase();
    for (const project of this.projects.values()) {
      if (this.pathWithNamespace(project).toLowerCase() === lower) return project;
    }
    return undefined;
  }

  findNamespace(ref: string | number): Namespace | undefined {
    const text = String(ref);
    if (/^\d+$/.test(text)) return this.namespaces.get(Number(text));
    const lower = text.toLowerCase();
    for (const namespace of this.namespaces.values())
      if (namespace.path.toLowerCase() === lower) return namespace;
    return undefined;
  }

  accessLevel(project: Project, user: User | undefined): number {
    if (!user) return ACCESS.none;
    let level = project.members.get(user.id) ?? ACCESS.none;
    const namespace = this.namespaceOf(project);
    if (namespace.kind === 'user' && namespace.ownerId === user.id) level = ACCESS.owner;
    if (namespace.kind === 'group') level = Math.max(level, namespace.members.get(user.id) ?? ACCESS.none);
    return level;
  }

  canReadProject(project: Project, user: User | undefined): boolean {
    if (project.visibility === 'public') return true;
    if (!user) return false;
    if (user.isAdmin || project.visibility === 'internal') return true;
    return this.accessLevel(project, user) > ACCESS.none;
  }

  /** Whether the user may create projects in the namespace. */
  canCreateIn(namespace: Namespace, user: User): boolean {
    if (user.isAdmin) return true;
    if (namespace.kind === 'user') return namespace.ownerId === user.id;
    return (namespace.members.get(user.id) ?? ACCESS.none) >= ACCESS.developer;
  }

  // ---- repository --------------------------------------------------------------------------------

  newSha(): string {
    return this.random.hex(40);
  }

  /**
   * Stores a commit one person wrote and committed at `at`, as every commit of the fake forge is;
   * its id is a new one unless given. Returns the id.
   */
  addCommit(commit: {
    id?: string;
    parentIds: string[];
    title: string;
    message: string;
    by: { name: string; email: string };
    at: string;
    changes: FileChange[];
  }): string {
    const id = commit.id ?? this.newSha();
    const { parentIds, title, message, by, at, changes } = commit;
    this.commits.set(id, {
      id,
      parentIds,
      title,
      message,
      authorName: by.name,
      authorEmail: by.email,
      authoredDate: at,
      committerName: by.name,
      committerEmail: by.email,
      committedDate: at,
      changes,
    });
    return id;
  }

  /** The commit and all of its ancestors. */
  ancestry(sha: string): Set<string> {
    const seen = new Set<string>();
    const queue = [sha];
    while (queue.length > 0) {
      const current = queue.pop() as string;
      if (seen.has(current)) continue;
      seen.add(current);
      const commit = this.commits.get(current);
      if (commit) queue.push(...commit.parentIds);
    }
    return seen;
  }

  /**
   * Merged into the default branch, as real servers judge it: the head is an ancestor of the default
   * branch's head but not that head itself (a fresh branch cut from master is not "merged").
   */
  isBranchMerged(project: Project, branch: Branch, defaultAncestry?: ReadonlySet<string>): boolean {
    if (branch.name === project.defaultBranch) return false;
    const target = project.branches.get(project.defaultBranch);
    if (!target || target.commitSha === branch.commitSha) return false;
    return (defaultAncestry ?? this.ancestry(target.commitSha)).has(branch.commitSha);
  }

  /** Commits reachable from `headSha` but not from `baseSha`, newest first. */
  commitsBetween(baseSha: string, headSha: string): Commit[] {
    const excluded = this.ancestry(baseSha);
    const result: Commit[] = [];
    for (const sha of this.ancestry(headSha)) {
      if (excluded.has(sha)) continue;
      const commit = this.commits.get(sha);
      if (commit) result.push(commit);
    }
    return result.sort((a, b) => b.committedDate.localeCompare(a.committedDate) || b.id.localeCompare(a.id));
  }

  // ---- pipelines and jobs ------------------------------------------------------------------------

  /**
   * Runs a finished job again as real servers do: a new job (a new id, pending) in the same
   * pipeline, and the old one marked as retried.
   */
  retryJob(jobId: number, userId: number | null): Job {
    const old = this.jobs.get(jobId);
    if (!old) throw new Error(`no job ${jobId}`);
    const job: Job = {
      ...old,
      id: this.nextId('job'),
      status: 'pending',
      createdAt: this.now(),
      startedAt: null,
      finishedAt: null,
      erasedAt: null,
      userId: userId ?? old.userId,
      artifacts: null,
      failureReason: null,
      retried: false,
    };
    old.retried = true;
    this.jobs.set(job.id, job);
    this.pipelines.get(job.pipelineId)?.jobIds.push(job.id);
    return job;
  }

  /** Removes a job and its trace (its pipeline is deleted). */
  deleteJob(jobId: number): void {
    this.jobs.delete(jobId);
    this.traces.delete(jobId);
  }

  /** The newest pipeline of a commit; as on GitLab, never a child pipeline (a "dangling" source). */
  latestPipeline(sha: string): Pipeline | undefined {
    let latest: Pipeline | undefined;
    for (const pipeline of this.pipelines.values())
      if (
        pipeline.sha === sha &&
        pipeline.source !== 'parent_pipeline' &&
        (latest === undefined || pipeline.id > latest.id)
      )
        latest = pipeline;
    return latest;
  }

  /** A trigger job that waits for its pipeline (`strategy: depend`) has that pipeline's status. */
  jobStatusInPipeline(job: Job): JobStatus {
    const downstream = job.bridge?.depend ? job.bridge.downstreamPipelineId : null;
    const pipeline =
      downstream === null || downstream === undefined ? undefined : this.pipelines.get(downstream);
    return pipeline ? this.pipelineStatus(pipeline) : job.status;
  }

  pipelineStatus(pipeline: Pipeline): JobStatus {
    const statuses: JobStatus[] = [];
    let blocked = false;
    for (const jobId of pipeline.jobIds) {
      const job = this.jobs.get(jobId);
      if (!job || job.retried) continue;
      const status = this.jobStatusInPipeline(job);
      // A manual job waits for a person: only a blocking one holds the pipeline (at `manual`).
      if (status === 'manual') blocked ||= job.blocking === true;
      else statuses.push(job.allowFailure && status === 'failed' ? 'success' : status);
    }
    if (statuses.length === 0) return pipeline.jobIds.length > 0 ? 'manual' : 'created';
    if (
      blocked &&
      statuses.every((status) => status === 'success' || status === 'skipped' || status === 'created')
    )
      return 'manual';
    if (statuses.includes('running')) return 'running';
    if (statuses.includes('pending')) return 'pending';
    if (statuses.every((status) => status === 'created')) return 'created';
    if (statuses.includes('created')) return 'running';
    if (statuses.includes('failed')) return 'failed';
    if (statuses.includes('canceled')) return 'canceled';
    if (statuses.every((status) => status === 'skipped')) return 'skipped';
    return 'success';
  }

  /** Set a job's status with the timestamps that go with it. A job made `running` this way does not grow. */
  setJobStatus(jobId: number, status: JobStatus): Job {
    const job = this.requireJob(jobId);
    const now = this.now();
    job.status = status;
    if (status === 'running') {
      job.startedAt ??= now;
      job.finishedAt = null;
    } else if (isFinishedJobStatus(status)) {
      if (status !== 'skipped') job.startedAt ??= now;
      job.finishedAt = now;
      job.failureReason = status === 'failed' ? 'script_failure' : null;
    } else {
      job.startedAt = null;
      job.finishedAt = null;
    }
    const record = this.traces.get(jobId);
    if (record && status !== 'running') record.growth = undefined;
    this.touchPipeline(job);
    return job;
  }

  /** Make a job run now: a fresh trace that grows on every tick until `plannedChars`, then the job finishes. */
  startRunningJob(jobId: number, options: StartJobOptions = {}): Job {
    const job = this.setJobStatus(jobId, 'running');
    job.startedAt = this.now();
    this.attachGrowingTrace(jobId, options);
    return job;
  }

  /**
   * Give a running job a trace that grows on every tick (see growTraces). The content depends only on the
   * job, how many times it has run and its started_at, so a seeded running job always shows the same trace.
   */
  attachGrowingTrace(jobId: number, options: StartJobOptions & { initialChars?: number } = {}): void {
    const job = this.requireJob(jobId);
    const run = (this.runCounts.get(jobId) ?? 0) + 1;
    this.runCounts.set(jobId, run);
    const project = this.projects.get(job.projectId);
    const startedAt = job.startedAt ?? this.now();
    const writer = new TraceWriter(Prng.derive('trace-growth', `${jobId}/${run}`), {
      jobName: job.name,
      stage: job.stage,
      projectPath: project ? this.pathWithNamespace(project) : 'unknown/unknown',
      projectId: job.projectId,
      ref: job.ref,
      sha: job.commitSha,
      startEpoch: Math.floor(Date.parse(startedAt) / 1000),
    });
    this.traces.set(jobId, {
      text: writer.header() + writer.produce(options.initialChars ?? 0),
      revision: 1,
      growth: {
        writer,
        plannedChars: options.plannedChars ?? 150 * 1024,
        outcome: options.outcome ?? 'success',
      },
    });
  }

  /** Append text to a job's trace (creating it), as a runner would. */
  appendTrace(jobId: number, text: string): void {
    this.requireJob(jobId);
    const record = this.traces.get(jobId) ?? { text: '', revision: 0 };
    record.text = this.materialize(record) + text;
    if (record.bytes) record.bytes = Buffer.concat([record.bytes, Buffer.from(text, 'utf8')]);
    record.revision += 1;
    this.traces.set(jobId, record);
  }

  /** Give a job a trace built on first read (for large or numerous seeded traces). */
  setLazyTrace(jobId: number, build: () => string): void {
    this.traces.set(jobId, { text: undefined, build, revision: 1 });
  }

  /**
   * Gives a job a trace of exactly these bytes. Real servers store and serve what the runner sent,
   * valid UTF-8 or not (a tool printing Latin-1, a `cat` of a binary file), still labelled utf-8.
   */
  setTraceBytes(jobId: number, bytes: Buffer): void {
    this.traces.set(jobId, { text: bytes.toString('latin1'), bytes, revision: 1 });
  }

  removeTrace(jobId: number): void {
    this.traces.delete(jobId);
  }

  traceText(jobId: number): string | undefined {
    const record = this.traces.get(jobId);
    return record ? this.materialize(record) : undefined;
  }

  /** The trace bytes and a strong ETag (content hash), cached until the trace changes. */
  renderTrace(jobId: number): RenderedTrace | undefined {
    const record = this.traces.get(jobId);
    if (!record) return undefined;
    if (record.rendered?.revision !== record.revision) {
      const body = record.bytes ?? Buffer.from(this.materialize(record), 'utf8');
      const etag = `"${createHash('md5').update(body).digest('hex')}"`;
      record.rendered = { revision: record.revision, body, etag };
    }
    return { body: record.rendered.body, etag: record.rendered.etag };
  }

  /** Advance every growing trace by one step; a trace that reaches its planned length finishes its job. */
  growTraces(stepChars: () => number): void {
    for (const [jobId, record] of this.traces) {
      const growth = record.growth;
      if (!growth) continue;
      const job = this.jobs.get(jobId);
      if (!job || job.status !== 'running') {
        record.growth = undefined;
        continue;
      }
      const remaining = growth.plannedChars - this.materialize(record).length;
      const step = stepChars();
      if (remaining > step) {
        this.appendTrace(jobId, growth.writer.produce(step));
      } else {
        this.appendTrace(
          jobId,
          growth.writer.produce(Math.max(0, remaining)) + growth.writer.finish(growth.outcome),
        );
        record.growth = undefined;
        this.setJobStatus(jobId, growth.outcome);
      }
    }
  }

  /** Simulated runners: pick up every pending job and run it with a growing trace. */
  startPendingJobs(): void {
    for (const job of this.jobs.values()) {
      if (job.status !== 'pending') continue;
      this.startRunningJob(job.id, {
        plannedChars: this.random.int(20, 60) * 1024,
        outcome: this.random.chance(0.8) ? 'success' : 'failed',
      });
    }
  }

  /** The job's artifacts archive (built on demand, a few kept in memory). */
  artifactsArchive(job: Job): Uint8Array | undefined {
    if (!job.artifacts) return undefined;
    let zip = this.artifactCache.get(job.id);
    if (!zip) {
      const project = this.projects.get(job.projectId);
      zip = buildArtifactsZip({
        jobId: job.id,
        jobName: job.name,
        projectPath: project ? this.pathWithNamespace(project) : 'unknown/unknown',
        ref: job.ref,
        sha: job.commitSha,
      });
      job.artifacts.size = zip.length;
      this.artifactCache.set(job.id, zip);
      const oldest = this.artifactCache.keys().next();
      if (this.artifactCache.size > ARTIFACT_CACHE_SIZE && !oldest.done)
        this.artifactCache.delete(oldest.value);
    }
    return zip;
  }

  artifactsSize(job: Job): number | undefined {
    if (!job.artifacts) return undefined;
    if (job.artifacts.size === undefined) this.artifactsArchive(job);
    return job.artifacts.size;
  }

  removeArtifacts(job: Job): void {
    job.artifacts = null;
    this.artifactCache.delete(job.id);
  }

  // ---- lookups by internal id --------------------------------------------------------------------

  findMergeRequest(projectId: number, iid: number): MergeRequest | undefined {
    for (const mergeRequest of this.mergeRequests.values()) {
      if (mergeRequest.projectId === projectId && mergeRequest.iid === iid) return mergeRequest;
    }
    return undefined;
  }

  findIssue(projectId: number, iid: number): Issue | undefined {
    for (const issue of this.issues.values())
      if (issue.projectId === projectId && issue.iid === iid) return issue;
    return undefined;
  }

  nextIid(projectId: number, records: Iterable<{ projectId: number; iid: number }>): number {
    let max = 0;
    for (const record of records) if (record.projectId === projectId) max = Math.max(max, record.iid);
    return max + 1;
  }

  mergeRequestHeadSha(mergeRequest: MergeRequest): string {
    const source = this.projects.get(mergeRequest.sourceProjectId);
    return source?.branches.get(mergeRequest.sourceBranch)?.commitSha ?? mergeRequest.headSha;
  }

  // ---- events and todos --------------------------------------------------------------------------

  addEvent(
    event: Omit<ProjectEvent, 'id' | 'createdAt' | 'push' | 'noteId' | 'targetIid'> & Partial<ProjectEvent>,
  ): ProjectEvent {
    const record: ProjectEvent = {
      id: this.nextId('event'),
      createdAt: this.now(),
      push: null,
      noteId: null,
      targetIid: null,
      ...event,
    };
    this.events.set(record.id, record);
    const project = this.projects.get(record.projectId);
    if (project) project.lastActivityAt = record.createdAt;
    return record;
  }

  /** A new todo on a user's list: pending and created now unless given. */
  addTodo(
    fields: Omit<Todo, 'id' | 'state' | 'createdAt'> & Partial<Pick<Todo, 'state' | 'createdAt'>>,
  ): Todo {
    const todo: Todo = { state: 'pending', createdAt: this.now(), ...fields, id: this.nextId('todo') };
    this.todos.set(todo.id, todo);
    return todo;
  }

  /** Add many pending todos for a user cheaply (for pagination tests). */
  bulkAddTodos(userId: number, count: number): void {
    const targets = [...this.mergeRequests.values()];
    const author = [...this.users.values()].find((user) => user.id !== userId) ?? this.requireUser(userId);
    const baseTime = Date.parse('2024-02-01T00:00:00Z');
    for (let i = 0; i < count; i++) {
      const target = targets[i % Math.max(1, targets.length)];
      if (!target) break;
      this.addTodo({
        userId,
        projectId: target.projectId,
        authorId: author.id,
        actionName: TODO_ACTIONS[i % TODO_ACTIONS.length] ?? 'mentioned',
        targetType: 'MergeRequest',
        targetId: target.id,
        body: target.title,
        state: 'pending',
        createdAt: new Date(baseTime + i * 60_000).toISOString(),
      });
    }
  }

  // ---- removal -----------------------------------------------------------------------------------

  /** Remove a project and everything that belongs to it. */
  deleteProject(projectId: number): void {
    this.projects.delete(projectId);
    const belongs = (record: { projectId: number }): boolean => record.projectId === projectId;
    for (const job of this.jobs.values()) {
      if (belongs(job)) {
        this.jobs.delete(job.id);
        this.traces.delete(job.id);
        this.artifactCache.delete(job.id);
      }
    }
    const tables: Map<number, { projectId: number }>[] = [
      this.pipelines,
      this.milestones,
      this.labels,
      this.issues,
      this.snippets,
      this.mergeRequests,
      this.notes,
      this.awardEmoji,
      this.boards,
      this.triggers,
      this.todos,
      this.events,
    ];
    for (const table of tables) for (const [id, record] of table) if (belongs(record)) table.delete(id);
  }

  /** Remove a note, an issue, a merge request or a snippet's award emoji and notes along with it. */
  deleteAwardable(type: AwardableType, id: number): void {
    for (const award of this.awardEmoji.values()) {
      if (award.awardableType === type && award.awardableId === id) this.awardEmoji.delete(award.id);
    }
    if (type === 'Note') return;
    for (const note of this.notes.values()) {
      if (note.noteableType === type && note.noteableId === id) {
        this.notes.delete(note.id);
        this.deleteAwardable('Note', note.id);
      }
    }
  }

  // ---- internals ---------------------------------------------------------------------------------

  private materialize(record: TraceRecord): string {
    if (record.text === undefined) {
      record.text = record.build ? record.build() : '';
      record.build = undefined;
    }
    return record.text;
  }

  private touchPipeline(job: Job): void {
    const pipeline = this.pipelines.get(job.pipelineId);
    if (pipeline) pipeline.updatedAt = this.now();
  }

  private requireJob(jobId: number): Job {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    return job;
  }

  private requireUser(userId: number): User {
    const user = this.users.get(userId);
    if (!user) throw new Error(`no user ${userId}`);
    return user;
  }
}
