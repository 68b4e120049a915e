/*
 * What a pipeline graph reads: the pipeline, its jobs with every attempt, its trigger jobs and the
 * pipelines they started, and the `needs:` of the CI file at its commit (read once per commit; the
 * commit a row knew lets that read go alongside the others).
 */
import { ForbiddenError, NotFoundError } from '../../../api/http';
import type { HostingClient, Job, PipelineDetails } from '../../../api/hosting';
import { jobNeedsFromCiFile } from '../../../domain/ciNeeds';
import { type DownstreamSource, type PipelineGraph, pipelineGraph } from '../../../domain/pipelineGraph';
import { describeError } from '../../../platform/commands/errorMessages';

/** The most jobs drawn for one pipeline (its own endpoint, 100 a page). */
const MAX_GRAPH_JOBS = 2_000;
const CI_FILE = '.gitlab-ci.yml';

export interface GraphRead {
  pipeline: PipelineDetails | undefined;
  jobs: Job[];
  graph: PipelineGraph;
  downstream: DownstreamSource[];
}

export class PipelineGraphReader {
  /** `needs:` of the CI file at the pipeline's commit, read once per commit. */
  private needs: { sha: string; needs: Map<string, string[]> | undefined } | undefined;

  constructor(
    private readonly target: { project: { id: number }; pipelineId: number; sha?: string | undefined },
    private readonly log: { info(message: string): void },
  ) {}

  /** The pipeline, its jobs (every attempt), its downstream pipelines and the graph they make. */
  async read(client: HostingClient): Promise<GraphRead> {
    const { project, pipelineId } = this.target;
    const knownSha = this.needs?.sha ?? this.target.sha;
    const [pipeline, jobs, downstream, early] = await Promise.all([
      client.getPipeline(project.id, pipelineId).catch((error: unknown) => {
        // A server without the endpoint (or a child pipeline it hides) still shows its jobs.
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }),
      this.readJobs(client),
      this.readDownstream(client),
      this.readNeeds(client, knownSha),
    ]);
    const needs = pipeline?.sha === knownSha ? early : await this.readNeeds(client, pipeline?.sha);
    return { pipeline, jobs, downstream, graph: pipelineGraph(jobs, needs, downstream, project.id) };
  }

  private async readJobs(client: HostingClient): Promise<Job[]> {
    const jobs: Job[] = [];
    for await (const job of client
      .listPipelineJobs(this.target.project.id, this.target.pipelineId, undefined, { includeRetried: true })
      .all()) {
      jobs.push(job);
      if (jobs.length >= MAX_GRAPH_JOBS) break;
    }
    return jobs;
  }

  /** Trigger jobs and the pipelines they started; none on a server without the endpoint (before 13.0). */
  private async readDownstream(client: HostingClient): Promise<DownstreamSource[]> {
    try {
      const bridges = await client
        .listPipelineBridges(this.target.project.id, this.target.pipelineId)
        .page({ perPage: 100 });
      return bridges.items.flatMap((bridge) =>
        bridge.downstream_pipeline
          ? [{ triggeredBy: bridge.name, pipeline: bridge.downstream_pipeline }]
          : [],
      );
    } catch (error) {
      if (error instanceof NotFoundError) return [];
      throw error;
    }
  }

  /** The `needs:` of the CI file at the pipeline's commit; unknown when it cannot be read. */
  private async readNeeds(
    client: HostingClient,
    sha: string | undefined,
  ): Promise<Map<string, string[]> | undefined> {
    if (!sha) return undefined;
    if (this.needs?.sha === sha) return this.needs.needs;
    try {
      const bytes = await client.getRawFile(this.target.project.id, CI_FILE, sha);
      const needs = jobNeedsFromCiFile(new TextDecoder().decode(bytes));
      this.needs = { sha, needs };
      return needs;
    } catch (error) {
      this.log.info(`Pipeline graph: no needs for #${this.target.pipelineId}: ${describeError(error)}`);
      // No such file (or no access) stays so for this commit; another failure is tried again next read.
      if (error instanceof NotFoundError || error instanceof ForbiddenError)
        this.needs = { sha, needs: undefined };
      return undefined;
    }
  }
}
