/*
 * The trace panel's first paint: the job's header and the last rows of the trace's first piece (where
 * the page opens, as it sticks to the end of what it has), written into the page's HTML so that its
 * first frame shows them; the page script, its worker and its stylesheets arrive after. The rows come
 * from the same `TraceRows` the page's worker uses (folded sections stay folded); every value goes
 * through `html`, which escapes it. Pure: no `vscode`.
 */
import { TraceRows, type TraceRowView } from '../../../domain/trace/traceRows';
import type { TraceSpan } from '../../../domain/trace';
import { clockTime } from '../../../domain/trace/traceText';
import { type SafeHtml, html } from '../../../webviews/shared/safeHtml';
import type { JobView } from './protocol';
import * as l10n from '@vscode/l10n';

/** Rows written: more than a tall panel shows (18 px each). */
export const FIRST_PAINT_ROWS = 80;
/** Characters of a line written: more than a wide panel shows; the page draws all of it. */
const FIRST_PAINT_LINE_CHARS = 400;

export interface TraceFirstPaintOptions {
  /** `forge.trace.showTimestamps`: the runner's timestamps in the gutter, as the page shows them. */
  showTimestamps: boolean;
  /** `terminal.integrated.drawBoldTextInBrightColors`: bold basic colours drawn bright, as the page does. */
  boldBright: boolean;
  /** The trace is still being read (a slow server, a long trace): the first frame says so. */
  reading?: boolean;
}

/** The last rows of `firstPiece` (the start of the trace, UTF-8) as the page draws them. */
export function traceFirstPaintRows(firstPiece: Uint8Array, count = FIRST_PAINT_ROWS): TraceRowView[] {
  const rows = new TraceRows();
  rows.pushBytes(firstPiece);
  return rows.view(rows.rowCount - count, rows.rowCount);
}

export function jobTraceFirstPaint(
  job: JobView,
  rows: readonly TraceRowView[],
  options: TraceFirstPaintOptions,
): SafeHtml {
  const times = options.showTimestamps && rows.some((row) => row.time !== undefined);
  const meta = [job.statusLabel, job.stage, job.ref, job.duration, job.projectPath]
    .filter((part) => part.length > 0)
    .join(' · ');
  // Classes of its own: the app's rows (`.row`) are on the page too until it removes this.
  return html`<header class="fp-header">
      <span class="fp-title">${job.name} #${job.id}</span><span class="fp-muted">${meta}</span>
    </header>
    ${options.reading ? html`<div class="fp-muted fp-reading" role="status">${l10n.t('Reading the trace…')}</div>` : ''}
    <div class="fp-rows${times ? ' fp-times' : ''}">${rows.map((row) => firstPaintRow(row, options))}</div>`;
}

function firstPaintRow(row: TraceRowView, options: TraceFirstPaintOptions): SafeHtml {
  const depth = Math.min(row.section ? row.sectionDepth - 1 : row.sectionDepth, 6);
  const fold = row.section ? (row.section.collapsed ? '▸ ' : '▾ ') : '';
  return html`<div class="fp-row">
    <span class="fp-number">${row.line + 1}</span
    ><span class="fp-time">${row.time === undefined ? '' : clockTime(row.time)}</span
    ><span class="fp-depth-${depth}">${fold}${spansOf(row.spans, options)}</span>
  </div>`;
}

function spansOf(spans: readonly TraceSpan[], options: TraceFirstPaintOptions): SafeHtml[] {
  const parts: SafeHtml[] = [];
  let room = FIRST_PAINT_LINE_CHARS;
  for (const span of spans) {
    if (room <= 0) break;
    const text = span.text.slice(0, room);
    room -= text.length;
    const classes = styleClasses(span, options);
    parts.push(classes ? html`<span class="${classes}">${text}</span>` : html`${text}`);
  }
  return parts;
}

/** The basic sixteen colours and the text attributes; other colours wait for the page. */
function styleClasses({ style }: TraceSpan, options: TraceFirstPaintOptions): string {
  const classes: string[] = [];
  const fg =
    options.boldBright && style.bold && typeof style.fg === 'number' && style.fg < 8
      ? style.fg + 8
      : style.fg;
  if (typeof fg === 'number' && fg < 16) classes.push(`fp-fg-${fg}`);
  if (typeof style.bg === 'number' && style.bg < 16) classes.push(`fp-bg-${style.bg}`);
  if (style.bold) classes.push('fp-bold');
  if (style.italic) classes.push('fp-italic');
  if (style.underline) classes.push('fp-underline');
  if (style.conceal) classes.push('fp-conceal');
  return classes.join(' ');
}

/** The terminal's colour variables of the basic sixteen, as the app's stylesheet uses them. */
const ANSI_COLORS = [
  'ansiBlack',
  'ansiRed',
  'ansiGreen',
  'ansiYellow',
  'ansiBlue',
  'ansiMagenta',
  'ansiCyan',
  'ansiWhite',
  'ansiBrightBlack',
  'ansiBrightRed',
  'ansiBrightGreen',
  'ansiBrightYellow',
  'ansiBrightBlue',
  'ansiBrightMagenta',
  'ansiBrightCyan',
  'ansiBrightWhite',
];

/**
 * The rules the markup above needs, from the app's stylesheet: the same font, row height, gutter and
 * terminal colours, so the page's own rows replace these without a jump. It covers the page until the
 * app removes it.
 */
export const JOB_TRACE_FIRST_PAINT_STYLE = `
body { margin: 0; color: var(--vscode-foreground); background: var(--vscode-editor-background);
  font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
#first-paint { position: fixed; inset: 0; z-index: 10; display: flex; flex-direction: column;
  background: var(--vscode-editor-background); }
.fp-header { display: flex; gap: 8px; align-items: baseline; padding: 8px 12px; white-space: nowrap; overflow: hidden; }
.fp-title { font-weight: 600; }
.fp-muted { color: var(--vscode-descriptionForeground); }
.fp-reading { padding: 4px 12px; }
.fp-rows { flex: 1; display: flex; flex-direction: column; justify-content: flex-end; overflow: hidden;
  background: var(--vscode-terminal-background, var(--vscode-editor-background));
  color: var(--vscode-terminal-foreground, var(--vscode-editor-foreground));
  font-family: var(--vscode-editor-font-family, monospace); font-size: var(--vscode-editor-font-size, 13px); }
.fp-row { flex: none; height: 18px; line-height: 18px; white-space: pre; display: flex; }
.fp-number { flex: none; width: 6ch; padding-right: 1ch; text-align: right; color: var(--vscode-editorLineNumber-foreground); }
.fp-time { display: none; flex: none; width: 13ch; padding-right: 1ch; color: var(--vscode-editorLineNumber-foreground); }
.fp-times .fp-time { display: inline; }
${[1, 2, 3, 4, 5, 6].map((depth) => `.fp-depth-${depth} { padding-left: ${depth * 2}ch; }`).join('\n')}
.fp-bold { font-weight: bold; }
.fp-italic { font-style: italic; }
.fp-underline { text-decoration: underline; }
.fp-conceal { visibility: hidden; }
${ANSI_COLORS.map(
  (name, index) =>
    `.fp-fg-${index} { color: var(--vscode-terminal-${name}); }\n.fp-bg-${index} { background: var(--vscode-terminal-${name}); }`,
).join('\n')}
`;
