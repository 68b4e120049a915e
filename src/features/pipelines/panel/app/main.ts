/*
 * The pipeline graph page: a header with the pipeline's state and the actions it allows, then the
 * graph. Everything it shows arrives by postMessage from the host; every string is set as text.
 */
import '../../../../webviews/shared/app/l10n';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '../../../../webviews/shared/app/base.css';
import '../../../../webviews/shared/app/status.css';
import './style.css';
import * as l10n from '@vscode/l10n';
import { connect, dropFirstPaint, element } from '../../../../webviews/shared/app/bridge';
import type { PipelineGraphHostMessage, PipelineGraphPageMessage, PipelineHeader } from '../protocol';
import { GraphView, showStatus } from './graphView';

interface PageState {
  focusKey: string;
  scrollLeft: number;
  scrollTop: number;
}

type HeaderAction = 'retry' | 'cancel' | 'openInBrowser' | 'refresh';

const HEADER_BUTTONS: { action: HeaderAction; label: string; icon: string }[] = [
  { action: 'retry', label: l10n.t('Retry Failed Jobs'), icon: 'refresh' },
  { action: 'cancel', label: l10n.t('Cancel'), icon: 'debug-stop' },
  { action: 'openInBrowser', label: l10n.t('Open in Browser'), icon: 'link-external' },
  { action: 'refresh', label: l10n.t('Refresh'), icon: 'sync' },
];

const root = document.getElementById('app') ?? document.body;
const statusIcon = element('span', { className: 'status-icon codicon codicon-circle-outline' });
const title = element('span', { className: 'pipeline-title' });
const meta = element('span', { className: 'muted pipeline-meta' });
const live = element('span', { className: 'live muted hidden' });
live.append(
  element('span', { className: 'codicon codicon-loading codicon-modifier-spin' }),
  ' ',
  l10n.t('Live'),
);
const actions = element('div', { className: 'actions' });
const header = element('div', { className: 'toolbar header' }, statusIcon, title, meta, live, actions);
const notice = element('div', { className: 'notice hidden' });
notice.setAttribute('role', 'status');
const needsNote = element('div', { className: 'needs-note muted hidden' });
const empty = element('div', { className: 'empty muted hidden', text: l10n.t('This pipeline has no jobs.') });
const loading = element('div', { className: 'empty muted', text: l10n.t('Reading the pipeline…') });

let state: PageState = { focusKey: '', scrollLeft: 0, scrollTop: 0 };
let drawnOnce = false;

const view = new GraphView({
  openJob: (jobId) => bridge.post({ type: 'openJob', jobId }),
  jobAction: (jobId, action) => bridge.post({ type: 'jobAction', jobId, action }),
  openDownstream: (pipelineId) => bridge.post({ type: 'openDownstream', pipelineId }),
  focused: (key) => {
    state = { ...state, focusKey: key };
    bridge.saveState(state);
  },
});

const headerButtons = new Map<HeaderAction, HTMLElement>();
for (const { action, label, icon } of HEADER_BUTTONS) {
  const button = document.createElement('vscode-button');
  button.setAttribute('icon', icon);
  button.setAttribute('secondary', '');
  button.dataset['action'] = action;
  button.textContent = label;
  button.addEventListener('click', () => bridge.post({ type: 'pipelineAction', action }));
  headerButtons.set(action, button);
  actions.append(button);
}

root.append(header, notice, needsNote, loading, empty, view.element);

function showHeader(pipeline: PipelineHeader): void {
  showStatus(statusIcon, pipeline);
  statusIcon.title = pipeline.label;
  title.textContent = l10n.t('Pipeline #{0}', pipeline.pipelineId);
  meta.textContent = [pipeline.label, pipeline.ref, pipeline.details, pipeline.projectPath]
    .filter((part) => part.length > 0)
    .join(' · ');
  live.classList.toggle('hidden', !pipeline.live);
  headerButtons.get('retry')?.classList.toggle('hidden', !pipeline.actions.retry);
  headerButtons.get('cancel')?.classList.toggle('hidden', !pipeline.actions.cancel);
  headerButtons.get('openInBrowser')?.classList.toggle('hidden', !pipeline.actions.openInBrowser);
}

function onMessage(message: PipelineGraphHostMessage): void {
  switch (message.type) {
    case 'snapshot': {
      showHeader(message.header);
      loading.classList.add('hidden');
      empty.classList.toggle('hidden', message.graph.nodes.length > 0 || message.graph.downstream.length > 0);
      needsNote.classList.toggle('hidden', message.graph.needsKnown);
      needsNote.textContent = l10n.t(
        "The CI file at this pipeline's commit could not be read: jobs are shown by stage, without their needs.",
      );
      view.draw(message.graph, state.focusKey || undefined);
      dropFirstPaint();
      if (!drawnOnce) {
        drawnOnce = true;
        view.element.scrollTo(state.scrollLeft, state.scrollTop);
        document.documentElement.dataset['graphNodes'] = String(view.nodeCount);
        requestAnimationFrame(() => {
          // The benchmark times the first frame with the graph against an empty webview's (the host's
          // first paint in the HTML marks it first when there is one).
          const marks = document.documentElement.dataset;
          marks['firstPaintAt'] ??= String(Date.now());
          marks['appFirstPaintAt'] = String(Date.now());
          bridge.post({ type: 'rendered', what: 'graph', ms: bridge.elapsed() });
        });
      }
      document.documentElement.dataset['graphDraws'] = String(
        Number(document.documentElement.dataset['graphDraws'] ?? '0') + 1,
      );
      return;
    }
    case 'update': {
      const started = performance.now();
      showHeader(message.header);
      view.update(message.nodes, message.stages, message.downstream);
      // The longest update's own time, for the benchmark (what a live change costs the page).
      const marks = document.documentElement.dataset;
      marks['updateMaxMs'] = String(
        Math.max(Number(marks['updateMaxMs'] ?? '0'), performance.now() - started),
      );
      return;
    }
    case 'busy':
      view.busy(message.jobId, message.busy);
      return;
    case 'notice':
      notice.textContent = message.message;
      notice.className = `notice ${message.level}${message.message ? '' : ' hidden'}`;
      return;
  }
}

const bridge = connect<PipelineGraphPageMessage, PipelineGraphHostMessage, PageState>(onMessage);
state = { ...state, ...bridge.savedState };

let scrollSaved: ReturnType<typeof setTimeout> | undefined;
view.element.addEventListener('scroll', () => {
  if (scrollSaved) return;
  scrollSaved = setTimeout(() => {
    scrollSaved = undefined;
    state = { ...state, scrollLeft: view.element.scrollLeft, scrollTop: view.element.scrollTop };
    bridge.saveState(state);
  }, 200);
});
