/*
 * The issue panel's page (browser code, bundled to dist/webviews/issues.js): header with the actions,
 * the facts (labels in their server colours, checked), the description as safe Markdown whose task
 * boxes can be ticked, the merge requests related to it, and the discussion (shared with the merge
 * request panel). Server strings go into the DOM as text; only Markdown passes the one door.
 */
import '../../../../webviews/shared/app/l10n';
import '../../../../webviews/shared/app/elements';
import '../../../../webviews/shared/app/base.css';
import '../../../../webviews/shared/app/discussion.css';
import '../../../../webviews/shared/app/panel.css';
import './style.css';
import { type Bridge, connect, dropFirstPaint, element } from '../../../../webviews/shared/app/bridge';
import { DiscussionTab } from '../../../../webviews/shared/app/discussion';
import { StatusLine } from '../../../../webviews/shared/app/statusLine';
import { onReferenceClick } from '../../../../webviews/shared/app/references';
import { renderMarkdown } from '../../../../webviews/shared/app/markdown';
import {
  awardsRow,
  badge,
  button,
  personText,
  startAgeClock,
  timeElement,
} from '../../../../webviews/shared/app/widgets';
import type { IssueHostMessage, IssuePageMessage, IssueSnapshot, LabelView } from '../protocol';
import * as l10n from '@vscode/l10n';

type TextArea = HTMLElementTagNameMap['vscode-textarea'];

function labelChip(label: LabelView): HTMLElement {
  const chip = element('span', { className: 'label-chip', text: label.name });
  // Colours were checked by the host (`#rgb`/`#rrggbb` only) and are set through the CSSOM.
  if (label.color) chip.style.backgroundColor = label.color;
  if (label.textColor) chip.style.color = label.textColor;
  return chip;
}

function fact(term: string, ...value: (Node | string)[]): HTMLElement[] {
  return [element('dt', { text: term }), element('dd', {}, ...value)];
}

class App {
  private bridge!: Bridge<IssuePageMessage, Record<string, unknown>>;
  private readonly header = element('header', { className: 'panel-header issue-header' });
  private readonly statusLine = new StatusLine();
  private readonly facts = element('dl', { className: 'facts' });
  private readonly description = element('div', { className: 'description' });
  private readonly awards = element('div');
  private readonly related = element('section', { className: 'related-section hidden' });
  private discussion!: DiscussionTab;
  private snapshot: IssueSnapshot | undefined;
  /** The description being edited (kept across snapshots until saved or cancelled). */
  private editing: string | undefined;
  private saving = false;

  start(): void {
    this.bridge = connect<IssuePageMessage, IssueHostMessage>((message) => this.receive(message));
    onReferenceClick(document.body, (kind, iid) => this.bridge.post({ type: 'openReference', kind, iid }));
    this.discussion = new DiscussionTab({
      post: (body) => this.bridge.post({ type: 'postNote', body }),
      draftChanged: (body) => this.bridge.post({ type: 'draftChanged', body }),
      edit: (noteId, body) => this.bridge.post({ type: 'editNote', noteId, body }),
      remove: (noteId) => this.bridge.post({ type: 'deleteNote', noteId }),
      award: (noteId, name, add) =>
        this.bridge.post({ type: add ? 'awardEmoji' : 'removeAwardEmoji', name, noteId }),
      openLine: () => undefined,
      reply: (noteId, body) => this.bridge.post({ type: 'replyToThread', noteId, body }),
      resolve: () => undefined,
    });
    const app = document.getElementById('app') ?? document.body;
    app.replaceChildren(
      this.header,
      this.statusLine.node,
      this.facts,
      this.description,
      this.awards,
      this.related,
      element('section', {}, element('h2', { text: l10n.t('Discussion') }), this.discussion.root),
      element('p', { className: 'muted loading', text: l10n.t('Loading the issue…') }),
    );
    startAgeClock(app);
  }

  private receive(message: IssueHostMessage): void {
    switch (message.type) {
      case 'snapshot':
        this.render(message.snapshot);
        return;
      case 'loading':
        document.body.classList.toggle('is-loading', message.loading);
        return;
      case 'status':
        this.statusLine.show(message.text, message.level === 'error');
        return;
      case 'noteResult':
        this.discussion.noteResult(message.action, message.ok, message.noteId, message.message);
        return;
      case 'descriptionResult':
        this.saving = false;
        if (message.ok) this.editing = undefined;
        else this.statusLine.show(message.message ?? l10n.t('The description was not saved.'), true);
        if (this.snapshot) this.renderDescription(this.snapshot);
        return;
    }
  }

  private action(
    label: string,
    codicon: string,
    action: 'close' | 'reopen' | 'edit' | 'openInBrowser',
  ): HTMLElement {
    return button(label, codicon, () => this.bridge.post({ type: 'action', action }), {
      secondary: action !== 'close',
      action,
    });
  }

  private render(snapshot: IssueSnapshot): void {
    this.snapshot = snapshot;
    document.querySelector('.loading')?.remove();
    dropFirstPaint();
    const { issue } = snapshot;
    const closed = issue.state === 'closed';
    const actions = element('div', { className: 'issue-actions' });
    if (snapshot.canEdit) {
      actions.append(
        closed
          ? this.action(l10n.t('Reopen'), 'issue-reopened', 'reopen')
          : this.action(l10n.t('Close'), 'issue-closed', 'close'),
        this.action(l10n.t('Edit…'), 'edit', 'edit'),
      );
    }
    if (issue.webUrl)
      actions.append(this.action(l10n.t('Open in Browser'), 'link-external', 'openInBrowser'));
    actions.append(
      button(l10n.t('Refresh'), 'refresh', () => this.bridge.post({ type: 'refresh' }), {
        secondary: true,
        action: 'refresh',
      }),
    );
    this.header.replaceChildren(
      element(
        'h1',
        { className: 'panel-title issue-title' },
        element('span', { className: 'panel-iid issue-iid', text: `#${issue.iid}` }),
        element('span', { text: issue.title }),
      ),
      element(
        'div',
        { className: 'panel-meta issue-meta' },
        badge(closed ? l10n.t('Closed') : l10n.t('Open'), closed ? 'state-closed' : 'state-opened'),
        ...(issue.confidential ? [badge(l10n.t('Confidential'), 'confidential')] : []),
        element('span', { className: 'muted', text: `${snapshot.projectPath} · ${snapshot.accountLabel}` }),
      ),
      actions,
    );
    this.renderFacts(snapshot);
    this.renderDescription(snapshot);
    this.awards.replaceChildren(
      awardsRow(snapshot.awards, (name, add) =>
        this.bridge.post({ type: add ? 'awardEmoji' : 'removeAwardEmoji', name }),
      ),
    );
    this.renderRelated(snapshot);
    if (!snapshot.partial) this.discussion.update(snapshot.notes, snapshot.draft);
    for (const error of snapshot.errors) this.statusLine.show(error, true);
  }

  private renderFacts(snapshot: IssueSnapshot): void {
    const { issue } = snapshot;
    const rows: HTMLElement[] = [];
    if (issue.author)
      rows.push(...fact(l10n.t('Author'), personText(issue.author), ' ', timeElement(issue.createdAt)));
    rows.push(
      ...fact(
        l10n.t('Assignees'),
        issue.assignees.length > 0 ? issue.assignees.map(personText).join(', ') : l10n.t('None'),
      ),
    );
    if (issue.labels.length > 0)
      rows.push(
        ...fact(l10n.t('Labels'), element('span', { className: 'labels' }, ...issue.labels.map(labelChip))),
      );
    if (issue.milestone) rows.push(...fact(l10n.t('Milestone'), issue.milestone));
    if (issue.dueDate) rows.push(...fact(l10n.t('Due'), issue.dueDate));
    if (issue.tasks)
      rows.push(...fact(l10n.t('Tasks'), l10n.t('{0} of {1} done', issue.tasks.done, issue.tasks.count)));
    if (issue.closedAt)
      rows.push(
        ...fact(
          l10n.t('Closed'),
          issue.closedBy ? `${personText(issue.closedBy)} ` : '',
          timeElement(issue.closedAt),
        ),
      );
    this.facts.replaceChildren(...rows);
  }

  private renderDescription(snapshot: IssueSnapshot): void {
    const { issue } = snapshot;
    if (this.editing !== undefined) {
      this.renderEditor();
      return;
    }
    const body = element('div', { className: 'markdown' });
    if (issue.description.trim() === '')
      body.append(element('p', { className: 'muted', text: l10n.t('No description.') }));
    else body.append(renderMarkdown(issue.description));
    if (snapshot.canEdit && !snapshot.partial) this.makeTasksTickable(body);
    const tools = element('div', { className: 'issue-actions' });
    if (snapshot.canEdit && !snapshot.partial)
      tools.append(
        button(
          l10n.t('Edit Description'),
          'edit',
          () => {
            this.editing = issue.description;
            this.renderEditor();
          },
          { secondary: true, action: 'editDescription' },
        ),
      );
    this.description.replaceChildren(body, tools);
  }

  /** Each task box sends its place among the boxes; the host finds the same task in the source. */
  private makeTasksTickable(body: HTMLElement): void {
    body.querySelectorAll<HTMLElement>('.task-box').forEach((box, index) => {
      box.setAttribute('aria-disabled', 'false');
      box.tabIndex = 0;
      box.title = l10n.t('Tick or clear this task');
      const toggle = (): void => {
        const checked = box.getAttribute('aria-checked') !== 'true';
        box.setAttribute('aria-checked', String(checked));
        box.textContent = checked ? '☑' : '☐';
        this.bridge.post({ type: 'setTask', index, checked });
      };
      box.addEventListener('click', toggle);
      box.addEventListener('keydown', (event: KeyboardEvent) => {
        if (event.key !== ' ' && event.key !== 'Enter') return;
        event.preventDefault();
        toggle();
      });
    });
  }

  private renderEditor(): void {
    const editor: TextArea = document.createElement('vscode-textarea');
    editor.className = 'description-editor';
    editor.setAttribute('rows', '12');
    editor.setAttribute('resize', 'vertical');
    editor.setAttribute('label', l10n.t('Description'));
    editor.value = this.editing ?? '';
    editor.addEventListener('input', () => {
      this.editing = editor.value;
    });
    const save = button(
      l10n.t('Save'),
      'check',
      () => {
        if (this.saving) return;
        this.saving = true;
        save.setAttribute('disabled', '');
        this.bridge.post({ type: 'saveDescription', body: editor.value });
      },
      { action: 'saveDescription' },
    );
    if (this.saving) save.setAttribute('disabled', '');
    const cancel = button(
      l10n.t('Cancel'),
      undefined,
      () => {
        this.editing = undefined;
        if (this.snapshot) this.renderDescription(this.snapshot);
      },
      { secondary: true, action: 'cancelDescription' },
    );
    this.description.replaceChildren(editor, element('div', { className: 'issue-actions' }, save, cancel));
  }

  private renderRelated(snapshot: IssueSnapshot): void {
    this.related.classList.toggle('hidden', snapshot.related.length === 0);
    const list = element('ul', { className: 'related' });
    snapshot.related.forEach((mergeRequest, index) => {
      const link = element('a', { text: `!${mergeRequest.iid} ${mergeRequest.title}` });
      link.tabIndex = 0;
      link.dataset['mergeRequest'] = String(mergeRequest.iid);
      const open = (): void => this.bridge.post({ type: 'openMergeRequest', index });
      link.addEventListener('click', open);
      link.addEventListener('keydown', (event: KeyboardEvent) => {
        if (event.key === 'Enter') open();
      });
      list.append(
        element(
          'li',
          {},
          link,
          element('span', {
            className: 'muted related-state',
            text: mergeRequest.closes
              ? l10n.t('{0}, closes this issue when merged', mergeRequest.state)
              : mergeRequest.state,
          }),
        ),
      );
    });
    this.related.replaceChildren(element('h2', { text: l10n.t('Merge requests') }), list);
  }
}

new App().start();
