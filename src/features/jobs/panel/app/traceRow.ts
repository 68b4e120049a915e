/** One row of the trace view: its elements, made once and drawn into again as the view scrolls. */
import type { TraceStyle } from '../../../../domain/trace';
import type { TraceRowView } from '../../../../domain/trace/traceRows';
import { clockTime } from '../../../../domain/trace/traceText';
import { colorClass, colorValue } from './ansiColors';
import * as l10n from '@vscode/l10n';

/** How rows draw styles that follow a setting. */
export interface TraceDrawOptions {
  /** Bold text in the basic colours uses their bright variants (`terminal.integrated.drawBoldTextInBrightColors`). */
  boldBright: boolean;
}

/** A row's elements, kept to draw other lines into. */
export interface RowElements {
  element: HTMLDivElement;
  number: Text;
  content: HTMLSpanElement;
  chevron: HTMLSpanElement | undefined;
  /** One element and text node per span of the longest line drawn in this row; `spansShown` in the DOM. */
  spans: { element: HTMLSpanElement; text: Text }[];
  spansShown: number;
  duration: HTMLSpanElement | undefined;
  /** The runner's timestamp of the line, in the gutter (shown when the page has `show-times`). */
  time: Text;
  timeElement: HTMLSpanElement;
  /** The line drawn in it. */
  line: number;
}

/** `HH:MM:SS.mmm` (UTC) of a timestamp, and what its row's tooltip says. */
export function describeTime(
  time: number,
  sincePrevious: number | undefined,
): { text: string; title: string } {
  const iso = new Date(time).toISOString();
  if (sincePrevious === undefined) return { text: clockTime(time), title: iso };
  const since = (sincePrevious / 1000).toFixed(3);
  return { text: clockTime(time), title: l10n.t('{0} (+{1} s after the line before)', iso, since) };
}

function styleSpan(element: HTMLSpanElement, style: TraceStyle, options: TraceDrawOptions): void {
  let className = '';
  // Terminals draw bold basic colours (0-7) in their bright variants (8-15), as GitLab does.
  const fg =
    options.boldBright && style.bold && typeof style.fg === 'number' && style.fg < 8
      ? style.fg + 8
      : style.fg;
  const fgClass = colorClass('fg', fg);
  const bgClass = colorClass('bg', style.bg);
  if (fgClass) className += fgClass;
  if (bgClass) className += ` ${bgClass}`;
  if (style.bold) className += ' bold';
  if (style.italic) className += ' italic';
  if (style.underline) className += ' underline';
  if (style.strike) className += ' strike';
  if (style.conceal) className += ' conceal';
  className = className.trim();
  if (element.className !== className) element.className = className;
  const fgValue = colorValue(fg) ?? '';
  const bg = colorValue(style.bg) ?? '';
  if (fgValue || element.style.color) element.style.color = fgValue;
  if (bg || element.style.backgroundColor) element.style.backgroundColor = bg;
}

export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))}s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  if (minutes < 60) return `${minutes}m ${rest}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

export function newRow(): RowElements {
  const element = document.createElement('div');
  const numberElement = document.createElement('span');
  numberElement.className = 'line-number';
  const number = document.createTextNode('');
  numberElement.append(number);
  const timeElement = document.createElement('span');
  timeElement.className = 'line-time';
  const time = document.createTextNode('');
  timeElement.append(time);
  const content = document.createElement('span');
  element.append(numberElement, timeElement, content);
  return {
    element,
    number,
    content,
    chevron: undefined,
    spans: [],
    spansShown: 0,
    duration: undefined,
    time,
    timeElement,
    line: -1,
  };
}

/**
 * Draws a line into a row drawn before, reusing its elements and text nodes: scrolling fast would
 * otherwise leave thousands of elements a second to the garbage collector, whose pauses the page
 * shares with the whole workbench. Server text reaches the DOM only as text nodes. True when the
 * line has a runner's timestamp.
 */
export function fillRow(
  row: RowElements,
  line: TraceRowView,
  highlightLine: number | undefined,
  drawOptions: TraceDrawOptions,
): boolean {
  const { element, content } = row;
  const index = line.line;
  if (row.line !== index && element === document.activeElement) element.blur();
  row.line = index;
  let className = 'row';
  if (line.match) className += index === highlightLine ? ' match-current' : ' match';
  else if (index === highlightLine) className += ' highlight';
  const section = line.section;
  if (section) className += ' section-header';
  element.className = className;
  row.number.data = String(index + 1);
  if (line.time === undefined) {
    if (row.time.data !== '') row.time.data = '';
    row.timeElement.removeAttribute('title');
  } else {
    const shown = describeTime(line.time, line.sincePrevious);
    row.time.data = shown.text;
    row.timeElement.title = shown.title;
  }
  const depth = section ? line.sectionDepth - 1 : line.sectionDepth;
  content.className = depth > 0 ? `content depth-${Math.min(depth, 6)}` : 'content';
  if (section) {
    element.dataset['section'] = String(index);
    element.tabIndex = 0;
    const { collapsed } = section;
    element.setAttribute('aria-expanded', String(!collapsed));
    row.chevron ??= document.createElement('span');
    row.chevron.className = `codicon codicon-chevron-${collapsed ? 'right' : 'down'} chevron`;
    if (content.firstChild !== row.chevron) content.prepend(row.chevron);
  } else if (element.dataset['section'] !== undefined) {
    delete element.dataset['section'];
    element.removeAttribute('tabindex');
    element.removeAttribute('aria-expanded');
    row.chevron?.remove();
  }
  const { spans } = line;
  for (let position = 0; position < spans.length; position++) {
    const span = spans[position];
    if (!span) continue;
    let pooled = row.spans[position];
    if (!pooled) {
      const spanElement = document.createElement('span');
      const text = document.createTextNode('');
      spanElement.append(text);
      pooled = { element: spanElement, text };
      row.spans[position] = pooled;
    }
    pooled.text.data = span.text;
    styleSpan(pooled.element, span.style, drawOptions);
    if (position >= row.spansShown) content.append(pooled.element);
  }
  for (let position = spans.length; position < row.spansShown; position++)
    row.spans[position]?.element.remove();
  row.spansShown = spans.length;
  if (section?.durationSeconds !== undefined) {
    row.duration ??= document.createElement('span');
    row.duration.className = 'section-duration';
    row.duration.textContent = formatSeconds(section.durationSeconds);
    if (element.lastChild !== row.duration) element.append(row.duration);
  } else {
    row.duration?.remove();
  }
  return line.time !== undefined;
}
