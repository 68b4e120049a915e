/**
 * A pipeline as its graph draws it (issue 37): stages as columns in the pipeline's order, each job's
 * latest attempt as a node, `needs:` as edges, the pipelines its trigger jobs started to the right.
 * Nodes are keyed by stage and name, so a retried job (a new id) changes its node in place, and
 * `graphChanges` tells a live update from a change of shape. No `vscode`.
 */
import { jobActionApplies } from './jobActions';
import { statusAppearance, summarizeStatuses } from './jobStatus';
import { pipelineStages } from './pipelines';
import { formatDuration } from './time';

export interface GraphJobSource {
  id: number;
  name: string;
  stage?: string | null;
  status: string;
  allow_failure?: boolean | null;
  started_at?: string | null;
  finished_at?: string | null;
}

/** The one action a node's button offers, as GitLab's graph does: play a manual job, cancel, retry. */
export type GraphJobAction = 'play' | 'cancel' | 'retry';

/** How a status looks; `color` is a theme colour id (`charts.blue`). */
export interface GraphStatus {
  status: string;
  label: string;
  codicon: string;
  color: string | undefined;
}

export interface GraphNode extends GraphStatus {
  /** `stage` NUL `name`: the same across attempts. */
  key: string;
  /** The latest attempt's id. */
  id: number;
  name: string;
  stage: string;
  column: number;
  row: number;
  duration: string;
  allowFailure: boolean;
  /** How many earlier attempts the latest replaced. */
  retried: number;
  action: GraphJobAction | undefined;
}

export interface GraphStage extends GraphStatus {
  name: string;
  /** Keys of its nodes, top to bottom. */
  nodes: string[];
}

export interface GraphDownstream extends GraphStatus {
  pipelineId: number;
  /** The trigger job's name. */
  triggeredBy: string;
  ref: string;
  /** In the graph's own project: it opens as a graph; else its page opens in the browser. */
  sameProject: boolean;
  row: number;
}

export interface PipelineGraph {
  stages: GraphStage[];
  nodes: GraphNode[];
  /** From the needed job's key to the needing job's key. */
  edges: { from: string; to: string }[];
  downstream: GraphDownstream[];
  /** The CI file gave the `needs:` (false: no edges are known, not that there are none). */
  needsKnown: boolean;
}

export interface DownstreamSource {
  triggeredBy: string;
  pipeline: {
    id: number;
    status: string;
    ref?: string | null;
    project_id?: number | null;
    web_url?: string | null;
  };
}

export function graphStatus(status: string): GraphStatus {
  const { label, codicon, color } = statusAppearance(status);
  return { status, label, codicon, color };
}

function nodeAction(job: GraphJobSource): GraphJobAction | undefined {
  if (jobActionApplies('play', job)) return 'play';
  if (jobActionApplies('cancel', job)) return 'cancel';
  if (jobActionApplies('retry', job)) return 'retry';
  return undefined;
}

export function nodeKey(job: { name: string; stage?: string | null }): string {
  return `${job.stage ?? ''}\u0000${job.name}`;
}

/**
 * The graph of a pipeline's jobs (every attempt, as `include_retried` lists them), the `needs:` read
 * from its CI file (undefined when unknown) and its downstream pipelines.
 */
export function pipelineGraph(
  jobs: readonly GraphJobSource[],
  needs: ReadonlyMap<string, readonly string[]> | undefined,
  downstream: readonly DownstreamSource[],
  projectId: number,
  now: number = Date.now(),
): PipelineGraph {
  const stages: GraphStage[] = [];
  const nodes: GraphNode[] = [];
  const keyByName = new Map<string, string>();
  for (const { name: stageName, entries } of pipelineStages(jobs)) {
    const stage: GraphStage = { name: stageName, nodes: [], ...graphStatus('') };
    stages.push(stage);
    for (const { job, retried } of entries) {
      const key = nodeKey(job);
      keyByName.set(job.name, key);
      nodes.push({
        key,
        id: job.id,
        name: job.name,
        stage: stageName,
        column: stages.length - 1,
        row: stage.nodes.length,
        ...graphStatus(job.status),
        duration: formatDuration(job.started_at, job.finished_at, now),
        allowFailure: job.allow_failure === true,
        retried: retried.length,
        action: nodeAction(job),
      });
      stage.nodes.push(key);
    }
  }
  const statusOf = new Map(nodes.map((node) => [node.key, node.status]));
  for (const stage of stages)
    Object.assign(stage, graphStatus(summarizeStatuses(stage.nodes.map((key) => statusOf.get(key) ?? ''))));
  const edges = nodes.flatMap((node) =>
    (needs?.get(node.name) ?? []).flatMap((name) => {
      const from = keyByName.get(name);
      return from === undefined ? [] : [{ from, to: node.key }];
    }),
  );
  return {
    stages,
    nodes,
    edges,
    downstream: downstream.map(({ triggeredBy, pipeline }, row) => ({
      pipelineId: pipeline.id,
      triggeredBy,
      ref: pipeline.ref ?? '',
      sameProject:
        pipeline.project_id === undefined ||
        pipeline.project_id === null ||
        pipeline.project_id === projectId,
      row,
      ...graphStatus(pipeline.status),
    })),
    needsKnown: needs !== undefined,
  };
}

/** A node's fields that a live update changes; the rest (key, place) stay. */
export type NodeChange = Omit<GraphNode, 'column' | 'row' | 'stage' | 'name'>;

/**
 * What changed from `before` to `after`: the nodes, stage and downstream statuses to redraw, or
 * `undefined` when the graph's shape changed (a job, a stage, an edge or a downstream pipeline came
 * or went) and it must be drawn again whole.
 */
export function graphChanges(
  before: PipelineGraph,
  after: PipelineGraph,
): { nodes: NodeChange[]; stages: GraphStage[]; downstream: GraphDownstream[] } | undefined {
  const shape = (graph: PipelineGraph): string =>
    JSON.stringify([
      graph.nodes.map((node) => [node.key, node.column, node.row]),
      graph.edges,
      graph.downstream.map((each) => [each.pipelineId, each.triggeredBy]),
    ]);
  if (shape(before) !== shape(after)) return undefined;
  const nodeText = (node: GraphNode): string => JSON.stringify(node);
  const previous = new Map(before.nodes.map((node) => [node.key, nodeText(node)]));
  const nodes = after.nodes
    .filter((node) => previous.get(node.key) !== nodeText(node))
    .map(({ column: _column, row: _row, stage: _stage, name: _name, ...change }) => change);
  const stages = after.stages.filter((stage, index) => before.stages[index]?.status !== stage.status);
  const downstream = after.downstream.filter(
    (each, index) => JSON.stringify(before.downstream[index]) !== JSON.stringify(each),
  );
  return { nodes, stages, downstream };
}

/** Where the graph's pieces go, in CSS pixels: the page and the host's first paint draw alike. */
export const GRAPH_LAYOUT = {
  nodeWidth: 200,
  nodeHeight: 32,
  rowGap: 10,
  columnGap: 56,
  titleHeight: 30,
  padding: 16,
} as const;

export function columnLeft(column: number): number {
  return GRAPH_LAYOUT.padding + column * (GRAPH_LAYOUT.nodeWidth + GRAPH_LAYOUT.columnGap);
}

export function rowTop(row: number): number {
  return (
    GRAPH_LAYOUT.padding + GRAPH_LAYOUT.titleHeight + row * (GRAPH_LAYOUT.nodeHeight + GRAPH_LAYOUT.rowGap)
  );
}

/** An edge's SVG path, from the right of the needed node to the left of the needing one. */
export function edgePath(from: { column: number; row: number }, to: { column: number; row: number }): string {
  const { nodeWidth, nodeHeight, columnGap } = GRAPH_LAYOUT;
  const x1 = columnLeft(from.column) + nodeWidth;
  const y1 = rowTop(from.row) + nodeHeight / 2;
  const x2 = columnLeft(to.column);
  const y2 = rowTop(to.row) + nodeHeight / 2;
  // Backwards or within a column (needs in the same stage): around the right of the node.
  const bend = x2 > x1 ? (x2 - x1) / 2 : columnGap / 2 + nodeWidth / 2;
  return `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`;
}

/** The graph's size: its columns (the downstream column included) and its longest column. */
export function graphSize(graph: PipelineGraph): { width: number; height: number } {
  const columns = graph.stages.length + (graph.downstream.length > 0 ? 1 : 0);
  const rows = Math.max(0, graph.downstream.length, ...graph.stages.map((stage) => stage.nodes.length));
  return {
    width: columnLeft(columns) - GRAPH_LAYOUT.columnGap + GRAPH_LAYOUT.padding,
    height: rowTop(rows) - GRAPH_LAYOUT.rowGap + GRAPH_LAYOUT.padding,
  };
}
