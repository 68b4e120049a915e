/*
 * The Changes tab: a file list with badges, then every file of the merge request, each with its own
 * header (collapse, badge, path, line counts, "Open in diff editor") and its diff as a virtual list
 * (`DiffView`): only the rows near the viewport exist, drawn again as the page scrolls, so a diff of
 * thousands of lines opens at once and scrolls without creating elements. A file's diff is parsed
 * when it first comes near the viewport expanded. Names, counts and diff lines all go in as text.
 */
import { type DiffRows, diffRows } from '../../../../domain/diffRows';
import { ownEntry } from '../../../../domain/ownEntry';
import { element, icon } from '../../../../webviews/shared/app/bridge';
import type { FileView } from '../protocol';
import { DiffView, ROW_HEIGHT_PX, type ViewMode } from './diffView';
import * as l10n from '@vscode/l10n';

export type { ViewMode } from './diffView';

/** Files longer than this start collapsed (the person expands them on purpose). */
const COLLAPSE_ABOVE_LINES = 3000;

export interface ChangesCallbacks {
  openDiff(file: number): void;
  /** Collapsed state changed (by path): saved in the page state. */
  collapsedChanged(path: string, collapsed: boolean): void;
  viewModeChanged(mode: ViewMode): void;
  /** The reviewer ticked or cleared a file's "Viewed" (by the path the list shows). */
  viewedChanged(path: string, viewed: boolean): void;
}

type Checkbox = HTMLElementTagNameMap['vscode-checkbox'];

interface FileSection {
  file: FileView;
  root: HTMLElement;
  viewed: Checkbox;
  /** The tick in the file list above the diffs. */
  listViewed: Checkbox;
  body: HTMLElement;
  toggle: HTMLElement;
  collapsed: boolean;
  /** The parsed diff, once the file has come near the viewport. */
  rows?: DiffRows;
  /** The diff drawn in the current view mode. */
  view?: DiffView;
}

export class ChangesTab {
  readonly root = element('div', { className: 'changes' });
  private readonly observer: IntersectionObserver;
  private sections: FileSection[] = [];
  private readonly sectionOfBody = new WeakMap<Element, FileSection>();
  /** Files whose body is near the viewport: the only ones a scroll draws. */
  private readonly nearViewport = new Set<FileSection>();
  private drawScheduled = false;
  private signature = '';
  private viewedCount: HTMLElement | undefined;
  /** The paths the extension last said are viewed; undefined until it says. */
  private viewed: ReadonlySet<string> | undefined;

  constructor(
    private mode: ViewMode,
    private readonly collapsedByPath: Record<string, boolean>,
    private readonly callbacks: ChangesCallbacks,
  ) {
    // A wide margin: a file's diff is parsed a screen or two before it scrolls into view. The root
    // is the document itself because a webview is a cross-origin frame, where the margin of the
    // implicit root (the top-level viewport) is ignored.
    this.observer = new IntersectionObserver((entries) => this.onIntersect(entries), {
      root: document,
      rootMargin: '1600px 0px',
    });
    // Scroll events come once per frame, before it is drawn: the rows are drawn in the same frame.
    document.addEventListener('scroll', () => this.drawNearViewport(), { passive: true });
    window.addEventListener('resize', () => this.scheduleDraw());
  }

  /** Draws the files; unchanged files (same paths and diffs) keep what is already rendered. */
  update(files: readonly FileView[], opensDiffs: boolean, errors: readonly string[]): void {
    const signature = JSON.stringify([files.map((file) => [file.path, file.diff.length]), opensDiffs]);
    if (signature === this.signature) return;
    this.signature = signature;
    this.observer.disconnect();
    this.nearViewport.clear();
    this.root.replaceChildren();
    this.sections = [];

    const toolbar = element('div', { className: 'changes-toolbar' });
    const totals = files.reduce(
      (sum, file) => ({ added: sum.added + file.added, removed: sum.removed + file.removed }),
      { added: 0, removed: 0 },
    );
    toolbar.append(
      element('span', {
        className: 'muted',
        text: files.length === 1 ? l10n.t('1 file changed') : l10n.t('{0} files changed', files.length),
      }),
      element('span', { className: 'stat-added', text: `+${totals.added}` }),
      element('span', { className: 'stat-removed', text: `−${totals.removed}` }),
    );
    this.viewedCount = element('span', { className: 'muted viewed-count' });
    toolbar.append(this.viewedCount, element('span', { className: 'spacer' }));
    const unified = modeButton(l10n.t('Unified'), 'list-flat', 'line-by-line');
    const split = modeButton(l10n.t('Side by side'), 'split-horizontal', 'side-by-side');
    const expandAll = button(l10n.t('Expand all'), 'expand-all', () => this.setAllCollapsed(false), true);
    const collapseAll = button(
      l10n.t('Collapse all'),
      'collapse-all',
      () => this.setAllCollapsed(true),
      true,
    );
    toolbar.append(unified, split, expandAll, collapseAll);
    const setMode = (mode: ViewMode): void => {
      unified.toggleAttribute('secondary', mode !== 'line-by-line');
      split.toggleAttribute('secondary', mode !== 'side-by-side');
    };
    unified.addEventListener('click', () => this.setMode('line-by-line', setMode));
    split.addEventListener('click', () => this.setMode('side-by-side', setMode));
    setMode(this.mode);
    this.root.append(toolbar);

    for (const error of errors.filter((text) => text.startsWith(l10n.t('Changes:')))) {
      this.root.append(element('p', { className: 'error-text', text: error }));
    }
    if (files.length === 0) {
      this.root.append(element('p', { className: 'muted', text: l10n.t('No changes.') }));
      return;
    }

    const listTicks = this.fileList(files);

    files.forEach((file, index) => {
      const section = this.fileSection(
        file,
        index,
        opensDiffs,
        listTicks[index] ?? viewedCheckbox(file, () => undefined),
      );
      this.sections.push(section);
      this.root.append(section.root);
      this.prepareBody(section);
    });
    this.showViewed(this.viewed);
  }

  /** The list of files above the diffs: a tick, the badge, the path (a link to its diff), counts. */
  private fileList(files: readonly FileView[]): Checkbox[] {
    const list = element('ul', { className: 'file-list' });
    const listTicks: Checkbox[] = [];
    files.forEach((file, index) => {
      const tick = viewedCheckbox(file, (viewed) => this.tick(index, viewed));
      listTicks.push(tick);
      const link = element('a', { className: 'file-link', text: file.path, title: file.path });
      link.href = '#';
      link.addEventListener('click', (event) => {
        event.preventDefault();
        const section = this.sections[index];
        if (!section) return;
        this.setCollapsed(section, false);
        section.root.scrollIntoView({ block: 'start' });
      });
      list.append(
        element(
          'li',
          {},
          tick,
          badge(file),
          link,
          element('span', { className: 'stat-added', text: `+${file.added}` }),
          element('span', { className: 'stat-removed', text: `−${file.removed}` }),
        ),
      );
    });
    this.root.append(list);
    return listTicks;
  }

  /** The extension's word on which files are viewed (after each tick, here or in a tree). */
  showViewed(viewed: ReadonlySet<string> | undefined): void {
    this.viewed = viewed;
    if (!viewed) return;
    let ticked = 0;
    for (const section of this.sections) {
      const checked = viewed.has(section.file.path);
      if (checked) ticked += 1;
      section.viewed.checked = checked;
      section.listViewed.checked = checked;
      section.root.classList.toggle('viewed', checked);
    }
    if (this.viewedCount)
      this.viewedCount.textContent = l10n.t('{0} of {1} viewed', ticked, this.sections.length);
  }

  /** A tick: the file folds away when viewed (as on GitLab's page), and the extension keeps it. */
  private tick(index: number, viewed: boolean): void {
    const section = this.sections[index];
    if (!section) return;
    section.viewed.checked = viewed;
    section.listViewed.checked = viewed;
    section.root.classList.toggle('viewed', viewed);
    if (viewed) this.setCollapsed(section, true);
    this.callbacks.viewedChanged(section.file.path, viewed);
  }

  private setMode(mode: ViewMode, showMode: (mode: ViewMode) => void): void {
    if (mode === this.mode) return;
    this.mode = mode;
    showMode(mode);
    this.callbacks.viewModeChanged(mode);
    this.root.dataset['mode'] = mode;
    for (const section of this.sections) {
      section.view = undefined;
      this.prepareBody(section);
    }
    this.scheduleDraw();
  }

  private setAllCollapsed(collapsed: boolean): void {
    for (const section of this.sections) this.setCollapsed(section, collapsed);
  }

  private fileSection(file: FileView, index: number, opensDiffs: boolean, listViewed: Checkbox): FileSection {
    const root = element('section', { className: 'file' });
    root.dataset['path'] = file.path;
    const toggle = element('button', { className: 'file-toggle', title: l10n.t('Collapse or expand') });
    toggle.type = 'button';
    const header = element('div', { className: 'file-header' }, toggle, badge(file));
    const name = element('span', { className: 'file-name', text: file.path, title: file.path });
    header.append(name);
    if (file.badge === 'renamed') {
      header.append(element('span', { className: 'muted file-old', text: l10n.t('from {0}', file.oldPath) }));
    }
    header.append(
      element('span', { className: 'spacer' }),
      element('span', { className: 'stat-added', text: `+${file.added}` }),
      element('span', { className: 'stat-removed', text: `−${file.removed}` }),
    );
    const viewed = viewedCheckbox(file, (checked) => this.tick(index, checked));
    viewed.setAttribute('label', l10n.t('Viewed'));
    header.append(viewed);
    if (opensDiffs) {
      const open = button(l10n.t('Open in diff editor'), 'diff', () => this.callbacks.openDiff(index), true);
      open.classList.add('open-diff');
      header.append(open);
    }
    const body = element('div', { className: 'file-body' });
    root.append(header, body);
    const saved = ownEntry(this.collapsedByPath, file.path);
    const section: FileSection = {
      file,
      root,
      viewed,
      listViewed,
      body,
      toggle,
      collapsed: saved ?? file.lines > COLLAPSE_ABOVE_LINES,
    };
    this.sectionOfBody.set(body, section);
    toggle.addEventListener('click', () => this.setCollapsed(section, !section.collapsed));
    header.addEventListener('dblclick', () => this.setCollapsed(section, !section.collapsed));
    this.showCollapsed(section);
    return section;
  }

  private setCollapsed(section: FileSection, collapsed: boolean): void {
    if (section.collapsed === collapsed) return;
    section.collapsed = collapsed;
    this.collapsedByPath[section.file.path] = collapsed;
    this.callbacks.collapsedChanged(section.file.path, collapsed);
    this.showCollapsed(section);
  }

  private showCollapsed(section: FileSection): void {
    section.root.classList.toggle('collapsed', section.collapsed);
    section.body.classList.toggle('hidden', section.collapsed);
    section.toggle.replaceChildren(icon(section.collapsed ? 'chevron-right' : 'chevron-down'));
    section.toggle.setAttribute('aria-expanded', String(!section.collapsed));
    if (!section.collapsed) this.scheduleDraw();
  }

  /**
   * The file's body: a message for a diff without lines, else its drawn diff, or until the file
   * nears the viewport a placeholder as tall as the diff will be.
   */
  private prepareBody(section: FileSection): void {
    const { file, body } = section;
    if (file.lines === 0) {
      const what =
        file.badge === 'renamed'
          ? l10n.t('Renamed without changes.')
          : file.badge === 'deleted'
            ? l10n.t('Deleted (no text diff).')
            : l10n.t('No text changes (binary file or mode change).');
      body.replaceChildren(element('p', { className: 'muted empty-diff', text: what }));
      return;
    }
    if (section.rows) {
      section.view = new DiffView(section.rows, this.mode);
      body.replaceChildren(section.view.root);
    } else {
      const placeholder = element('div', { className: 'diff-lines pending' });
      placeholder.style.height = `${file.lines * ROW_HEIGHT_PX}px`;
      body.replaceChildren(placeholder);
    }
    this.observer.observe(body);
  }

  private onIntersect(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const section = this.sectionOfBody.get(entry.target);
      if (!section) continue;
      if (entry.isIntersecting) this.nearViewport.add(section);
      else this.nearViewport.delete(section);
    }
    this.scheduleDraw();
  }

  private scheduleDraw(): void {
    if (this.drawScheduled) return;
    this.drawScheduled = true;
    requestAnimationFrame(() => {
      this.drawScheduled = false;
      this.drawNearViewport();
    });
  }

  /** Draws the rows on screen of every expanded file near the viewport (all reads, then all writes). */
  private drawNearViewport(): void {
    const views: DiffView[] = [];
    for (const section of this.nearViewport) {
      if (section.collapsed || !section.root.isConnected) continue;
      if (!section.view) {
        section.rows ??= diffRows(section.file.diff);
        section.view = new DiffView(section.rows, this.mode);
        section.body.replaceChildren(section.view.root);
      }
      views.push(section.view);
    }
    const ranges = views.map((view) => view.rangeInViewport());
    views.forEach((view, index) => view.draw(ranges[index] ?? [0, 0]));
  }
}

const BADGE_TEXT: Record<FileView['badge'], string> = {
  added: l10n.t('added'),
  deleted: l10n.t('deleted'),
  renamed: l10n.t('renamed'),
  modified: l10n.t('modified'),
};

function badge(file: FileView): HTMLElement {
  const node = document.createElement('vscode-badge');
  node.className = `file-badge badge-${file.badge}`;
  node.textContent = BADGE_TEXT[file.badge];
  return node;
}

/** A file's "Viewed" box; its label names the file for screen readers. */
function viewedCheckbox(file: FileView, changed: (viewed: boolean) => void): Checkbox {
  const node = document.createElement('vscode-checkbox');
  node.className = 'viewed-tick';
  node.setAttribute('aria-label', l10n.t('Viewed: {0}', file.path));
  node.title = l10n.t('Mark as viewed');
  node.addEventListener('change', () => changed(node.checked));
  return node;
}

function button(label: string, codicon: string, onClick: () => void, secondary = false): HTMLElement {
  const node = document.createElement('vscode-button');
  node.setAttribute('icon', codicon);
  if (secondary) node.setAttribute('secondary', '');
  node.textContent = label;
  node.addEventListener('click', onClick);
  return node;
}

function modeButton(label: string, codicon: string, mode: ViewMode): HTMLElement {
  const node = button(label, codicon, () => undefined);
  node.dataset['mode'] = mode;
  return node;
}
