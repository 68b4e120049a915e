/*
 * The merge request panel's page (browser code, bundled to dist/webviews/mergeRequest.js). It draws
 * what the host's snapshot says: a header with the actions the server allows, and four tabs (Overview,
 * Changes, Commits, Discussion). Server strings go into the DOM as text; only Markdown (markdown-it
 * without HTML, then DOMPurify) is inserted as HTML. UI state (tab, scroll,
 * collapsed files, diff view) lives in the webview state, so it survives the panel being hidden.
 */
import '../../../../webviews/shared/app/l10n';
import '../../../../webviews/shared/app/elements';
import '../../../../webviews/shared/app/base.css';
import '../../../../webviews/shared/app/discussion.css';
import '../../../../webviews/shared/app/panel.css';
import './style.css';
import { type Bridge, connect, dropFirstPaint, element } from '../../../../webviews/shared/app/bridge';
import type { MergeRequestHostMessage, MergeRequestPageMessage, MergeRequestSnapshot } from '../protocol';
import { ChangesTab } from './changes';
import { commitList } from './commits';
import { type PageState, TABS, type TabId, readState } from './pageState';
import { issueLinks } from './issueLinks';
import { DiscussionTab } from '../../../../webviews/shared/app/discussion';
import { StatusLine } from '../../../../webviews/shared/app/statusLine';
import { onReferenceClick } from '../../../../webviews/shared/app/references';
import { headerChildren } from './header';
import { renderMarkdown } from '../../../../webviews/shared/app/markdown';
import {
  awardsRow,
  badge,
  button,
  personText,
  startAgeClock,
  timeElement,
} from '../../../../webviews/shared/app/widgets';
import * as l10n from '@vscode/l10n';
import { describeApprovals } from '../../../../domain/mergeRequestView';

type Checkbox = HTMLElementTagNameMap['vscode-checkbox'];
type TextArea = HTMLElementTagNameMap['vscode-textarea'];

class App {
  private bridge!: Bridge<MergeRequestPageMessage, PageState>;
  private state!: PageState;
  private firstRender = true;

  private readonly header = element('header', { className: 'panel-header mr-header' });
  private readonly statusLine = new StatusLine();
  private readonly mergeForm = element('div', { className: 'merge-form hidden' });
  private readonly tabs = document.createElement('vscode-tabs');
  private readonly tabHeaders = new Map<TabId, HTMLElement>();
  private readonly panels = new Map<TabId, HTMLElement>();
  private readonly overview = element('div', { className: 'overview' });
  private readonly commits = element('div', { className: 'commits' });
  private changes!: ChangesTab;
  private discussion!: DiscussionTab;
  private mergeMessage: TextArea | undefined;
  private mergeMessageTouched = false;

  start(): void {
    this.bridge = connect<MergeRequestPageMessage, MergeRequestHostMessage, PageState>((message) =>
      this.receive(message),
    );
    onReferenceClick(document.body, (kind, iid) => this.bridge.post({ type: 'openReference', kind, iid }));
    this.state = readState(this.bridge.savedState);
    this.changes = new ChangesTab(this.state.viewMode, this.state.collapsed, {
      openDiff: (file) => this.bridge.post({ type: 'openDiff', file }),
      collapsedChanged: (path, collapsed) => {
        this.state.collapsed[path] = collapsed;
        this.save();
      },
      viewModeChanged: (mode) => {
        this.state.viewMode = mode;
        this.save();
      },
      viewedChanged: (path, viewed) => this.bridge.post({ type: 'setViewed', path, viewed }),
    });
    this.discussion = new DiscussionTab({
      post: (body) => this.bridge.post({ type: 'postNote', body }),
      draftChanged: (body) => this.bridge.post({ type: 'draftChanged', body }),
      edit: (noteId, body) => this.bridge.post({ type: 'editNote', noteId, body }),
      remove: (noteId) => this.bridge.post({ type: 'deleteNote', noteId }),
      award: (noteId, name, add) =>
        this.bridge.post({ type: add ? 'awardEmoji' : 'removeAwardEmoji', name, noteId }),
      openLine: (noteId) => this.bridge.post({ type: 'openNoteLine', noteId }),
      reply: (noteId, body) => this.bridge.post({ type: 'replyToThread', noteId, body }),
      resolve: (noteId, resolved) => this.bridge.post({ type: 'resolveThread', noteId, resolved }),
    });
    this.buildLayout();
    let scrollTimer: ReturnType<typeof setTimeout> | undefined;
    window.addEventListener('scroll', () => {
      if (scrollTimer !== undefined) return;
      scrollTimer = setTimeout(() => {
        scrollTimer = undefined;
        this.state.scroll[this.state.tab] = Math.round(window.scrollY);
        this.save();
      }, 200);
    });
  }

  private save(): void {
    this.bridge.saveState(this.state);
  }

  private buildLayout(): void {
    const app = document.getElementById('app') ?? document.body;
    const labels: Record<TabId, string> = {
      overview: l10n.t('Overview'),
      changes: l10n.t('Changes'),
      commits: l10n.t('Commits'),
      discussion: l10n.t('Discussion'),
    };
    const content: Record<TabId, HTMLElement> = {
      overview: this.overview,
      changes: this.changes.root,
      commits: this.commits,
      discussion: this.discussion.root,
    };
    for (const tab of TABS) {
      const tabHeader = document.createElement('vscode-tab-header');
      tabHeader.setAttribute('slot', 'header');
      tabHeader.dataset['tab'] = tab;
      tabHeader.textContent = labels[tab];
      const panel = document.createElement('vscode-tab-panel');
      panel.append(content[tab]);
      this.tabHeaders.set(tab, tabHeader);
      this.panels.set(tab, panel);
      this.tabs.append(tabHeader);
    }
    for (const tab of TABS) {
      const panel = this.panels.get(tab);
      if (panel) this.tabs.append(panel);
    }
    this.tabs.setAttribute('selected-index', String(TABS.indexOf(this.state.tab)));
    this.tabs.addEventListener('vsc-tabs-select', (event) => {
      const tab = TABS[event.detail.selectedIndex];
      if (!tab || tab === this.state.tab) return;
      this.state.scroll[this.state.tab] = Math.round(window.scrollY);
      this.state.tab = tab;
      this.save();
      requestAnimationFrame(() => window.scrollTo(0, this.state.scroll[tab] ?? 0));
    });
    app.replaceChildren(
      this.header,
      this.statusLine.node,
      this.mergeForm,
      this.tabs,
      element('p', { className: 'muted loading', text: l10n.t('Loading the merge request…') }),
    );
  }

  /** The Discussion tab, scrolled to the thread's first comment. */
  private showThread(noteId: number): void {
    this.tabs.setAttribute('selected-index', String(TABS.indexOf('discussion')));
    this.state.tab = 'discussion';
    this.save();
    requestAnimationFrame(() =>
      document.querySelector(`article[data-note-id="${noteId}"]`)?.scrollIntoView({ block: 'center' }),
    );
  }

  private receive(message: MergeRequestHostMessage): void {
    switch (message.type) {
      case 'snapshot':
        this.render(message.snapshot);
        return;
      case 'loading':
        document.body.classList.toggle('is-loading', message.loading);
        return;
      case 'viewed':
        this.changes.showViewed(new Set(message.paths));
        return;
      case 'status':
        this.statusLine.show(message.text, message.level === 'error');
        return;
      case 'showThread':
        this.showThread(message.noteId);
        return;
      case 'noteResult':
        this.discussion.noteResult(message.action, message.ok, message.noteId, message.message);
        return;
      case 'mergeResult':
        this.statusLine.show(message.message, !message.ok);
        if (message.ok) {
          this.state.mergeFormOpen = false;
          this.save();
          this.mergeForm.classList.add('hidden');
        }
        return;
    }
  }

  private render(snapshot: MergeRequestSnapshot): void {
    document.querySelector('.loading')?.remove();
    this.statusLine.settle();
    this.renderHeader(snapshot);
    this.renderMergeForm(snapshot);
    this.renderOverview(snapshot);
    // A partial snapshot (the merge request as picked) leaves the other tabs to the full one.
    if (!snapshot.partial) {
      this.changes.update(snapshot.files, snapshot.opensDiffs, snapshot.errors);
      this.renderCommits(snapshot);
      this.discussion.update(snapshot.notes, snapshot.draft);
      this.setCount('changes', snapshot.files.length);
      this.setCount('commits', snapshot.commits.length);
      this.setCount('discussion', snapshot.notes.filter((note) => !note.system).length);
    }
    if (this.firstRender) {
      this.firstRender = false;
      const scroll = this.state.scroll[this.state.tab] ?? 0;
      requestAnimationFrame(() => window.scrollTo(0, scroll));
      this.bridge.post({ type: 'rendered', what: 'mergeRequest', ms: Math.round(this.bridge.elapsed()) });
      dropFirstPaint();
      // The wall clock, so that a benchmark can time from the command that opened the panel (the
      // first paint noted it already when there was one).
      requestAnimationFrame(() => {
        document.documentElement.dataset['firstPaintAt'] ??= String(Date.now());
      });
    }
  }

  private setCount(tab: TabId, count: number): void {
    const header = this.tabHeaders.get(tab);
    if (!header) return;
    header.querySelector('vscode-badge')?.remove();
    const counter = badge(String(count));
    counter.setAttribute('variant', 'counter');
    counter.setAttribute('slot', 'content-after');
    header.append(counter);
  }

  private renderHeader(snapshot: MergeRequestSnapshot): void {
    const children = headerChildren(snapshot, {
      run: (action) => {
        this.statusLine.show(l10n.t('Working…'), false, true);
        this.bridge.post({ type: 'action', action });
      },
      toggleMergeForm: () => {
        this.state.mergeFormOpen = !this.state.mergeFormOpen;
        this.save();
        this.mergeForm.classList.toggle('hidden', !this.state.mergeFormOpen);
      },
      refresh: () => this.bridge.post({ type: 'refresh' }),
    });
    this.header.replaceChildren(...children);
  }

  private renderMergeForm(snapshot: MergeRequestSnapshot): void {
    const mr = snapshot.mergeRequest;
    if (!snapshot.actions.merge || !mr.sha) {
      this.mergeForm.classList.add('hidden');
      this.mergeForm.replaceChildren();
      this.mergeMessage = undefined;
      return;
    }
    const sha = mr.sha;
    const previous = this.mergeMessage?.value;
    const message = document.createElement('vscode-textarea');
    message.className = 'merge-message';
    message.setAttribute('rows', '4');
    message.setAttribute('resize', 'vertical');
    message.setAttribute('label', l10n.t('Merge commit message'));
    message.value = this.mergeMessageTouched && previous !== undefined ? previous : mr.defaultMergeMessage;
    message.addEventListener('input', () => {
      this.mergeMessageTouched = true;
    });
    this.mergeMessage = message;
    const checkbox = (label: string, name: string, checked: boolean): Checkbox => {
      const node = document.createElement('vscode-checkbox');
      node.setAttribute('label', label);
      node.dataset['option'] = name;
      node.checked = checked;
      return node;
    };
    const squash = checkbox(l10n.t('Squash commits'), 'squash', snapshot.actions.mergeDefaults.squash);
    const remove = checkbox(
      l10n.t('Delete source branch {0}', mr.sourceBranch),
      'removeSourceBranch',
      snapshot.actions.mergeDefaults.removeSourceBranch,
    );
    const whenPipeline = checkbox(l10n.t('Merge when pipeline succeeds'), 'mergeWhenPipelineSucceeds', false);
    const submit = button(
      l10n.t('Merge'),
      'git-merge',
      () => {
        const text = message.value;
        this.statusLine.show(l10n.t('Merging !{0}…', mr.iid), false, true);
        this.bridge.post({
          type: 'merge',
          options: {
            sha,
            ...(text.trim() !== '' && text !== mr.defaultMergeMessage ? { message: text } : {}),
            squash: squash.checked,
            removeSourceBranch: remove.checked,
            mergeWhenPipelineSucceeds: whenPipeline.checked,
          },
        });
      },
      { action: 'confirmMerge' },
    );
    const cancel = button(
      l10n.t('Cancel'),
      undefined,
      () => {
        this.state.mergeFormOpen = false;
        this.save();
        this.mergeForm.classList.add('hidden');
      },
      { secondary: true },
    );
    this.mergeForm.replaceChildren(
      element('h2', { text: l10n.t('Merge {0} into {1}', mr.sourceBranch, mr.targetBranch) }),
      message,
      element('div', { className: 'merge-options' }, squash, remove, whenPipeline),
      element('p', {
        className: 'muted',
        text: l10n.t(
          'Merges head {0}, the commit shown here; the server refuses if the branch has moved since.',
          sha.slice(0, 8),
        ),
      }),
      element('div', { className: 'merge-buttons' }, submit, cancel),
    );
    this.mergeForm.classList.toggle('hidden', !this.state.mergeFormOpen);
  }

  private renderOverview(snapshot: MergeRequestSnapshot): void {
    const mr = snapshot.mergeRequest;
    const facts = element('dl', { className: 'facts' });
    const fact = (term: string, ...value: (Node | string)[]): void => {
      facts.append(element('dt', { text: term }), element('dd', {}, ...value));
    };
    fact(l10n.t('State'), mr.draft ? l10n.t('{0} (draft / work in progress)', mr.state) : mr.state);
    fact(l10n.t('Branches'), `${mr.sourceBranch} → ${mr.targetBranch}`);
    fact(l10n.t('Author'), personText(mr.author));
    fact(
      l10n.t('Assignee'),
      mr.assignees.length > 0 ? mr.assignees.map(personText).join(', ') : l10n.t('unassigned'),
    );
    const labels = element('span', { className: 'labels' });
    for (const label of mr.labels) labels.append(badge(label, 'label'));
    fact(l10n.t('Labels'), mr.labels.length > 0 ? labels : l10n.t('none'));
    fact(l10n.t('Milestone'), mr.milestone ?? l10n.t('none'));
    // The wording of the trees (domain/mergeRequestStatus.ts); none once merged or closed.
    const status = mr.mergeStatusText || '—';
    fact(
      l10n.t('Merge status'),
      mr.mergeWhenPipelineSucceeds ? l10n.t('{0} (merges when the pipeline succeeds)', status) : status,
    );
    if (snapshot.approvals) fact(l10n.t('Approvals'), describeApprovals(snapshot.approvals));
    if (snapshot.closesIssues.length > 0)
      fact(
        l10n.t('Closes'),
        issueLinks(snapshot.closesIssues, (iid) => this.bridge.post({ type: 'openIssue', iid })),
      );
    if (snapshot.pendingReview)
      fact(
        l10n.t('Your review'),
        snapshot.pendingReview === 1
          ? l10n.t('1 comment pending')
          : l10n.t('{0} comments pending', snapshot.pendingReview),
      );
    fact(l10n.t('Work in progress'), mr.draft ? l10n.t('yes') : l10n.t('no'));
    fact(l10n.t('Votes'), `👍 ${mr.upvotes}  👎 ${mr.downvotes}`);
    if (mr.createdAt) fact(l10n.t('Opened'), timeElement(mr.createdAt));
    if (mr.updatedAt) fact(l10n.t('Updated'), timeElement(mr.updatedAt));
    if (snapshot.viewer)
      fact(l10n.t('Signed in as'), l10n.t('@{0} on {1}', snapshot.viewer, snapshot.accountLabel));

    const description = element('div', { className: 'markdown description' });
    if (mr.description.trim() === '')
      description.append(element('p', { className: 'muted', text: l10n.t('No description.') }));
    else description.append(renderMarkdown(mr.description));

    this.overview.replaceChildren(
      element('h2', { className: 'overview-title', text: mr.title }),
      facts,
      element('h3', { text: l10n.t('Reactions') }),
      awardsRow(snapshot.awards, (name, add) =>
        this.bridge.post({ type: add ? 'awardEmoji' : 'removeAwardEmoji', name }),
      ),
      element('h3', { text: l10n.t('Description') }),
      description,
    );
  }

  private renderCommits(snapshot: MergeRequestSnapshot): void {
    this.commits.replaceChildren(commitList(snapshot.commits));
  }
}

new App().start();
startAgeClock(document);
