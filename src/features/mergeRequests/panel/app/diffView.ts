/*
 * One file's diff as a virtual list: a sheet as tall as all its rows, and row elements only for the
 * rows near the viewport, drawn into again as the page scrolls (the way the trace panel draws its
 * lines). A row is a few elements of fixed height, so scrolling through thousands of lines creates
 * no elements and lays out only the rows that changed. Side by side, the old and the new file are two
 * panes that scroll sideways together. Every text goes in as text.
 */
import type { DiffLine, DiffRows, SplitRow, TextRange, UnifiedRow } from '../../../../domain/diffRows';
import { wordChanges } from '../../../../domain/diffRows';
import { element } from '../../../../webviews/shared/app/bridge';
import * as l10n from '@vscode/l10n';

export type ViewMode = 'line-by-line' | 'side-by-side';

/** Height of a row; style.css gives `.diff-row` the same. */
export const ROW_HEIGHT_PX = 20;
/** Rows drawn beyond each edge of the viewport, so a fast scroll does not show blank rows. */
const OVERSCAN_PX = 800;

const SIGN: Record<DiffLine['kind'], string> = { context: ' ', added: '+', removed: '-' };

/** One row's elements in one pane. */
interface Cell {
  root: HTMLElement;
  numbers: Text[];
  sign: Text;
  code: HTMLElement;
}

/** A drawn row: its cells in every pane (one unified, two side by side). */
interface Row {
  index: number;
  cells: Cell[];
}

type Side = 'both' | 'old' | 'new';

const PANE_LABEL: Record<Side, string> = {
  both: l10n.t('Diff'),
  old: l10n.t('Old version'),
  new: l10n.t('New version'),
};

export class DiffView {
  readonly root: HTMLElement;
  private readonly panes: HTMLElement[] = [];
  private readonly sides: Side[];
  private readonly rows: readonly (UnifiedRow | SplitRow)[];
  private readonly drawn = new Map<number, Row>();
  private readonly free: Row[] = [];
  private readonly highlights = new Map<number, TextRange[]>();
  /** The sideways scroll both panes share. */
  private scrollLeft = 0;

  constructor(
    private readonly diff: DiffRows,
    mode: ViewMode,
  ) {
    this.sides = mode === 'side-by-side' ? ['old', 'new'] : ['both'];
    this.rows = mode === 'side-by-side' ? diff.split : diff.unified;
    this.root = element('div', { className: `diff-lines ${mode === 'side-by-side' ? 'split' : 'unified'}` });
    for (const side of this.sides) {
      const sheet = element('div', { className: 'diff-sheet' });
      sheet.setAttribute('role', 'rowgroup');
      sheet.style.height = `${this.rows.length * ROW_HEIGHT_PX}px`;
      const pane = element('div', { className: `diff-pane ${side}` }, sheet);
      // A table of all the rows for assistive technology, which is told where each drawn row is.
      pane.setAttribute('role', 'table');
      pane.setAttribute('aria-label', PANE_LABEL[side]);
      pane.setAttribute('aria-rowcount', String(this.rows.length));
      pane.addEventListener('scroll', () => this.scrolledSideways(pane), { passive: true });
      this.panes.push(pane);
      this.root.append(pane);
    }
  }

  /** The rows to draw for the viewport: reads layout, so call it before any `draw` of the frame. */
  rangeInViewport(): [number, number] {
    const top = this.root.getBoundingClientRect().top;
    const first = Math.floor((-top - OVERSCAN_PX) / ROW_HEIGHT_PX);
    const end = Math.ceil((window.innerHeight - top + OVERSCAN_PX) / ROW_HEIGHT_PX);
    return [Math.max(0, first), Math.min(this.rows.length, end)];
  }

  /** Draws rows [first, end); rows drawn before and still in range are left as they are. */
  draw([first, end]: [number, number]): void {
    for (const [index, row] of this.drawn) {
      if (index < first || index >= end) {
        this.drawn.delete(index);
        this.free.push(row);
      }
    }
    for (let index = first; index < end; index++) {
      if (this.drawn.has(index)) continue;
      const row = this.free.pop() ?? this.newRow();
      row.index = index;
      this.fillRow(row);
      this.drawn.set(index, row);
    }
    // Rows left over are hidden, so that find, copy and screen readers meet only the drawn lines.
    for (const row of this.free) for (const cell of row.cells) cell.root.hidden = true;
  }

  private newRow(): Row {
    const cells = this.sides.map((side, paneIndex): Cell => {
      const numbers = (side === 'both' ? [0, 1] : [0]).map(() => new Text(''));
      const sign = new Text('');
      const code = element('span', { className: 'code' });
      const root = element(
        'div',
        { className: 'diff-row' },
        ...numbers.map((number) => element('span', { className: 'num' }, number)),
        element('span', { className: 'sign' }, sign),
        code,
      );
      root.setAttribute('role', 'row');
      for (const cell of root.children) cell.setAttribute('role', 'cell');
      this.panes[paneIndex]?.firstElementChild?.append(root);
      return { root, numbers, sign, code };
    });
    return { index: -1, cells };
  }

  private fillRow(row: Row): void {
    const content = this.rows[row.index];
    if (!content) return;
    row.cells.forEach((cell, paneIndex) => {
      cell.root.hidden = false;
      cell.root.style.top = `${row.index * ROW_HEIGHT_PX}px`;
      cell.root.setAttribute('aria-rowindex', String(row.index + 1));
      if ('hunk' in content) {
        this.fillCell(cell, 'hunk', ['', ''], '', paneIndex === 0 ? content.hunk : '');
        return;
      }
      const side = this.sides[paneIndex] ?? 'both';
      const lineIndex = 'line' in content ? content.line : side === 'old' ? content.old : content.new;
      const line = lineIndex === undefined ? undefined : this.diff.lines[lineIndex];
      if (lineIndex === undefined || !line) {
        this.fillCell(cell, 'empty', ['', ''], '', '');
        return;
      }
      const numbers = [line.oldNumber, line.newNumber].map((number) =>
        number === undefined ? '' : String(number),
      );
      const shownNumbers =
        side === 'both' ? numbers : side === 'old' ? [numbers[0] ?? ''] : [numbers[1] ?? ''];
      this.fillCell(cell, line.kind, shownNumbers, SIGN[line.kind], line.text, this.changedWords(lineIndex));
    });
  }

  private fillCell(
    cell: Cell,
    kind: string,
    numbers: string[],
    sign: string,
    text: string,
    changed: TextRange[] = [],
  ): void {
    const className = `diff-row ${kind}`;
    if (cell.root.className !== className) cell.root.className = className;
    cell.numbers.forEach((node, index) => (node.data = numbers[index] ?? ''));
    cell.sign.data = sign;
    const only = cell.code.firstChild;
    if (changed.length === 0 && only instanceof Text && only === cell.code.lastChild) {
      only.data = text;
      return;
    }
    const parts: Node[] = [];
    let offset = 0;
    for (const [start, end] of changed) {
      if (start > offset) parts.push(new Text(text.slice(offset, start)));
      parts.push(element('mark', { className: 'word', text: text.slice(start, end) }));
      offset = end;
    }
    parts.push(new Text(text.slice(offset)));
    cell.code.replaceChildren(...parts);
  }

  /** The changed words of a line paired with another, computed once per pair when first drawn. */
  private changedWords(lineIndex: number): TextRange[] {
    const cached = this.highlights.get(lineIndex);
    if (cached) return cached;
    const line = this.diff.lines[lineIndex];
    const partner = line?.partner === undefined ? undefined : this.diff.lines[line.partner];
    if (!line || !partner || line.partner === undefined) return [];
    const [oldIndex, newIndex] =
      line.kind === 'removed' ? [lineIndex, line.partner] : [line.partner, lineIndex];
    const [oldLine, newLine] = line.kind === 'removed' ? [line, partner] : [partner, line];
    const changes = wordChanges(oldLine.text, newLine.text);
    this.highlights.set(oldIndex, changes.old);
    this.highlights.set(newIndex, changes.new);
    return lineIndex === oldIndex ? changes.old : changes.new;
  }

  /**
   * Side by side, both panes scroll sideways together. Their sheets take the width of the widest
   * drawn line, so both can scroll as far and every row's colour reaches the edge.
   */
  private scrolledSideways(pane: HTMLElement): void {
    if (pane.scrollLeft === this.scrollLeft) return;
    this.scrollLeft = pane.scrollLeft;
    const width = Math.max(...this.panes.map((each) => each.scrollWidth));
    for (const each of this.panes) {
      const sheet = each.firstElementChild;
      if (sheet instanceof HTMLElement && sheet.offsetWidth < width) sheet.style.minWidth = `${width}px`;
      if (each !== pane) each.scrollLeft = this.scrollLeft;
    }
  }
}
