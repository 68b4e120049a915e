import { type DownloadOptions, headerValue } from '../http';
import { ENDPOINTS, fillPath } from './endpoints';
import { BranchSchema, JobSchema, ProjectEventSchema, ProjectMemberSchema, ProjectSchema } from './schemas';
import {
  type ProjectRef,
  type CallOptions,
  type TraceResult,
  type JobScope,
  type ProjectListFilter,
  type CreateProjectInput,
  type CreateProjectForUserInput,
  type EditProjectInput,
} from './hostingTypes';
import { HostingCore, projectParam } from './hostingCore';

/** Jobs (with their traces and artifacts), projects and branches. */
export class ProjectEndpoints extends HostingCore {
  // ---- jobs -----------------------------------------------------------------------------------

  listJobs(project: ProjectRef, scope?: readonly JobScope[]) {
    return this.list('jobs.list', { id: projectParam(project) }, JobSchema, { scope });
  }

  /** A pipeline's jobs; `includeRetried`: the attempts run again too (GitLab 13.9+, ignored before). */
  listPipelineJobs(
    project: ProjectRef,
    pipelineId: number,
    scope?: readonly JobScope[],
    options: { includeRetried?: boolean } = {},
  ) {
    return this.list(
      'jobs.listForPipeline',
      { id: projectParam(project), pipeline_id: pipelineId },
      JobSchema,
      { scope, ...(options.includeRetried ? { include_retried: true } : {}) },
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
      /**
       * Each piece of the body as it arrives, with where it starts (again from 0 after a retry); a
       * promise returned pauses the read until it settles.
       */
      onBytes?: (bytes: Uint8Array, offset: number) => void | Promise<void>;
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
}
