/*
 * The job trace page: a header with the job's state and the actions it allows, a search bar, and the
 * trace view. Everything it shows arrives by postMessage from the host; every string is set as text.
 */
import '../../../../webviews/shared/app/l10n';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import '../../../../webviews/shared/app/base.css';
import '../../../../webviews/shared/app/status.css';
import './style.css';
import { connect, dropFirstPaint, element } from '../../../../webviews/shared/app/bridge';
import type { JobPanelAction, JobTraceHostMessage, JobTracePageMessage, JobView } from '../protocol';
import { TraceView, type TraceViewState } from './traceView';
import * as l10n from '@vscode/l10n';
import { formatBytes } from '../../../../domain/jobActions';

interface PageState {
  trace: TraceViewState;
  query: string;
}

const ACTION_BUTTONS: { action: JobPanelAction; label: string; icon: string }[] = [
  { action: 'retry', label: l10n.t('Retry'), icon: 'refresh' },
  { action: 'play', label: l10n.t('Run'), icon: 'play' },
  { action: 'cancel', label: l10n.t('Cancel'), icon: 'debug-stop' },
  { action: 'erase', label: l10n.t('Erase'), icon: 'trash' },
  { action: 'downloadArtifacts', label: l10n.t('Artifacts'), icon: 'cloud-download' },
  { action: 'openInBrowser', label: l10n.t('Open in Browser'), icon: 'link-external' },
];

const root = document.getElementById('app') ?? document.body;

const statusIcon = element('span', { className: 'status-icon codicon codicon-circle-outline' });
const title = element('span', { className: 'job-title' });
const meta = element('span', { className: 'muted job-meta' });
const following = element('span', { className: 'following muted hidden' });
following.append(
  element('span', { className: 'codicon codicon-loading codicon-modifier-spin' }),
  ' ',
  l10n.t('Following'),
);
// From the first moment until the first read has all of the trace: a long one takes seconds.
const reading = element('div', { className: 'reading muted' });
reading.setAttribute('role', 'status');
const readingText = element('span', { text: l10n.t('Reading the trace…') });
reading.append(
  element('span', { className: 'codicon codicon-loading codicon-modifier-spin' }),
  ' ',
  readingText,
);
const notice = element('div', { className: 'notice hidden' });
notice.setAttribute('role', 'status');

const header = element('div', { className: 'toolbar header' }, statusIcon, title, meta, following);
const actions = element('div', { className: 'actions' });
header.append(actions);
const actionButtons = new Map<JobPanelAction, HTMLElement>();
for (const { action, label, icon } of ACTION_BUTTONS) {
  const button = document.createElement('vscode-button');
  button.setAttribute('icon', icon);
  button.setAttribute('secondary', '');
  button.dataset['action'] = action;
  button.textContent = label;
  button.classList.add('hidden');
  button.addEventListener('click', () => bridge.post({ type: 'action', action }));
  actionButtons.set(action, button);
  actions.append(button);
}

const searchField = document.createElement('vscode-textfield');
searchField.setAttribute('placeholder', l10n.t('Search the trace'));
searchField.setAttribute('aria-label', l10n.t('Search the trace'));
searchField.classList.add('search');
const matchCount = element('span', { className: 'muted match-count' });
const tools = element('div', { className: 'toolbar tools' }, searchField, matchCount);

function toolButton(icon: string, label: string, onClick: () => void, id: string): HTMLElement {
  const button = document.createElement('vscode-button');
  button.setAttribute('icon', icon);
  button.setAttribute('secondary', '');
  button.setAttribute('title', label);
  button.setAttribute('aria-label', label);
  button.id = id;
  button.textContent = label;
  button.addEventListener('click', onClick);
  tools.append(button);
  return button;
}

const viewport = element('div', { className: 'viewport' });
viewport.tabIndex = 0;
viewport.setAttribute('aria-label', l10n.t('Job trace'));
const empty = element('div', { className: 'empty muted hidden', text: l10n.t('The trace is empty.') });
root.append(header, reading, notice, tools, empty, viewport);

let currentQuery = '';
let saveTimer: ReturnType<typeof setTimeout> | undefined;
let searchTimer: ReturnType<typeof setTimeout> | undefined;
let jobActive = false;

function saveState(): void {
  if (saveTimer) return;
  saveTimer = setTimeout(() => {
    saveTimer = undefined;
    bridge.saveState({ trace: view.state, query: currentQuery });
  }, 200);
}

function showJob(job: JobView, isFollowing: boolean): void {
  jobActive = isFollowing;
  const [name = 'circle-outline', modifier] = job.statusCodicon.split('~');
  statusIcon.className = `status-icon status-${job.status.replace(/[^a-z_]/g, '')} codicon codicon-${name.replace(/[^a-z0-9-]/g, '')}${modifier === 'spin' ? ' codicon-modifier-spin' : ''}`;
  statusIcon.title = job.statusLabel;
  statusIcon.setAttribute('aria-label', job.statusLabel);
  title.textContent = `${job.name} #${job.id}`;
  meta.textContent = [job.statusLabel, job.stage, job.ref, job.duration, job.projectPath]
    .filter((part) => part.length > 0)
    .join(' · ');
  following.classList.toggle('hidden', !isFollowing);
  for (const [action, button] of actionButtons) button.classList.toggle('hidden', !job.actions[action]);
  updateEmpty();
}

function updateEmpty(): void {
  empty.classList.toggle('hidden', view.lineCount > 0 || view.isBusy);
  if (view.lineCount === 0 && !view.isBusy) {
    empty.textContent = jobActive
      ? l10n.t('Waiting for the job to write its trace…')
      : l10n.t('The trace is empty.');
  }
}

async function runSearch(query: string): Promise<void> {
  currentQuery = query;
  saveState();
  const count = await view.search(query);
  // A later search (the user still typing) shows its own count.
  if (query !== currentQuery) return;
  matchCount.textContent =
    query.length === 0 ? '' : count === 0 ? l10n.t('No results') : l10n.t('1 of {0}', count);
}

/** Calls back as the next frame is drawn, or soon if no frame comes (a panel in the background). */
function afterNextFrame(callback: () => void): void {
  let called = false;
  const once = (): void => {
    if (called) return;
    called = true;
    callback();
  };
  requestAnimationFrame(once);
  setTimeout(once, 250);
}

let openedAtError = false;

function onMessage(message: JobTraceHostMessage): void {
  if ((message.type === 'snapshot' || message.type === 'append') && message.bytes.length > 0) {
    // When the first text arrived: the benchmark tells waiting for the host from the page's own work.
    document.documentElement.dataset['firstBytesMs'] ??= String(Math.round(bridge.elapsed()));
  }
  switch (message.type) {
    case 'snapshot':
      view.drawOptions = { boldBright: message.boldBright };
      showTimes(message.showTimestamps);
      view.feed(message.bytes, true);
      reading.classList.toggle('hidden', !message.reading);
      showJob(message.job, message.following);
      afterNextFrame(() => bridge.post({ type: 'snapshotDrawn' }));
      break;
    case 'append':
      // Each piece parsed lets the host send another: a long trace comes as fast as it is parsed.
      view.feed(message.bytes, message.replaced, () => bridge.post({ type: 'parsed' }), message.gzip);
      updateEmpty();
      break;
    case 'job':
      showJob(message.job, message.following);
      break;
    case 'complete':
      // Once, on a page opened afresh: a reloaded one keeps its reading place.
      if (message.openAt === 'firstError' && !openedAtError && !saved.trace && view.isAtEnd) {
        openedAtError = true;
        void view.revealFirstError();
      }
      break;
    case 'progress':
      reading.classList.toggle('hidden', message.done);
      readingText.textContent = l10n.t('Reading the trace… {0} received', formatBytes(message.receivedBytes));
      break;
    case 'notice':
      notice.textContent = message.message;
      notice.className = `notice ${message.level}${message.message.length === 0 ? ' hidden' : ''}`;
      break;
  }
}

// The host answers `ready` asynchronously, so `view` below exists before onMessage first runs.
const bridge = connect<JobTracePageMessage, JobTraceHostMessage, PageState>(onMessage);
const saved = bridge.savedState;
currentQuery = saved.query ?? '';
const view = new TraceView(
  viewport,
  {
    onFirstPaint: () => {
      const ms = Math.round(bridge.elapsed());
      // Also on the page, where the rendering benchmark reads it.
      document.documentElement.dataset['firstPaintMs'] = String(ms);
      dropFirstPaint();
      // The wall clock too, so that a benchmark can time from the command that opened the panel (the
      // first paint noted it already when there was one).
      const now = String(Date.now());
      document.documentElement.dataset['appFirstPaintAt'] = now;
      document.documentElement.dataset['firstPaintAt'] ??= now;
      bridge.post({ type: 'rendered', what: 'trace', ms });
    },
    onIdle: () => {
      document.documentElement.dataset['parsedLines'] = String(view.lineCount);
      // The host sends a long trace in pieces: the benchmark waits until all of it is parsed.
      document.documentElement.dataset['parsedBytes'] = String(view.parsedBytes);
      updateEmpty();
      // No rows to draw (an empty trace): the page shows its own "no output" now.
      if (view.lineCount === 0) dropFirstPaint();
      if (currentQuery.length > 0 && view.matchCount === 0) void runSearch(currentQuery);
    },
    onStateChange: saveState,
    onTimestamps: () => timestampsButton.classList.remove('hidden'),
    onError: (message) => bridge.post({ type: 'pageError', message: message.slice(0, 2000) }),
  },
  saved.trace,
);
(searchField as HTMLElement & { value: string }).value = currentQuery;

searchField.addEventListener('input', () => {
  const value = (searchField as HTMLElement & { value: string }).value;
  if (searchTimer) clearTimeout(searchTimer);
  searchTimer = setTimeout(() => void runSearch(value), 150);
});
searchField.addEventListener('keydown', (event: KeyboardEvent) => {
  if (event.key === 'Enter') {
    event.preventDefault();
    const position = view.nextMatch(event.shiftKey ? -1 : 1);
    if (position > 0) matchCount.textContent = l10n.t('{0} of {1}', position, view.matchCount);
  } else if (event.key === 'Escape') {
    (searchField as HTMLElement & { value: string }).value = '';
    void runSearch('');
  }
});

toolButton(
  'arrow-up',
  l10n.t('Previous match'),
  () => {
    const position = view.nextMatch(-1);
    if (position > 0) matchCount.textContent = l10n.t('{0} of {1}', position, view.matchCount);
  },
  'previous-match',
);
toolButton(
  'arrow-down',
  l10n.t('Next match'),
  () => {
    const position = view.nextMatch(1);
    if (position > 0) matchCount.textContent = l10n.t('{0} of {1}', position, view.matchCount);
  },
  'next-match',
);
toolButton(
  'error',
  l10n.t('First error'),
  () => {
    void view.revealFirstError().then((found) => {
      if (!found) matchCount.textContent = l10n.t('No error line found');
    });
  },
  'first-error',
);
toolButton('fold-up', l10n.t('Top'), () => view.scrollToTop(), 'scroll-top');
toolButton('fold-down', l10n.t('Bottom'), () => view.scrollToBottom(), 'scroll-bottom');
toolButton('copy', l10n.t('Copy'), () => bridge.post({ type: 'copy' }), 'copy-trace');
toolButton('save', l10n.t('Save Raw'), () => bridge.post({ type: 'saveRaw' }), 'save-trace');
toolButton('debug-console', l10n.t('Tail in Output'), () => bridge.post({ type: 'tail' }), 'tail-trace');
const timestampsButton = toolButton(
  'clock',
  l10n.t('Timestamps'),
  () => showTimes(!showingTimes),
  'toggle-timestamps',
);
timestampsButton.classList.add('hidden');
timestampsButton.setAttribute('aria-pressed', 'false');

/** The runner's timestamps in a gutter (the trace has them with GitLab Runner 17's FF_TIMESTAMPS). */
let showingTimes = false;
function showTimes(show: boolean): void {
  showingTimes = show;
  root.classList.toggle('show-times', show);
  timestampsButton.setAttribute('aria-pressed', String(show));
}

document.addEventListener('keydown', (event) => {
  if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') {
    event.preventDefault();
    searchField.focus();
  }
});
