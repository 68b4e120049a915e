/*
 * The pipeline graph (browser code): stages as columns, jobs as nodes placed by their column and
 * row (sizes are fixed, so no node is measured), `needs:` as SVG curves, downstream pipelines in a
 * column of their own. A live update redraws only the nodes it names, in place; the page's layout
 * is not computed again. Server text goes into the DOM as text only.
 */
import * as l10n from '@vscode/l10n';
import {
  GRAPH_LAYOUT,
  type GraphDownstream,
  type GraphJobAction,
  type GraphStage,
  type GraphStatus,
  type NodeChange,
  type PipelineGraph,
  columnLeft,
  edgePath,
  graphSize,
  rowTop,
} from '../../../../domain/pipelineGraph';
import { element } from '../../../../webviews/shared/app/bridge';

const PADDING = GRAPH_LAYOUT.padding;
const SVG = 'http://www.w3.org/2000/svg';

export interface GraphViewEvents {
  openJob(jobId: number): void;
  jobAction(jobId: number, action: GraphJobAction): void;
  openDownstream(pipelineId: number): void;
  /** The focused node changed (the page keeps it in its state). */
  focused(key: string): void;
}

/** A drawn node: a job, or a downstream pipeline (`key` `downstream:<id>`). */
interface DrawnNode {
  key: string;
  column: number;
  row: number;
  box: HTMLElement;
  main: HTMLButtonElement;
  icon: HTMLElement;
  name: HTMLElement;
  detail: HTMLElement;
  action: HTMLButtonElement | undefined;
  /** The job's id, or the downstream pipeline's. */
  id: number;
  currentAction: GraphJobAction | undefined;
}

const ACTION_WORDS: Record<GraphJobAction, { label: string; icon: string }> = {
  retry: { label: l10n.t('Retry'), icon: 'refresh' },
  play: { label: l10n.t('Run'), icon: 'play' },
  cancel: { label: l10n.t('Cancel'), icon: 'debug-stop' },
};

/** Draws a status icon: its codicon (spinning for `name~spin`) in the status's colour, and its words. */
export function showStatus(icon: HTMLElement, status: GraphStatus): void {
  const [name = 'circle-outline', modifier] = status.codicon.split('~');
  const spin = modifier === 'spin' ? ' codicon-modifier-spin' : '';
  icon.className = `status-icon status-${status.status.replace(/[^a-z_]/g, '')} codicon codicon-${name.replace(/[^a-z0-9-]/g, '')}${spin}`;
  icon.setAttribute('aria-label', status.label);
}

function place(target: HTMLElement, left: number, top: number): void {
  // Through the CSSOM, which the page's CSP allows (inline style attributes it does not).
  target.style.left = `${left}px`;
  target.style.top = `${top}px`;
}

export class GraphView {
  readonly element: HTMLElement;
  private readonly sheet: HTMLElement;
  private readonly edges: SVGSVGElement;
  private nodes = new Map<string, DrawnNode>();
  private byJobId = new Map<number, DrawnNode>();
  private stageIcons = new Map<string, HTMLElement>();
  private edgePaths: { from: string; to: string; path: SVGPathElement }[] = [];
  /** Nodes by column, top to bottom, for the arrow keys. */
  private columns: DrawnNode[][] = [];
  private focusKey: string | undefined;

  constructor(private readonly events: GraphViewEvents) {
    this.sheet = element('div', { className: 'graph' });
    this.sheet.setAttribute('role', 'group');
    this.sheet.setAttribute('aria-label', l10n.t('Pipeline graph'));
    this.edges = document.createElementNS(SVG, 'svg');
    this.edges.classList.add('edges');
    this.edges.setAttribute('aria-hidden', 'true');
    this.element = element('div', { className: 'graph-scroll' }, this.sheet);
    this.sheet.addEventListener('keydown', (event) => this.onKey(event));
  }

  get nodeCount(): number {
    return this.nodes.size;
  }

  /** Draws the whole graph (a snapshot, or a change of shape), keeping the focused node if it is still there. */
  draw(graph: PipelineGraph, focusKey: string | undefined): void {
    this.sheet.replaceChildren(this.edges);
    this.edges.replaceChildren();
    this.nodes = new Map();
    this.byJobId = new Map();
    this.stageIcons = new Map();
    this.columns = [];
    graph.stages.forEach((stage, column) => this.drawTitle(stage.name, column, stage));
    for (const node of graph.nodes) {
      const drawn = this.drawNode(node.key, node.column, node.row, node.id);
      this.setJob(drawn, node);
    }
    const downstreamColumn = graph.stages.length;
    if (graph.downstream.length > 0) {
      this.drawTitle(l10n.t('Downstream'), downstreamColumn, undefined);
      for (const each of graph.downstream) {
        const drawn = this.drawNode(
          `downstream:${each.pipelineId}`,
          downstreamColumn,
          each.row,
          each.pipelineId,
        );
        drawn.box.classList.add('downstream');
        this.setDownstream(drawn, each);
      }
    }
    this.drawEdges(graph);
    const size = graphSize(graph);
    this.sheet.style.width = `${size.width}px`;
    this.sheet.style.height = `${size.height}px`;
    const first = this.columns[0]?.[0];
    this.setFocusable(focusKey !== undefined && this.nodes.has(focusKey) ? focusKey : first?.key);
  }

  private drawTitle(text: string, column: number, stage: GraphStage | undefined): void {
    const icon = element('span', { className: 'codicon codicon-type-hierarchy-sub' });
    if (stage) showStatus(icon, stage);
    const title = element('div', { className: 'stage-title' }, icon, element('span', { text }));
    title.setAttribute('role', 'heading');
    title.setAttribute('aria-level', '2');
    place(title, columnLeft(column), PADDING);
    this.sheet.append(title);
    if (stage) this.stageIcons.set(stage.name, icon);
  }

  private drawNode(key: string, column: number, row: number, id: number): DrawnNode {
    const icon = element('span', { className: 'status-icon codicon' });
    const name = element('span', { className: 'node-name' });
    const detail = element('span', { className: 'node-detail muted' });
    const main = element('button', { className: 'node-main' }, icon, name, detail);
    main.tabIndex = -1;
    const box = element('div', { className: 'node' }, main);
    place(box, columnLeft(column), rowTop(row));
    const drawn: DrawnNode = {
      key,
      column,
      row,
      box,
      main,
      icon,
      name,
      detail,
      action: undefined,
      id,
      currentAction: undefined,
    };
    main.addEventListener('focus', () => this.setFocusable(key));
    box.addEventListener('mouseenter', () => this.highlight(key, true));
    box.addEventListener('mouseleave', () => this.highlight(key, false));
    this.sheet.append(box);
    this.nodes.set(key, drawn);
    (this.columns[column] ??= [])[row] = drawn;
    return drawn;
  }

  private setJob(drawn: DrawnNode, node: NodeChange & { name?: string }): void {
    if (drawn.id !== node.id) this.byJobId.delete(drawn.id);
    drawn.id = node.id;
    this.byJobId.set(node.id, drawn);
    drawn.box.dataset['jobId'] = String(node.id);
    drawn.box.dataset['status'] = node.status;
    showStatus(drawn.icon, node);
    if (node.name !== undefined) {
      drawn.name.textContent = node.name;
      drawn.box.dataset['name'] = node.name;
    }
    const name = drawn.name.textContent ?? '';
    drawn.detail.textContent = [
      node.duration,
      node.retried > 0 ? l10n.t('retried {0}×', node.retried) : '',
      node.allowFailure && node.status === 'failed' ? l10n.t('allowed to fail') : '',
    ]
      .filter(Boolean)
      .join(' · ');
    const label = [name, node.label, drawn.detail.textContent].filter(Boolean).join(' · ');
    drawn.main.title = label;
    drawn.main.setAttribute('aria-label', label);
    drawn.main.onclick = () => this.events.openJob(drawn.id);
    this.setAction(drawn, node.action, name);
  }

  private setAction(drawn: DrawnNode, action: GraphJobAction | undefined, name: string): void {
    drawn.currentAction = action;
    if (!action) {
      drawn.action?.remove();
      drawn.action = undefined;
      return;
    }
    if (!drawn.action) {
      drawn.action = element('button', { className: 'node-action' });
      drawn.action.tabIndex = drawn.main.tabIndex;
      drawn.action.addEventListener('click', () => {
        if (drawn.currentAction) this.events.jobAction(drawn.id, drawn.currentAction);
      });
      drawn.box.append(drawn.action);
    }
    const words = ACTION_WORDS[action];
    drawn.action.className = `node-action codicon codicon-${words.icon}`;
    drawn.action.dataset['action'] = action;
    drawn.action.disabled = false;
    const label = `${words.label} ${name}`;
    drawn.action.title = label;
    drawn.action.setAttribute('aria-label', label);
  }

  private setDownstream(drawn: DrawnNode, downstream: GraphDownstream): void {
    drawn.box.dataset['status'] = downstream.status;
    drawn.box.dataset['pipelineId'] = String(downstream.pipelineId);
    showStatus(drawn.icon, downstream);
    drawn.name.textContent = `#${downstream.pipelineId} ${downstream.triggeredBy}`;
    drawn.detail.textContent = [downstream.ref, downstream.sameProject ? '' : l10n.t('another project')]
      .filter(Boolean)
      .join(' · ');
    const label = [
      l10n.t('Pipeline #{0}', downstream.pipelineId),
      l10n.t('from {0}', downstream.triggeredBy),
      downstream.label,
      drawn.detail.textContent,
    ]
      .filter(Boolean)
      .join(' · ');
    drawn.main.title = label;
    drawn.main.setAttribute('aria-label', label);
    drawn.main.onclick = () => this.events.openDownstream(downstream.pipelineId);
  }

  private drawEdges(graph: PipelineGraph): void {
    this.edgePaths = [];
    for (const edge of graph.edges) {
      const from = this.nodes.get(edge.from);
      const to = this.nodes.get(edge.to);
      if (!from || !to) continue;
      const path = document.createElementNS(SVG, 'path');
      path.setAttribute('d', edgePath(from, to));
      this.edges.append(path);
      this.edgePaths.push({ ...edge, path });
    }
    this.edges.dataset['edges'] = String(this.edgePaths.length);
  }

  private highlight(key: string, on: boolean): void {
    for (const { from, to, path } of this.edgePaths)
      if (from === key || to === key) path.classList.toggle('highlight', on);
  }

  /** Redraws the nodes, stage titles and downstream pipelines a live update names, in place. */
  update(
    nodes: readonly NodeChange[],
    stages: readonly GraphStage[],
    downstream: readonly GraphDownstream[],
  ): void {
    for (const node of nodes) {
      const drawn = this.nodes.get(node.key);
      if (drawn) this.setJob(drawn, node);
    }
    for (const stage of stages) {
      const icon = this.stageIcons.get(stage.name);
      if (!icon) continue;
      showStatus(icon, stage);
    }
    for (const each of downstream) {
      const drawn = this.nodes.get(`downstream:${each.pipelineId}`);
      if (drawn) this.setDownstream(drawn, each);
    }
  }

  /** A node's action is on its way: its button waits. */
  busy(jobId: number, busy: boolean): void {
    const drawn = this.byJobId.get(jobId);
    if (!drawn?.action) return;
    drawn.action.disabled = busy;
    drawn.action.classList.toggle('busy', busy);
  }

  /** Only one node is in the Tab order (its button and its action); the arrow keys move between nodes. */
  private setFocusable(key: string | undefined): void {
    if (key === this.focusKey && key !== undefined && this.nodes.get(key)?.main.tabIndex === 0) return;
    const previous = this.focusKey === undefined ? undefined : this.nodes.get(this.focusKey);
    if (previous) {
      previous.main.tabIndex = -1;
      if (previous.action) previous.action.tabIndex = -1;
      this.highlight(previous.key, false);
    }
    this.focusKey = key;
    const next = key === undefined ? undefined : this.nodes.get(key);
    if (!next) return;
    next.main.tabIndex = 0;
    if (next.action) next.action.tabIndex = 0;
    if (next.box.contains(document.activeElement)) this.highlight(next.key, true);
    this.events.focused(next.key);
  }

  focus(key: string | undefined): void {
    const target = (key === undefined ? undefined : this.nodes.get(key)) ?? this.columns[0]?.[0];
    if (!target) return;
    this.setFocusable(target.key);
    target.main.focus();
    this.highlight(target.key, true);
  }

  private onKey(event: KeyboardEvent): void {
    const current = this.focusKey === undefined ? undefined : this.nodes.get(this.focusKey);
    if (!current) return;
    const column = this.columns[current.column] ?? [];
    let next: DrawnNode | undefined;
    switch (event.key) {
      case 'ArrowDown':
        next = column[current.row + 1];
        break;
      case 'ArrowUp':
        next = column[current.row - 1];
        break;
      case 'ArrowRight':
      case 'ArrowLeft': {
        const step = event.key === 'ArrowRight' ? 1 : -1;
        let index = current.column + step;
        while (index >= 0 && index < this.columns.length && (this.columns[index]?.length ?? 0) === 0)
          index += step;
        const nodes = this.columns[index] ?? [];
        next = nodes[Math.min(current.row, nodes.length - 1)];
        break;
      }
      case 'Home':
        next = column[0];
        break;
      case 'End':
        next = column.at(-1);
        break;
      default:
        return;
    }
    event.preventDefault();
    if (!next) return;
    this.highlight(current.key, false);
    this.focus(next.key);
    next.box.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }
}
