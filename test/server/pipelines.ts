/**
 * Pipelines as a whole, as GitLab has them (design.md section 3): created from the CI file at a ref
 * (stages, `needs`, manual jobs, rules on `$CI_PIPELINE_SOURCE`, child and multi-project pipelines
 * from trigger jobs), retried (failed and canceled jobs run again), canceled (what has not finished,
 * and its child pipelines), deleted; GitLab's 400 sentences when a pipeline cannot be created.
 */
import { planPipeline, type CiJobPlan, type CiPlan } from './ciConfig';
import { HttpError } from './http';
import { treeAt } from './repositoryFiles';
import {
  isFinishedJobStatus,
  type ForgeState,
  type Job,
  type JobStatus,
  type Pipeline,
  type PipelineVariable,
  type Project,
  type User,
} from './state';

const CI_FILE = '.gitlab-ci.yml';
/** Statuses GitLab's cancel ends; a manual job waits on. */
const CANCELABLE: ReadonlySet<JobStatus> = new Set(['created', 'pending', 'running']);
const RETRYABLE: ReadonlySet<JobStatus> = new Set(['failed', 'canceled']);

export interface NewPipeline {
  project: Project;
  ref: string;
  source: string;
  user: User | undefined;
  variables: PipelineVariable[];
  /** The trigger job of a parent pipeline, for a child or downstream pipeline. */
  parentJob?: Job;
  /** A file of the project other than the CI file (a child pipeline's `include:`). */
  configPath?: string;
}

function refused(messages: string[]): HttpError {
  return new HttpError(400, { message: { base: messages } });
}

/** The commit a ref names in the project: a branch, or a full commit SHA. */
function commitOf(state: ForgeState, project: Project, ref: string): string | undefined {
  const branch = project.branches.get(ref);
  if (branch) return branch.commitSha;
  return state.commits.has(ref) ? ref : undefined;
}

function predefinedVariables(input: NewPipeline, sha: string): Record<string, string> {
  return {
    CI_PIPELINE_SOURCE: input.source,
    CI_COMMIT_REF_NAME: input.ref,
    CI_COMMIT_BRANCH: input.ref,
    CI_COMMIT_SHA: sha,
    CI_DEFAULT_BRANCH: input.project.defaultBranch,
  };
}

/** Creates a pipeline and its jobs from the CI file, or throws GitLab's 400. */
export function createPipeline(state: ForgeState, input: NewPipeline): Pipeline {
  const sha = commitOf(state, input.project, input.ref);
  if (sha === undefined) throw refused(['Reference not found']);
  const text = treeAt(state, sha)?.get(input.configPath ?? CI_FILE);
  if (text === undefined)
    throw refused([
      input.configPath ? `Local file \`${input.configPath}\` does not exist!` : 'Missing CI config file',
    ]);
  const given = Object.fromEntries(input.variables.map((variable) => [variable.key, variable.value]));
  const planned = planPipeline(text, { ...given, ...predefinedVariables(input, sha) });
  if ('errors' in planned) throw refused(planned.errors);
  if (planned.plan.jobs.length === 0)
    throw refused([
      'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.',
    ]);
  const now = state.now();
  const pipeline: Pipeline = {
    id: state.nextId('pipeline'),
    iid: state.nextIid(input.project.id, state.pipelines.values()),
    projectId: input.project.id,
    ref: input.ref,
    sha,
    tag: false,
    userId: input.user?.id ?? null,
    createdAt: now,
    updatedAt: now,
    jobIds: [],
    source: input.source,
    name: null,
    variables: input.variables,
    ...(input.parentJob ? { parentJobId: input.parentJob.id } : {}),
  };
  state.pipelines.set(pipeline.id, pipeline);
  addJobs(state, pipeline, planned.plan, input);
  return pipeline;
}

/** The first stage's jobs (and jobs that need nothing) are pending; the rest wait (created). */
function initialStatus(job: CiJobPlan, plan: CiPlan, firstStage: string): JobStatus {
  if (job.when === 'manual') return 'manual';
  return job.stage === firstStage || (job.needs !== undefined && job.needs.length === 0)
    ? 'pending'
    : 'created';
}

function addJobs(state: ForgeState, pipeline: Pipeline, plan: CiPlan, input: NewPipeline): void {
  const used = plan.stages.filter((stage) => plan.jobs.some((job) => job.stage === stage));
  const ordered = [...plan.jobs].sort((a, b) => used.indexOf(a.stage) - used.indexOf(b.stage));
  for (const planned of ordered) {
    const job: Job = {
      id: state.nextId('job'),
      projectId: pipeline.projectId,
      pipelineId: pipeline.id,
      name: planned.name,
      stage: planned.stage,
      ref: pipeline.ref,
      tag: false,
      status: initialStatus(planned, plan, used[0] ?? ''),
      allowFailure: planned.allowFailure,
      createdAt: pipeline.createdAt,
      startedAt: null,
      finishedAt: null,
      erasedAt: null,
      userId: pipeline.userId,
      commitSha: pipeline.sha,
      artifacts: null,
      failureReason: null,
      ...(planned.needs ? { needs: planned.needs } : {}),
      ...(planned.when === 'manual' && !planned.allowFailure ? { blocking: true } : {}),
    };
    state.jobs.set(job.id, job);
    pipeline.jobIds.push(job.id);
    if (planned.trigger) startDownstream(state, job, planned.trigger, input);
  }
}

/** A trigger job starts its pipeline at once (GitLab waits for the stage; tests need no wait). */
function startDownstream(
  state: ForgeState,
  bridge: Job,
  trigger: NonNullable<CiJobPlan['trigger']>,
  input: NewPipeline,
): void {
  bridge.bridge = { downstreamPipelineId: null, depend: trigger.depend };
  const project = trigger.project ? state.findProject(trigger.project) : input.project;
  if (!project) {
    bridge.status = 'failed';
    bridge.failureReason = 'downstream_bridge_project_not_found';
    return;
  }
  try {
    const downstream = createPipeline(state, {
      project,
      ref: trigger.include ? input.ref : (trigger.branch ?? project.defaultBranch),
      source: trigger.include ? 'parent_pipeline' : 'pipeline',
      user: input.user,
      variables: [],
      parentJob: bridge,
      ...(trigger.include ? { configPath: trigger.include } : {}),
    });
    bridge.bridge.downstreamPipelineId = downstream.id;
    bridge.status = trigger.depend ? 'running' : 'success';
  } catch {
    bridge.status = 'failed';
    bridge.failureReason = 'downstream_pipeline_creation_failed';
  }
}

/** Pipelines a pipeline's trigger jobs started. */
export function downstreamOf(state: ForgeState, pipeline: Pipeline): Pipeline[] {
  return pipeline.jobIds.flatMap((id) => {
    const downstream = state.jobs.get(id)?.bridge?.downstreamPipelineId;
    const found =
      downstream === null || downstream === undefined ? undefined : state.pipelines.get(downstream);
    return found ? [found] : [];
  });
}

/** Runs its failed and canceled jobs again; jobs after them that were skipped wait again. */
export function retryPipeline(state: ForgeState, pipeline: Pipeline, user: User): void {
  const latest = pipeline.jobIds.flatMap((id) => {
    const job = state.jobs.get(id);
    return job && !job.retried && !job.bridge ? [job] : [];
  });
  for (const job of latest) {
    if (RETRYABLE.has(job.status)) state.retryJob(job.id, user.id);
    else if (job.status === 'skipped') state.setJobStatus(job.id, 'created');
  }
  pipeline.updatedAt = state.now();
}

/** Cancels what has not finished, in it and in its child pipelines (GitLab answers 200 either way). */
export function cancelPipeline(state: ForgeState, pipeline: Pipeline): void {
  for (const id of pipeline.jobIds) {
    const job = state.jobs.get(id);
    if (job && !job.retried && CANCELABLE.has(job.status)) state.setJobStatus(job.id, 'canceled');
  }
  for (const child of downstreamOf(state, pipeline))
    if (child.projectId === pipeline.projectId) cancelPipeline(state, child);
  pipeline.updatedAt = state.now();
}

/** Removes the pipeline and its jobs (its child pipelines stay, as on GitLab). */
export function deletePipeline(state: ForgeState, pipeline: Pipeline): void {
  for (const id of pipeline.jobIds) state.deleteJob(id);
  state.pipelines.delete(pipeline.id);
}

/** Seconds between the first job's start and the last one's end, as GitLab's `duration`. */
export function pipelineTimes(
  state: ForgeState,
  pipeline: Pipeline,
): { startedAt: string | null; finishedAt: string | null; duration: number | null } {
  let startedAt: string | null = null;
  let finishedAt: string | null = null;
  let running = false;
  for (const id of pipeline.jobIds) {
    const job = state.jobs.get(id);
    if (!job || job.retried) continue;
    if (job.startedAt && (startedAt === null || job.startedAt < startedAt)) startedAt = job.startedAt;
    if (job.status !== 'manual' && !isFinishedJobStatus(state.jobStatusInPipeline(job))) running = true;
    if (job.finishedAt && (finishedAt === null || job.finishedAt > finishedAt)) finishedAt = job.finishedAt;
  }
  if (running || startedAt === null) return { startedAt, finishedAt: null, duration: null };
  const duration =
    finishedAt === null ? null : Math.round((Date.parse(finishedAt) - Date.parse(startedAt)) / 1000);
  return { startedAt, finishedAt, duration };
}

/** A job's status as its dependants read it: a failure allowed to fail counts as passed. */
function passedFor(job: Job, state: ForgeState): boolean | undefined {
  const status = state.jobStatusInPipeline(job);
  if (status === 'success' || status === 'skipped') return true;
  if (status === 'manual') return job.blocking === true ? undefined : true;
  if (status === 'failed') return job.allowFailure ? true : false;
  if (status === 'canceled') return false;
  return undefined;
}

/**
 * What a runner and GitLab's pipeline processing do between ticks (the demo's `simulateRunners`):
 * a waiting job whose `needs` (or, without them, every job of the stages before) passed becomes
 * pending; one whose prerequisites failed is skipped. A blocking manual job holds what comes after.
 */
export function advancePipelines(state: ForgeState): void {
  for (const pipeline of state.pipelines.values()) {
    const jobs = pipeline.jobIds.flatMap((id) => {
      const job = state.jobs.get(id);
      return job && !job.retried ? [job] : [];
    });
    if (!jobs.some((job) => job.status === 'created')) continue;
    const stageOrder = [...new Set([...jobs].sort((a, b) => a.id - b.id).map((job) => job.stage))];
    for (const job of jobs) {
      if (job.status !== 'created') continue;
      const before = job.needs
        ? jobs.filter((other) => job.needs?.includes(other.name))
        : jobs.filter((other) => stageOrder.indexOf(other.stage) < stageOrder.indexOf(job.stage));
      const outcomes = before.map((other) => passedFor(other, state));
      if (outcomes.includes(false)) state.setJobStatus(job.id, 'skipped');
      else if (outcomes.every((outcome) => outcome === true)) state.setJobStatus(job.id, 'pending');
    }
  }
}
