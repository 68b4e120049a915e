// The trace panel's first paint: the rows the page's first snapshot draws, written into its HTML, escaped.
import assert from 'node:assert/strict';
import {
  FIRST_PAINT_ROWS,
  JOB_TRACE_FIRST_PAINT_STYLE,
  jobTraceFirstPaint,
  traceFirstPaintRows,
} from '../../../src/features/jobs/panel/firstPaint';
import type { JobView } from '../../../src/features/jobs/panel/protocol';

const ESC = '\u001b';
const HOSTILE = `</div><script>alert(1)</script><img src=x onerror="alert(2)">'&`;

const job: JobView = {
  id: 42,
  name: 'test <unit>',
  stage: 'test',
  status: 'failed',
  statusLabel: 'Failed',
  statusCodicon: 'error',
  ref: 'main',
  projectPath: 'acme/web',
  duration: '1m 2s',
  actions: {
    retry: true,
    cancel: false,
    play: false,
    erase: false,
    openInBrowser: true,
    downloadArtifacts: false,
  },
};

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const tagsOf = (markup: string): string[] =>
  [...markup.matchAll(/<([a-z][a-z0-9-]*)/gi)].map((match) => (match[1] ?? '').toLowerCase());
/** The rows' text, as a reader sees it. */
const rowTexts = (markup: string): string[] =>
  [...markup.matchAll(/<div class="fp-row">([\s\S]*?)<\/div>/g)].map((match) =>
    (match[1] ?? '')
      .replace(/<[^>]*>/g, '')
      .replace(/\s*\n\s*/g, '')
      .replace(/&#(\d+);/g, (_all, code: string) => String.fromCharCode(Number(code))),
  );

describe('the trace panel first paint', () => {
  it('writes the last rows of the first piece, numbered, where the page opens (at the end of what it has)', () => {
    const lines = Array.from({ length: 200 }, (_, index) => `line ${index + 1}`);
    const rows = traceFirstPaintRows(bytes(`${lines.join('\n')}\n`));
    assert.equal(rows.length, FIRST_PAINT_ROWS);
    assert.equal(rows[0]?.line, 200 - FIRST_PAINT_ROWS);
    const markup = jobTraceFirstPaint(job, rows, { showTimestamps: true, boldBright: false }).markup;
    const texts = rowTexts(markup);
    assert.equal(texts.at(-1), '200line 200');
    assert.equal(texts[0], `${201 - FIRST_PAINT_ROWS}line ${201 - FIRST_PAINT_ROWS}`);
    // No timestamps in this trace: no time column.
    assert.doesNotMatch(markup, /fp-times/);
  });

  it('shows server text as text: a hostile line and job name open no element', () => {
    const rows = traceFirstPaintRows(bytes(`${HOSTILE}\n${ESC}[31m${HOSTILE}${ESC}[0m\n`));
    const markup = jobTraceFirstPaint({ ...job, name: HOSTILE }, rows, {
      showTimestamps: false,
      boldBright: false,
    }).markup;
    assert.deepEqual([...new Set(tagsOf(markup))].sort(), ['div', 'header', 'span']);
    assert.doesNotMatch(markup, /<script|<img|onerror="/);
    assert.deepEqual(rowTexts(markup), [`1${HOSTILE}`, `2${HOSTILE}`]);
  });

  it('colours the basic sixteen colours, folds folded sections and cuts very long lines', () => {
    const trace = [
      `${ESC}[1;32mBuilt${ESC}[0m ok`,
      `${ESC}[0Ksection_start:1700000000:prepare[collapsed=true]\r${ESC}[0KPreparing`,
      'hidden inside a folded section',
      `${ESC}[0Ksection_end:1700000002:prepare\r${ESC}[0K`,
      `${ESC}[38;5;208morange${ESC}[0m`,
      'x'.repeat(5000),
    ].join('\n');
    const markup = jobTraceFirstPaint(job, traceFirstPaintRows(bytes(`${trace}\n`)), {
      showTimestamps: false,
      boldBright: false,
    }).markup;
    assert.match(markup, /<span class="fp-fg-2 fp-bold">Built<\/span>/);
    assert.match(markup, />▸ Preparing<\/span>/);
    assert.doesNotMatch(markup, /hidden inside/);
    // A 256-colour waits for the page: the text is there, in the default colour.
    assert.match(markup, />orange<\/span>/);
    const longest = Math.max(...rowTexts(markup).map((text) => text.length));
    assert.ok(longest < 420, `a row of ${longest} characters`);
    assert.match(JOB_TRACE_FIRST_PAINT_STYLE, /\.fp-fg-2 \{ color: var\(--vscode-terminal-ansiGreen\); \}/);
    // Bold basic colours drawn bright, when the terminal setting says so (as the page draws them).
    const bright = jobTraceFirstPaint(job, traceFirstPaintRows(bytes(`${trace}\n`)), {
      showTimestamps: false,
      boldBright: true,
    }).markup;
    assert.match(bright, /<span class="fp-fg-10 fp-bold">Built<\/span>/);
  });

  it('shows the runner timestamps in the gutter when the setting asks for them', () => {
    const trace = '2024-05-14T11:19:20.100000Z 00O hello\n2024-05-14T11:19:21.250000Z 00O world\n';
    const markup = jobTraceFirstPaint(job, traceFirstPaintRows(bytes(trace)), {
      showTimestamps: true,
      boldBright: false,
    }).markup;
    assert.match(markup, /fp-rows fp-times/);
    assert.deepEqual(rowTexts(markup), ['111:19:20.100hello', '211:19:21.250world']);
    const hidden = jobTraceFirstPaint(job, traceFirstPaintRows(bytes(trace)), {
      showTimestamps: false,
      boldBright: false,
    });
    assert.doesNotMatch(hidden.markup, /fp-times/);
  });

  it('has a header with the job, and no rows for an empty trace', () => {
    const markup = jobTraceFirstPaint(job, traceFirstPaintRows(new Uint8Array(0)), {
      showTimestamps: true,
      boldBright: false,
    }).markup;
    assert.deepEqual(rowTexts(markup), []);
    assert.match(markup, /test &#60;unit&#62; #42/);
    assert.match(markup, /Failed · test · main · 1m 2s · acme\/web/);
  });
});
