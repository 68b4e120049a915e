/*
 * The pipeline graph's first paint: the header and the graph (stage titles, nodes, edges) written
 * into the page's HTML, so that the page's first frame shows it before the page script, its
 * stylesheets and the snapshot arrive. Places are the same as the app's (`GRAPH_LAYOUT`); they go
 * into the page's nonce'd style as rules of numbers. Every text goes through `html`, which escapes
 * it. Pure: no `vscode`.
 */
import {
  GRAPH_LAYOUT,
  type PipelineGraph,
  columnLeft,
  edgePath,
  graphSize,
  rowTop,
} from '../../../domain/pipelineGraph';
import { type SafeHtml, html } from '../../../webviews/shared/safeHtml';
import type { FirstPaint } from '../../../webviews/shared/webviewHtml';
import type { PipelineHeader } from './protocol';

const STATUS_COLOURS: Readonly<Record<string, string>> = {
  success: 'var(--vscode-testing-iconPassed)',
  failed: 'var(--vscode-testing-iconFailed)',
  running: 'var(--vscode-charts-blue)',
  pending: 'var(--vscode-charts-yellow)',
  manual: 'var(--vscode-charts-purple)',
};

const BASE_STYLE = `
body { margin: 0; padding: 0; color: var(--vscode-foreground); background: var(--vscode-editor-background);
  font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
.fp-header { display: flex; gap: 6px; align-items: center; padding: 6px 12px; min-height: 28px;
  border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent));
  background: var(--vscode-editorWidget-background, var(--vscode-editor-background)); }
.fp-title { font-weight: 600; }
.fp-muted { color: var(--vscode-descriptionForeground); }
.fp-graph { position: relative; }
.fp-edges { position: absolute; left: 0; top: 0; overflow: visible; }
.fp-edges path { fill: none; stroke: var(--vscode-editorIndentGuide-activeBackground1, var(--vscode-descriptionForeground));
  stroke-width: 1.5; opacity: 0.6; }
.fp-stage { position: absolute; width: ${GRAPH_LAYOUT.nodeWidth}px; height: 24px; font-weight: 600; overflow: hidden;
  white-space: nowrap; text-overflow: ellipsis; }
.fp-node { position: absolute; box-sizing: border-box; width: ${GRAPH_LAYOUT.nodeWidth}px; height: ${GRAPH_LAYOUT.nodeHeight}px;
  padding: 0 10px; display: flex; align-items: center; gap: 6px; overflow: hidden; white-space: nowrap;
  border: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); border-radius: 16px;
  background: var(--vscode-editorWidget-background, var(--vscode-editor-background)); }
.fp-dot { flex: none; width: 10px; height: 10px; border-radius: 50%; background: var(--vscode-descriptionForeground); }
${Object.entries(STATUS_COLOURS)
  .map(([status, colour]) => `.fp-status-${status} .fp-dot { background: ${colour}; }`)
  .join('\n')}
`;

/** A class name made only of the status's letters (a server may send any status). */
function statusClass(status: string): string {
  return `fp-status-${status.replace(/[^a-z_]/g, '')}`;
}

export function pipelineGraphFirstPaint(header: PipelineHeader, graph: PipelineGraph): FirstPaint {
  const size = graphSize(graph);
  const places: string[] = [];
  const place = (id: string, left: number, top: number): void => {
    places.push(`#${id} { left: ${left}px; top: ${top}px; }`);
  };
  const titles: SafeHtml[] = graph.stages.map((stage, column) => {
    place(`fp-s${column}`, columnLeft(column), GRAPH_LAYOUT.padding);
    return html`<div class="fp-stage" id="fp-s${column}">${stage.name}</div>`;
  });
  const nodes: SafeHtml[] = graph.nodes.map((node, index) => {
    place(`fp-n${index}`, columnLeft(node.column), rowTop(node.row));
    return html`<div class="fp-node ${statusClass(node.status)}" id="fp-n${index}">
      <span class="fp-dot"></span><span>${node.name}</span>
    </div>`;
  });
  const downstreamColumn = graph.stages.length;
  const downstream: SafeHtml[] = graph.downstream.map((each, index) => {
    place(`fp-d${index}`, columnLeft(downstreamColumn), rowTop(each.row));
    return html`<div class="fp-node ${statusClass(each.status)}" id="fp-d${index}">
      <span class="fp-dot"></span><span>#${each.pipelineId} ${each.triggeredBy}</span>
    </div>`;
  });
  const at = new Map(graph.nodes.map((node) => [node.key, node]));
  const edges: SafeHtml[] = graph.edges.flatMap(({ from, to }) => {
    const start = at.get(from);
    const end = at.get(to);
    return start && end ? [html`<path d="${edgePath(start, end)}"></path>`] : [];
  });
  places.push(`.fp-graph, .fp-edges { width: ${size.width}px; height: ${size.height}px; }`);
  const markup = html`<div class="fp-header">
      <span class="fp-title">#${header.pipelineId}</span>
      <span class="fp-muted">${[header.label, header.ref, header.details].filter(Boolean).join(' · ')}</span>
    </div>
    <div class="fp-graph">
      <svg class="fp-edges" aria-hidden="true">${edges}</svg>
      ${titles}${nodes}${downstream}
    </div>`;
  return { markup, style: `${BASE_STYLE}\n${places.join('\n')}` };
}
