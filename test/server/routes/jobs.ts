import type { Handler, RequestContext } from '../context';
import { errors, ok, type ApiResponse } from '../http';
import type { Router } from '../router';
import { ACCESS, JOB_STATUSES, isFinishedJobStatus, type Job, type Project } from '../state';

const PUBLIC = { public: true };

export function registerJobRoutes(router: Router<Handler>): void {
  router.get('/projects/:id/jobs', listProjectJobs, PUBLIC);
  // Real servers spell it `pipelines`; the spec's table says `pipeline`: accept both.
  router.get('/projects/:id/pipelines/:pipeline_id/jobs', listPipelineJobs, PUBLIC);
  router.get('/projects/:id/pipeline/:pipeline_id/jobs', listPipelineJobs, PUBLIC);
  router.get('/projects/:id/jobs/:job_id', getJob, PUBLIC);
  router.get('/projects/:id/jobs/:job_id/artifacts', downloadArtifacts, PUBLIC);
  router.get('/projects/:id/jobs/artifacts/*ref_name/download', downloadArtifactsByRef, PUBLIC);
  router.get('/projects/:id/jobs/:job_id/trace', getTrace, PUBLIC);
  router.post('/projects/:id/jobs/:job_id/cancel', cancelJob);
  router.post('/projects/:id/jobs/:job_id/retry', retryJob);
  router.post('/projects/:id/jobs/:job_id/erase', eraseJob);
  router.post('/projects/:id/jobs/:job_id/artifacts/keep', keepArtifacts);
  router.post('/projects/:id/jobs/:job_id/play', playJob);
}

/** The project, if the caller may see its jobs and pipelines (public_jobs, or a member). */
export function jobsProject(ctx: RequestContext): Project {
  const project = ctx.project();
  const member = ctx.accessLevel(project) >= ACCESS.reporter;
  if (!project.settings.jobs_enabled || (!project.settings.public_jobs && !member)) throw errors.forbidden();
  return project;
}

function findJob(ctx: RequestContext, project: Project): Job {
  const job = ctx.state.jobs.get(ctx.pathInt('job_id'));
  if (!job || job.projectId !== project.id) throw errors.notFound('Job');
  return job;
}

function filterByScope(ctx: RequestContext, jobs: Job[]): Job[] {
  const scope = ctx.params.stringArray('scope');
  if (!scope) return jobs;
  for (const value of scope) {
    if (!(JOB_STATUSES as readonly string[]).includes(value))
      throw errors.badParameter('scope does not have a valid value');
  }
  return jobs.filter((job) => scope.includes(job.status));
}

/** Newest first. */
function byIdDescending(a: Job, b: Job): number {
  return b.id - a.id;
}

function listProjectJobs(ctx: RequestContext): ApiResponse {
  const project = jobsProject(ctx);
  // Trigger jobs (bridges) are not jobs here, as on GitLab: `/pipelines/:id/bridges` lists them.
  const jobs = [...ctx.state.jobs.values()].filter((job) => job.projectId === project.id && !job.bridge);
  return ctx.list(filterByScope(ctx, jobs).sort(byIdDescending), (job) => ctx.present.job(job, 'full'));
}

function listPipelineJobs(ctx: RequestContext): ApiResponse {
  const project = jobsProject(ctx);
  const pipeline = ctx.state.pipelines.get(ctx.pathInt('pipeline_id'));
  if (!pipeline || pipeline.projectId !== project.id) throw errors.notFound('Pipeline');
  // Attempts that were run again only with include_retried, as on real servers.
  const includeRetried = ctx.params.string('include_retried') === 'true';
  const jobs = pipeline.jobIds.flatMap((id) => {
    const job = ctx.state.jobs.get(id);
    return job && !job.bridge && (includeRetried || !job.retried) ? [job] : [];
  });
  return ctx.list(filterByScope(ctx, jobs).sort(byIdDescending), (job) => ctx.present.job(job, 'full'));
}

function getJob(ctx: RequestContext): ApiResponse {
  const project = jobsProject(ctx);
  return ok(ctx.present.job(findJob(ctx, project), 'full'));
}

function artifactsResponse(ctx: RequestContext, job: Job): ApiResponse {
  const zip = ctx.state.artifactsArchive(job);
  if (!zip) throw errors.notFound('Artifacts');
  return {
    status: 200,
    body: zip,
    contentType: 'application/zip',
    headers: {
      'Content-Disposition': `attachment; filename="${job.artifacts?.filename ?? 'artifacts.zip'}"`,
    },
  };
}

function downloadArtifacts(ctx: RequestContext): ApiResponse {
  const project = jobsProject(ctx);
  return artifactsResponse(ctx, findJob(ctx, project));
}

/** Artifacts of the latest successful job of that name on that ref. */
function downloadArtifactsByRef(ctx: RequestContext): ApiResponse {
  const project = jobsProject(ctx);
  ctx.params.require('job');
  const name = ctx.params.string('job');
  const ref = ctx.pathString('ref_name');
  let latest: Job | undefined;
  for (const job of ctx.state.jobs.values()) {
    if (job.projectId !== project.id || job.ref !== ref || job.name !== name || job.status !== 'success')
      continue;
    if (!latest || job.id > latest.id) latest = job;
  }
  if (!latest) throw errors.notFound();
  return artifactsResponse(ctx, latest);
}

function getTrace(ctx: RequestContext): ApiResponse {
  const project = jobsProject(ctx);
  const job = findJob(ctx, project);
  const trace = ctx.state.renderTrace(job.id);
  if (!trace) throw errors.notFound('Trace');
  const headers = { ETag: trace.etag, 'Cache-Control': 'max-age=0, private, must-revalidate' };
  if (etagMatches(ctx.headers['if-none-match'], trace.etag)) return { status: 304, headers };
  return { status: 200, body: trace.body, contentType: 'text/plain; charset=utf-8', headers };
}

export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((candidate) => candidate.trim())
    .some((candidate) => candidate === '*' || candidate === etag || candidate === `W/${etag}`);
}

function actionTarget(ctx: RequestContext): Job {
  const project = jobsProject(ctx);
  ctx.requireWrite(project);
  return findJob(ctx, project);
}

/** Unfinished jobs become canceled; a job that already finished comes back unchanged, as on real servers. */
function cancelJob(ctx: RequestContext): ApiResponse {
  const job = actionTarget(ctx);
  if (!isFinishedJobStatus(job.status)) ctx.state.setJobStatus(job.id, 'canceled');
  return ok(ctx.present.job(job, 'action'));
}

/**
 * Retry runs the job again in place (same id): pending, started_at and finished_at null, old trace and
 * artifacts gone. Real servers create a new job instead; like them, only finished jobs can be retried.
 */
/** Like real servers: a new job runs (a new id), and the old one keeps its trace and artifacts. */
function retryJob(ctx: RequestContext): ApiResponse {
  const job = actionTarget(ctx);
  if (!isFinishedJobStatus(job.status)) throw errors.forbidden('Job is not retryable');
  const again = ctx.state.retryJob(job.id, ctx.caller?.id ?? null);
  return ok(ctx.present.job(again, 'action'));
}

/** Only finished jobs can be erased (real servers: 403 "Job is not erasable!"). */
function eraseJob(ctx: RequestContext): ApiResponse {
  const job = actionTarget(ctx);
  if (!isFinishedJobStatus(job.status)) throw errors.forbidden('Job is not erasable!');
  ctx.state.removeTrace(job.id);
  ctx.state.removeArtifacts(job);
  job.erasedAt = ctx.state.now();
  return ok(ctx.present.job(job, 'artifacts'));
}

function keepArtifacts(ctx: RequestContext): ApiResponse {
  const job = actionTarget(ctx);
  if (!job.artifacts) throw errors.notFound('Artifacts');
  job.artifacts.expireAt = null;
  return ok(ctx.present.job(job, 'artifacts'));
}

/**
 * Only manual jobs can be played; others get 403 "Job is not playable" (the real server's answer). The job
 * is queued (stored as pending, picked up by simulated runners); the response shows `started`, as the
 * spec's sample does.
 */
function playJob(ctx: RequestContext): ApiResponse {
  const job = actionTarget(ctx);
  if (job.status !== 'manual') throw errors.forbidden('Job is not playable');
  ctx.state.setJobStatus(job.id, 'pending');
  job.userId = ctx.caller?.id ?? job.userId;
  return ok({ ...ctx.present.job(job, 'action'), status: 'started' });
}
