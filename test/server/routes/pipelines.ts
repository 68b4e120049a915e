import { createHash } from 'node:crypto';
import { scalar } from '../ciConfig';
import { etagMatches, jobsProject } from './jobs';
import type { Handler, RequestContext } from '../context';
import { created, errors, noContent, ok, type ApiResponse, type ParamValue } from '../http';
import { cancelPipeline, createPipeline, deletePipeline, pipelineTimes, retryPipeline } from '../pipelines';
import type { Router } from '../router';
import { JOB_STATUSES, type Job, type Pipeline, type PipelineVariable, type Project } from '../state';

type Json = Record<string, unknown>;
const PUBLIC = { public: true };
const SCOPES = ['running', 'pending', 'finished', 'branches', 'tags'];
const ORDER_BY = ['id', 'status', 'ref', 'updated_at', 'user_id'];

/** Beyond the seed spec: GitLab's pipelines API (doc/api/pipelines.md, jobs.md for bridges). */
export function registerPipelineRoutes(router: Router<Handler>): void {
  router.get('/projects/:id/pipelines', listPipelines, PUBLIC);
  router.get('/projects/:id/pipelines/latest', latestPipeline, PUBLIC);
  router.get('/projects/:id/pipelines/:pipeline_id', getPipeline, PUBLIC);
  router.get('/projects/:id/pipelines/:pipeline_id/variables', pipelineVariables);
  router.get('/projects/:id/pipelines/:pipeline_id/bridges', listBridges, PUBLIC);
  router.get('/projects/:id/pipelines/:pipeline_id/test_report_summary', testReportSummary, PUBLIC);
  router.post('/projects/:id/pipeline', newPipeline);
  router.post('/projects/:id/pipelines/:pipeline_id/retry', retry);
  router.post('/projects/:id/pipelines/:pipeline_id/cancel', cancel);
  router.delete('/projects/:id/pipelines/:pipeline_id', remove);
}

function findPipeline(ctx: RequestContext, project: Project): Pipeline {
  const pipeline = ctx.state.pipelines.get(ctx.pathInt('pipeline_id'));
  if (!pipeline || pipeline.projectId !== project.id) throw errors.notFound('Pipeline');
  return pipeline;
}

const DETAILED_STATUS: Record<string, [text: string, group?: string]> = {
  success: ['passed'],
  manual: ['blocked'],
  created: ['created'],
};

/** What the list gives (GitLab's PipelineBasic). */
export function pipelineBasic(ctx: RequestContext, pipeline: Pipeline): Json {
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    project_id: pipeline.projectId,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: ctx.state.pipelineStatus(pipeline),
    source: pipeline.source ?? 'push',
    created_at: pipeline.createdAt,
    updated_at: pipeline.updatedAt,
    web_url: ctx.present.pipelineWebUrl(pipeline),
    name: pipeline.name ?? null,
  };
}

/** One pipeline (GitLab's Pipeline entity): who, when, how long, its detailed status. */
function pipelineDetailed(ctx: RequestContext, pipeline: Pipeline): Json {
  const status = ctx.state.pipelineStatus(pipeline);
  const [text, group] = DETAILED_STATUS[status] ?? [status];
  const times = pipelineTimes(ctx.state, pipeline);
  const path = new URL(ctx.present.pipelineWebUrl(pipeline)).pathname;
  return {
    ...pipelineBasic(ctx, pipeline),
    before_sha: '0000000000000000000000000000000000000000',
    tag: pipeline.tag,
    yaml_errors: null,
    user: ctx.present.userById(pipeline.userId),
    started_at: times.startedAt,
    finished_at: times.finishedAt,
    committed_at: null,
    duration: times.duration,
    queued_duration: times.startedAt === null ? null : 0.5,
    coverage: null,
    detailed_status: {
      icon: `status_${status}`,
      text,
      label: text,
      group: group ?? status,
      tooltip: text,
      has_details: true,
      details_path: path,
      illustration: null,
      favicon: `/assets/ci_favicons/favicon_status_${status}.png`,
    },
  };
}

function matchesFilters(ctx: RequestContext, pipeline: Pipeline): boolean {
  const { params } = ctx;
  const status = ctx.state.pipelineStatus(pipeline);
  const scope = params.string('scope');
  if (scope === 'running' || scope === 'pending') return status === scope;
  if (scope === 'finished' && !['success', 'failed', 'canceled', 'skipped'].includes(status)) return false;
  if (scope === 'tags' && !pipeline.tag) return false;
  if (scope === 'branches' && pipeline.tag) return false;
  const source = params.string('source');
  // Child pipelines only when asked for by their source (GitLab 17.0).
  if ((pipeline.source ?? 'push') !== (source ?? pipeline.source ?? 'push')) return false;
  if (source === undefined && pipeline.source === 'parent_pipeline') return false;
  const wanted: [string, string | undefined][] = [
    ['status', status],
    ['ref', pipeline.ref],
    ['sha', pipeline.sha],
    ['name', pipeline.name ?? undefined],
    ['username', ctx.state.users.get(pipeline.userId ?? -1)?.username],
  ];
  if (wanted.some(([name, value]) => params.has(name) && params.string(name) !== value)) return false;
  const after = params.dateTime('updated_after');
  const before = params.dateTime('updated_before');
  return (!after || pipeline.updatedAt > after) && (!before || pipeline.updatedAt < before);
}

function validateListParams(ctx: RequestContext): void {
  const checks: [string, readonly string[]][] = [
    ['scope', SCOPES],
    ['status', JOB_STATUSES],
    ['order_by', ORDER_BY],
    ['sort', ['asc', 'desc']],
  ];
  for (const [name, allowed] of checks) {
    const value = ctx.params.string(name);
    if (value !== undefined && !allowed.includes(value))
      throw errors.badParameter(`${name} does not have a valid value`);
  }
}

function listPipelines(ctx: RequestContext): ApiResponse {
  const project = jobsProject(ctx);
  validateListParams(ctx);
  const orderBy = ctx.params.string('order_by') ?? 'id';
  const key = (pipeline: Pipeline): string | number =>
    orderBy === 'status'
      ? ctx.state.pipelineStatus(pipeline)
      : orderBy === 'ref'
        ? pipeline.ref
        : orderBy === 'updated_at'
          ? pipeline.updatedAt
          : orderBy === 'user_id'
            ? (pipeline.userId ?? 0)
            : pipeline.id;
  const direction = ctx.params.string('sort') === 'asc' ? 1 : -1;
  const pipelines = [...ctx.state.pipelines.values()]
    .filter((pipeline) => pipeline.projectId === project.id && matchesFilters(ctx, pipeline))
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return (x < y ? -1 : x > y ? 1 : a.id - b.id) * direction;
    });
  return ctx.list(pipelines, (pipeline) => pipelineBasic(ctx, pipeline));
}

/**
 * As GitLab (Rack::ETag): a weak ETag of the body, and 304 without one when `If-None-Match` names it,
 * so that a client watching a pipeline pays little while it does not change.
 */
function getPipeline(ctx: RequestContext): ApiResponse {
  const json = pipelineDetailed(ctx, findPipeline(ctx, jobsProject(ctx)));
  const etag = `W/"${createHash('md5').update(JSON.stringify(json)).digest('hex')}"`;
  const header = ctx.headers['if-none-match'];
  if (etagMatches(typeof header === 'string' ? header : undefined, etag.slice(2)))
    return { status: 304, headers: { etag } };
  return { status: 200, json, headers: { etag } };
}

/** The newest pipeline of the ref's head commit; 403 when it has none (as documented). */
function latestPipeline(ctx: RequestContext): ApiResponse {
  const project = jobsProject(ctx);
  const ref = ctx.params.string('ref') ?? project.defaultBranch;
  const sha = project.branches.get(ref)?.commitSha;
  const latest = sha === undefined ? undefined : ctx.state.latestPipeline(sha);
  if (!latest || latest.projectId !== project.id) throw errors.forbidden();
  return ok(pipelineDetailed(ctx, latest));
}

function pipelineVariables(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireWrite(project);
  const pipeline = findPipeline(ctx, project);
  return ctx.list(pipeline.variables ?? [], (variable) => variable);
}

function bridgeJson(ctx: RequestContext, pipeline: Pipeline, job: Job): Json {
  const downstreamId = job.bridge?.downstreamPipelineId;
  const downstream =
    downstreamId === null || downstreamId === undefined ? undefined : ctx.state.pipelines.get(downstreamId);
  const plain = ctx.present.job(job, 'full');
  return {
    ...plain,
    status: ctx.state.jobStatusInPipeline(job),
    pipeline: pipelineBasic(ctx, pipeline),
    downstream_pipeline: downstream ? pipelineBasic(ctx, downstream) : null,
  };
}

function listBridges(ctx: RequestContext): ApiResponse {
  const project = jobsProject(ctx);
  const pipeline = findPipeline(ctx, project);
  const bridges = pipeline.jobIds.flatMap((id) => {
    const job = ctx.state.jobs.get(id);
    return job?.bridge && !job.retried ? [job] : [];
  });
  return ctx.list(bridges, (job) => bridgeJson(ctx, pipeline, job));
}

/** No pipeline of the fake forge uploads test reports: GitLab's answer for a pipeline without any. */
function testReportSummary(ctx: RequestContext): ApiResponse {
  findPipeline(ctx, jobsProject(ctx));
  return ok({
    total: { time: 0, count: 0, success: 0, failed: 0, skipped: 0, error: 0, suite_error: null },
    test_suites: [],
  });
}

/** `variables` as an array of `{key, value, variable_type}` (JSON body or form hashes). */
function variablesParam(value: ParamValue | undefined): PipelineVariable[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw errors.badParameter('variables is invalid');
  return value.map((entry) => {
    if (
      typeof entry !== 'object' ||
      entry === null ||
      Array.isArray(entry) ||
      typeof entry['key'] !== 'string'
    )
      throw errors.badParameter('variables is invalid');
    const type = entry['variable_type'] ?? 'env_var';
    if (type !== 'env_var' && type !== 'file')
      throw errors.badParameter('variables[variable_type] does not have a valid value');
    return { key: entry['key'], value: scalar(entry['value']), variable_type: type };
  });
}

function newPipeline(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const user = ctx.requireWrite(project);
  ctx.params.require('ref');
  const pipeline = createPipeline(ctx.state, {
    project,
    ref: ctx.params.string('ref') as string,
    source: 'api',
    user,
    variables: variablesParam(ctx.params.raw('variables')),
  });
  return created(pipelineDetailed(ctx, pipeline));
}

function retry(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  const user = ctx.requireWrite(project);
  const pipeline = findPipeline(ctx, project);
  retryPipeline(ctx.state, pipeline, user);
  return created(pipelineDetailed(ctx, pipeline));
}

function cancel(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireWrite(project);
  const pipeline = findPipeline(ctx, project);
  cancelPipeline(ctx.state, pipeline);
  return ok(pipelineDetailed(ctx, pipeline));
}

/** Only an owner may delete a pipeline. */
function remove(ctx: RequestContext): ApiResponse {
  const project = ctx.project();
  ctx.requireOwner(project);
  const pipeline = findPipeline(ctx, project);
  deletePipeline(ctx.state, pipeline);
  return noContent();
}
