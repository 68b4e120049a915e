import type { CallOptions, NewPipelineVariable, PipelineFilter, ProjectRef } from './hostingTypes';
import { projectParam } from './hostingCore';
import { ReviewEndpoints } from './reviewEndpoints';
import {
  BridgeSchema,
  CiLintSchema,
  ProjectVariableSchema,
  PipelineDetailsSchema,
  PipelineVariableSchema,
  TestReportSummarySchema,
} from './schemas';

/**
 * Pipelines as a whole, beyond the seed spec (`beyondSpecEndpoints.ts`, GitLab 8.11 and later):
 * list and read them, run one with variables, retry its failed jobs, cancel it, delete it, its trigger
 * jobs and the pipelines they started. Writes are never repeated (the transport's rule); a server
 * without an endpoint answers 404 (`NotFoundError`) and callers say what is unavailable.
 */
export class PipelineEndpoints extends ReviewEndpoints {
  /** The project's pipelines, newest first unless `sort` says otherwise; child pipelines only by `source`. */
  listPipelines(project: ProjectRef, filter: PipelineFilter = {}) {
    const query = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
    return this.list('pipelines.list', { id: projectParam(project) }, PipelineDetailsSchema, query);
  }

  getPipeline(project: ProjectRef, pipelineId: number, options?: CallOptions) {
    return this.call(
      'pipelines.get',
      this.pipelineParams(project, pipelineId),
      PipelineDetailsSchema,
      options,
    );
  }

  /**
   * The pipeline again, with the ETag of the last answer: an unchanged pipeline costs a 304 (GitLab
   * sends ETags on its reads) and gives `{unchanged: true}`.
   */
  getPipelineIfChanged(
    project: ProjectRef,
    pipelineId: number,
    etag: string | undefined,
    options?: CallOptions,
  ) {
    return this.callIfChanged(
      'pipelines.get',
      this.pipelineParams(project, pipelineId),
      PipelineDetailsSchema,
      {
        etag,
        signal: options?.signal,
      },
    );
  }

  /** The newest pipeline of the ref's head commit (the default branch without `ref`). */
  getLatestPipeline(project: ProjectRef, ref?: string, options?: CallOptions) {
    return this.call('pipelines.latest', { id: projectParam(project) }, PipelineDetailsSchema, {
      query: ref === undefined ? undefined : { ref },
      signal: options?.signal,
    });
  }

  listPipelineVariables(project: ProjectRef, pipelineId: number) {
    return this.list('pipelines.variables', this.pipelineParams(project, pipelineId), PipelineVariableSchema);
  }

  /** Runs a pipeline on a branch or tag with the given variables (400 with the reason when it cannot). */
  createPipeline(
    project: ProjectRef,
    ref: string,
    variables: readonly NewPipelineVariable[] = [],
    options?: CallOptions,
  ) {
    return this.call('pipelines.create', { id: projectParam(project) }, PipelineDetailsSchema, {
      body: variables.length === 0 ? { ref } : { ref, variables },
      signal: options?.signal,
    });
  }

  /** Runs the pipeline's failed and canceled jobs again. */
  retryPipeline(project: ProjectRef, pipelineId: number, options?: CallOptions) {
    return this.call(
      'pipelines.retry',
      this.pipelineParams(project, pipelineId),
      PipelineDetailsSchema,
      options,
    );
  }

  /** Cancels what has not finished (GitLab answers 200 whatever the state). */
  cancelPipeline(project: ProjectRef, pipelineId: number, options?: CallOptions) {
    return this.call(
      'pipelines.cancel',
      this.pipelineParams(project, pipelineId),
      PipelineDetailsSchema,
      options,
    );
  }

  /** Deletes the pipeline, its jobs, traces and artifacts (Owner only; cannot be undone). */
  deletePipeline(project: ProjectRef, pipelineId: number, options?: CallOptions) {
    return this.callNoContent('pipelines.delete', this.pipelineParams(project, pipelineId), options);
  }

  /** The pipeline's trigger jobs, each with the pipeline it started. */
  listPipelineBridges(project: ProjectRef, pipelineId: number) {
    return this.list('pipelines.bridges', this.pipelineParams(project, pipelineId), BridgeSchema);
  }

  getTestReportSummary(project: ProjectRef, pipelineId: number, options?: CallOptions) {
    return this.call(
      'pipelines.testReportSummary',
      this.pipelineParams(project, pipelineId),
      TestReportSummarySchema,
      options,
    );
  }

  /**
   * GitLab's check of a CI file's content in the project (its variables, its local includes); with
   * `dryRun`, a pipeline's creation on `ref` is simulated too. A POST that changes nothing.
   */
  lintCiConfig(
    project: ProjectRef,
    content: string,
    options: { dryRun?: boolean; ref?: string; includeJobs?: boolean; signal?: AbortSignal } = {},
  ) {
    return this.call('ciConfig.lint', { id: projectParam(project) }, CiLintSchema, {
      body: {
        content,
        ...(options.dryRun === undefined ? {} : { dry_run: options.dryRun }),
        ...(options.ref === undefined ? {} : { ref: options.ref }),
        ...(options.includeJobs === undefined ? {} : { include_jobs: options.includeJobs }),
      },
      signal: options.signal,
    });
  }

  /** GitLab's check of the committed CI file (the default branch's, or `ref`'s). */
  lintCommittedCiConfig(project: ProjectRef, options: { ref?: string; signal?: AbortSignal } = {}) {
    return this.call('ciConfig.lintCommitted', { id: projectParam(project) }, CiLintSchema, {
      query: options.ref === undefined ? {} : { content_ref: options.ref, ref: options.ref },
      signal: options.signal,
    });
  }

  /** The project's CI/CD variables (Maintainer and up: a 403 below). */
  listProjectVariables(project: ProjectRef) {
    return this.list('ciConfig.projectVariables', { id: projectParam(project) }, ProjectVariableSchema);
  }

  private pipelineParams(project: ProjectRef, pipelineId: number) {
    return { id: projectParam(project), pipeline_id: pipelineId };
  }
}
