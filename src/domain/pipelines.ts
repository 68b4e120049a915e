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
