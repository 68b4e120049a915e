/*
 * The Changes tab: a file list with badges, then every file of the merge request, each with its own
 * header (collapse, badge, path, line counts, "Open in diff editor"). Diffs are drawn with diff2html,
 * lazily: each file is cut into pieces of a hundred lines (`chunkDiff`), and a piece is rendered
 * only once it comes near the viewport and its file is expanded, one piece per task, so a diff of
 * thousands of lines keeps scrolling smooth; pieces off screen skip layout and paint
 * (`content-visibility`). Names and counts go in as text; diff2html's markup (which escapes the
 * diff itself) goes through DOMPurify as well.
 */
import { html, parse } from 'diff2html';
import { ColorSchemeType } from 'diff2html/lib/types';
import { chunkDiff } from '../../../domain/mergeRequestView';
import { element, icon } from '../../shared/app/bridge';
import type { FileView } from '../protocol';
import { sanitizeDiffHtml } from './markdown';

export type ViewMode = 'line-by-line' | 'side-by-side';

/** Lines of a diff rendered at a time: sanitizing and laying out a line takes about 0.3 ms here. */
const CHUNK_LINES = 40;
/** Rendering time per task before the page yields to scrolling and drawing. */
const RENDER_BUDGET_MS = 8;
/** Files longer than this start collapsed (the person expands them on purpose). */
const COLLAPSE_ABOVE_LINES = 3000;
/** Estimated height of a diff line, to reserve room for pieces not rendered yet. */
const LINE_HEIGHT_PX = 20;

export interface ChangesCallbacks {
  openDiff(file: number): void;
  /** Collapsed state changed (by path): saved in the page state. */
  collapsedChanged(path: string, collapsed: boolean): void;
  viewModeChanged(mode: ViewMode): void;
}

interface FileSection {
  file: FileView;
  root: HTMLElement;
  body: HTMLElement;
  toggle: HTMLElement;
  collapsed: boolean;
  rendered: boolean;
}

export class ChangesTab {
  readonly root = element('div', { className: 'changes' });
  private readonly observer: IntersectionObserver;
  /** Pieces near the viewport waiting for their turn, nearest first when they arrived together. */
  private readonly renderQueue: HTMLElement[] = [];
  private renderScheduled = false;
  private sections: FileSection[] = [];
  private signature = '';
  /** Pieces rendered so far (tests and benchmarks read it through the DOM's data attribute). */
  private renderedPieces = 0;

  constructor(
    private mode: ViewMode,
    private readonly collapsedByPath: Record<string, boolean>,
    private readonly callbacks: ChangesCallbacks,
  ) {
    // A wide margin: pieces are drawn a screen or two before they scroll into view. The root is the
    // document itself because a webview is a cross-origin frame, where the margin of the implicit
    // root (the top-level viewport) is ignored.
    this.observer = new IntersectionObserver((entries) => this.onIntersect(entries), {
      root: document,
      rootMargin: '1600px 0px',
    });
  }

  /** Draws the files; unchanged files (same paths and diffs) keep what is already rendered. */
  update(files: readonly FileView[], hasLocalClone: boolean, errors: readonly string[]): void {
    const signature = JSON.stringify([files.map((file) => [file.path, file.diff.length]), hasLocalClone]);
    if (signature === this.signature) return;
    this.signature = signature;
    this.observer.disconnect();
    this.renderQueue.length = 0;
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
        text: `${files.length} file${files.length === 1 ? '' : 's'} changed`,
      }),
      element('span', { className: 'stat-added', text: `+${totals.added}` }),
      element('span', { className: 'stat-removed', text: `−${totals.removed}` }),
      element('span', { className: 'spacer' }),
    );
    const unified = modeButton('Unified', 'list-flat', 'line-by-line');
    const split = modeButton('Side by side', 'split-horizontal', 'side-by-side');
    const expandAll = button('Expand all', 'expand-all', () => this.setAllCollapsed(false), true);
    const collapseAll = button('Collapse all', 'collapse-all', () => this.setAllCollapsed(true), true);
    toolbar.append(unified, split, expandAll, collapseAll);
    const setMode = (mode: ViewMode): void => {
      unified.toggleAttribute('secondary', mode !== 'line-by-line');
      split.toggleAttribute('secondary', mode !== 'side-by-side');
    };
    unified.addEventListener('click', () => this.setMode('line-by-line', setMode));
    split.addEventListener('click', () => this.setMode('side-by-side', setMode));
    setMode(this.mode);
    this.root.append(toolbar);

    for (const error of errors.filter((text) => text.startsWith('Changes:'))) {
      this.root.append(element('p', { className: 'error-text', text: error }));
    }
    if (files.length === 0) {
      this.root.append(element('p', { className: 'muted', text: 'No changes.' }));
      return;
    }

    const list = element('ul', { className: 'file-list' });
    files.forEach((file, index) => {
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
          badge(file),
          link,
          element('span', { className: 'stat-added', text: `+${file.added}` }),
          element('span', { className: 'stat-removed', text: `−${file.removed}` }),
        ),
      );
    });
    this.root.append(list);

    files.forEach((file, index) => {
      const section = this.fileSection(file, index, hasLocalClone);
      this.sections.push(section);
      this.root.append(section.root);
      this.preparePieces(section);
    });
  }

  private setMode(mode: ViewMode, showMode: (mode: ViewMode) => void): void {
    if (mode === this.mode) return;
    this.mode = mode;
    showMode(mode);
    this.callbacks.viewModeChanged(mode);
    this.root.dataset['mode'] = mode;
    for (const section of this.sections) this.preparePieces(section);
  }

  private setAllCollapsed(collapsed: boolean): void {
    for (const section of this.sections) this.setCollapsed(section, collapsed);
  }

  private fileSection(file: FileView, index: number, hasLocalClone: boolean): FileSection {
    const root = element('section', { className: 'file' });
    root.dataset['path'] = file.path;
    const toggle = element('button', { className: 'file-toggle', title: 'Collapse or expand' });
    toggle.type = 'button';
    const header = element('div', { className: 'file-header' }, toggle, badge(file));
    const name = element('span', { className: 'file-name', text: file.path, title: file.path });
    header.append(name);
    if (file.badge === 'renamed') {
      header.append(element('span', { className: 'muted file-old', text: `from ${file.oldPath}` }));
    }
    header.append(
      element('span', { className: 'spacer' }),
      element('span', { className: 'stat-added', text: `+${file.added}` }),
      element('span', { className: 'stat-removed', text: `−${file.removed}` }),
    );
    if (hasLocalClone) {
      const open = button('Open in diff editor', 'diff', () => this.callbacks.openDiff(index), true);
      open.classList.add('open-diff');
      header.append(open);
    }
    const body = element('div', { className: 'file-body' });
    root.append(header, body);
    const saved = this.collapsedByPath[file.path];
    const section: FileSection = {
      file,
      root,
      body,
      toggle,
      collapsed: saved ?? file.lines > COLLAPSE_ABOVE_LINES,
      rendered: false,
    };
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
  }

  /** Placeholders for the file's pieces, each rendered when it nears the viewport. */
  private preparePieces(section: FileSection): void {
    for (const piece of section.body.querySelectorAll('.piece')) this.observer.unobserve(piece);
    section.body.replaceChildren();
    const { file } = section;
    if (file.lines === 0) {
      const what =
        file.badge === 'renamed'
          ? 'Renamed without changes.'
          : file.badge === 'deleted'
            ? 'Deleted (no text diff).'
            : 'No text changes (binary file or mode change).';
      section.body.append(element('p', { className: 'muted empty-diff', text: what }));
      return;
    }
    const pieces = chunkDiff(file.diff, CHUNK_LINES);
    for (const text of pieces) {
      const piece = element('div', { className: 'piece pending' });
      const lines = Math.max(1, text.split('\n').length - 4);
      piece.style.minHeight = `${lines * LINE_HEIGHT_PX}px`;
      pieceTexts.set(piece, text);
      section.body.append(piece);
      this.observer.observe(piece);
    }
  }

  private onIntersect(entries: IntersectionObserverEntry[]): void {
    const arrived = entries
      .filter((entry) => entry.isIntersecting)
      .sort((a, b) => Math.abs(a.boundingClientRect.top) - Math.abs(b.boundingClientRect.top));
    for (const entry of arrived) {
      const piece = entry.target as HTMLElement;
      this.observer.unobserve(piece);
      this.renderQueue.push(piece);
    }
    this.scheduleRendering();
  }

  private scheduleRendering(): void {
    if (this.renderScheduled || this.renderQueue.length === 0) return;
    this.renderScheduled = true;
    setTimeout(() => {
      this.renderScheduled = false;
      const deadline = performance.now() + RENDER_BUDGET_MS;
      do {
        const piece = this.renderQueue.shift();
        // A piece of a file drawn again (another view mode) or of a list replaced since is skipped.
        if (piece?.isConnected) this.renderPiece(piece);
      } while (this.renderQueue.length > 0 && performance.now() < deadline);
      this.scheduleRendering();
    }, 0);
  }

  private renderPiece(piece: HTMLElement): void {
    const text = pieceTexts.get(piece);
    if (text === undefined) return;
    pieceTexts.delete(piece);
    const files = parse(text);
    const markup = html(files, {
      outputFormat: this.mode,
      drawFileList: false,
      matching: 'none',
      diffStyle: 'word',
      colorScheme: ColorSchemeType.LIGHT,
      renderNothingWhenEmpty: false,
    });
    piece.replaceChildren(sanitizeDiffHtml(markup));
    piece.classList.remove('pending');
    piece.style.minHeight = '';
    this.renderedPieces++;
    this.root.dataset['renderedPieces'] = String(this.renderedPieces);
  }
}

/** The diff text of each placeholder, until it is rendered. */
const pieceTexts = new WeakMap<HTMLElement, string>();

const BADGE_TEXT: Record<FileView['badge'], string> = {
  added: 'added',
  deleted: 'deleted',
  renamed: 'renamed',
  modified: 'modified',
};

function badge(file: FileView): HTMLElement {
  const node = document.createElement('vscode-badge');
  node.className = `file-badge badge-${file.badge}`;
  node.textContent = BADGE_TEXT[file.badge];
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
