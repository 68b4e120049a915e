import * as l10n from '@vscode/l10n';

/** Groups jobs by pipeline, keeping the order in which pipelines first appear (newest first). */
export interface PipelineGroup<J> {
  pipelineId: number | undefined;
  ref: string | undefined;
  status: string | undefined;
  jobs: J[];
}

export interface GroupableJob {
  ref: string;
  pipeline?: { id: number; ref?: string; status?: string } | undefined;
}

export function groupJobsByPipeline<J extends GroupableJob>(jobs: readonly J[]): PipelineGroup<J>[] {
  const groups = new Map<number | undefined, PipelineGroup<J>>();
  for (const job of jobs) {
    const id = job.pipeline?.id;
    let group = groups.get(id);
    if (!group) {
      group = { pipelineId: id, ref: job.pipeline?.ref ?? job.ref, status: job.pipeline?.status, jobs: [] };
      groups.set(id, group);
    }
    group.jobs.push(job);
  }
  return [...groups.values()];
}

/** A job as a pipeline shows it: its latest attempt, with the attempts it replaced (newest first). */
export interface PipelineJobEntry<J> {
  job: J;
  retried: J[];
}

export interface OrderableJob {
  id: number;
  name: string;
  stage?: string | null;
}

/**
 * A pipeline's jobs as the server's pipeline page shows them: by stage, in the pipeline's stage
 * order, by name within a stage; a job run again is one entry, its earlier attempts folded under
 * the newest. The API gives no stage order: a stage's first job was created before the next
 * stage's (jobs are created stage by stage when the pipeline starts), so the lowest job id of a
 * stage orders it.
 */
export function orderPipelineJobs<J extends OrderableJob>(jobs: readonly J[]): PipelineJobEntry<J>[] {
  const attempts = new Map<string, J[]>();
  const firstIdOfStage = new Map<string, number>();
  for (const job of jobs) {
    const stage = job.stage ?? '';
    firstIdOfStage.set(stage, Math.min(firstIdOfStage.get(stage) ?? Number.POSITIVE_INFINITY, job.id));
    const key = `${stage}\u0000${job.name}`;
    const list = attempts.get(key);
    if (list) list.push(job);
    else attempts.set(key, [job]);
  }
  const entries = [...attempts.values()].map((list) => {
    const [job, ...retried] = [...list].sort((a, b) => b.id - a.id);
    return { job: job as J, retried };
  });
  return entries.sort((a, b) => {
    const stageA = firstIdOfStage.get(a.job.stage ?? '') ?? 0;
    const stageB = firstIdOfStage.get(b.job.stage ?? '') ?? 0;
    if (stageA !== stageB) return stageA - stageB;
    return a.job.name.localeCompare(b.job.name, undefined, { numeric: true }) || a.job.id - b.job.id;
  });
}

/** A stage of a pipeline with its jobs (latest attempts, earlier ones folded), in the pipeline's order. */
export interface PipelineStage<J> {
  name: string;
  entries: PipelineJobEntry<J>[];
}

/** A pipeline's jobs by stage, in the order `orderPipelineJobs` gives; a job without a stage is in "". */
export function pipelineStages<J extends OrderableJob>(jobs: readonly J[]): PipelineStage<J>[] {
  const stages: PipelineStage<J>[] = [];
  for (const entry of orderPipelineJobs(jobs)) {
    const name = entry.job.stage ?? '';
    const last = stages.at(-1);
    if (last?.name === name) last.entries.push(entry);
    else stages.push({ name, entries: [entry] });
  }
  return stages;
}

/** A pipeline's page: the address the server gave, else the project's page and the pipeline's id. */
export function pipelineWebUrl(
  pipelineId: number | undefined,
  given: string | null | undefined,
  projectWebUrl: string | null | undefined,
): string | undefined {
  if (given) return given;
  return pipelineId === undefined || !projectWebUrl
    ? undefined
    : `${projectWebUrl}/-/pipelines/${pipelineId}`;
}

/** Words for GitLab's `source` values a person reads in a row. */
export function pipelineSourceWord(source: string | null | undefined): string | undefined {
  switch (source) {
    case undefined:
    case null:
    case 'push':
      return undefined;
    case 'web':
      return l10n.t('run by hand');
    case 'api':
      return l10n.t('run through the API');
    case 'schedule':
      return l10n.t('scheduled');
    case 'merge_request_event':
      return l10n.t('merge request');
    case 'parent_pipeline':
      return l10n.t('child pipeline');
    case 'pipeline':
      return l10n.t('downstream');
    case 'trigger':
      return l10n.t('triggered');
    default:
      return source;
  }
}
