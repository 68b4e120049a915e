/**
 * Benchmarks in the real VS Code (code-server + headless Chromium, like the UI tests):
 * - first paint of the job trace panel with a 20 MB trace, and frame times while scrolling it;
 * - first paint of the merge request Changes tab with a 5,000-line diff, and frame times scrolling it;
 * - the Todos tree with 10,000 todos: first page drawn after the response, and "Load more" later on;
 * - start-up: the size of dist/extension.js (minified) and activation in the real VS Code (the host
 *   suite `activation`, run on the production build).
 * Wall-clock figures include the browser, the webview channel and the page; they are measured, not asserted.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { type FakeForge, startFakeForge } from '../test/server';
import { type VscodeSession, startVscode } from '../test/vscode/harness';
import {
  answerQuickInput,
  collapsePane,
  expandPane,
  expectQuickInput,
  openActivityBarView,
  runCommand,
  treeRow,
  treeRows,
  waitUntil,
  webviewFrame,
} from '../test/e2e/support';
import type { BenchResult, SummaryRow } from './report';

const ROOT = path.resolve(__dirname, '..');
const TRACE_BYTES = 20 * 1024 * 1024;
const DIFF_LINES = 5000;
const TODOS = 10_000;
const ACTIVATION_RUNS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

function bigTrace(): string {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < TRACE_BYTES; index++) {
    const line =
      index % 500 === 0
        ? `\x1b[0Ksection_start:${1700000000 + index}:part_${index}\r\x1b[0K\x1b[36;1mPart ${index}\x1b[0;m\n`
        : `\x1b[32mok\x1b[0m test ${index} \x1b[38;5;208mpassed\x1b[0m in ${index % 97} ms, checking the output of step ${index}\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
}

/** A 5,000-line file added on the source branch of !1 in acme/web. */
function plantBigDiff(forge: FakeForge): void {
  const { state } = forge;
  const web = forge.fixtures.projects.web;
  const mergeRequest = state.findMergeRequest(web, 1);
  const branch = mergeRequest ? state.projects.get(web)?.branches.get(mergeRequest.sourceBranch) : undefined;
  if (!mergeRequest || !branch) throw new Error('the small seed has no !1 in acme/web');
  const sha = state.newSha();
  const now = state.now();
  const lines = Array.from(
    { length: DIFF_LINES },
    (_, index) => `+export const value${index + 1} = ${index + 1};`,
  );
  state.commits.set(sha, {
    id: sha,
    parentIds: [branch.commitSha],
    title: 'Add a long file',
    message: 'Add a long file',
    authorName: 'Bob Builder',
    authorEmail: 'bob@example.com',
    authoredDate: now,
    committerName: 'Bob Builder',
    committerEmail: 'bob@example.com',
    committedDate: now,
    changes: [
      {
        oldPath: 'src/long.ts',
        newPath: 'src/long.ts',
        aMode: '0',
        bMode: '100644',
        diff: `--- /dev/null\n+++ b/src/long.ts\n@@ -0,0 +1,${DIFF_LINES} @@\n${lines.join('\n')}\n`,
        newFile: true,
        renamedFile: false,
        deletedFile: false,
      },
    ],
  });
  branch.commitSha = sha;
}

/** Scrolls `selector` by `step` px per animation frame and returns the frame intervals (ms). */
async function scrollFrames(frame: Frame, selector: string, frames: number, step: number): Promise<number[]> {
  return frame.evaluate(
    async ({ selector, frames, step }) => {
      const element = document.querySelector(selector) ?? document.scrollingElement;
      if (!element) return [];
      const intervals: number[] = [];
      let last = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      for (let index = 0; index < frames; index++) {
        element.scrollTop += step;
        const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
        intervals.push(now - last);
        last = now;
      }
      return intervals;
    },
    { selector, frames, step },
  );
}

async function measureTrace(page: Page, forge: FakeForge): Promise<Record<string, number>> {
  const jobId = forge.fixtures.jobs.build;
  const trace = bigTrace();
  forge.state.setLazyTrace(jobId, () => trace);
  await runCommand(page, 'Forge: Show Job Trace');
  await expectQuickInput(page, /Project of the job/);
  await answerQuickInput(page, 'acme/web');
  await expectQuickInput(page, /Job whose trace to show/);
  const started = Date.now();
  await answerQuickInput(page, `#${jobId}`);
  const frame = await webviewFrame(page, '.viewport .row', 60_000);
  const firstRowsMs = Date.now() - started;
  const root = frame.locator('html');
  await waitUntil(async () => (await root.getAttribute('data-parsed-lines')) !== null, 60_000, 'the parse');
  const parsedMs = Date.now() - started;
  const pageFirstPaint = Number(await root.getAttribute('data-first-paint-ms'));
  const lines = Number(await root.getAttribute('data-parsed-lines'));
  await frame.locator('#scroll-top').click();
  const intervals = await scrollFrames(frame, '.viewport', 120, 2400);
  return {
    traceBytes: trace.length,
    lines,
    firstRowsMs,
    pageFirstPaintMs: pageFirstPaint,
    allParsedMs: parsedMs,
    frameMaxMs: Math.max(...intervals),
    frameP95Ms: percentile(intervals, 95),
  };
}

async function measureChanges(page: Page): Promise<Record<string, number>> {
  await runCommand(page, 'Forge: Open Merge Request');
  await expectQuickInput(page, /Project of the merge request/);
  await answerQuickInput(page, 'acme/web');
  await expectQuickInput(page, /Open which merge request/);
  await answerQuickInput(page, '!1 Add a login form');
  const frame = await webviewFrame(page, '.mr-header .mr-title-text', 60_000);
  await frame.locator('vscode-tab-header[data-tab="changes"]').waitFor();
  const started = Date.now();
  await frame.locator('vscode-tab-header[data-tab="changes"]').click();
  const file = frame.locator('section.file[data-path="src/long.ts"]');
  await file.waitFor({ timeout: 60_000 });
  const tabShownMs = Date.now() - started;
  // Files over 3,000 lines start collapsed; expanding one draws only the pieces near the screen.
  const expandStarted = Date.now();
  if (/\bcollapsed\b/.test((await file.getAttribute('class')) ?? ''))
    await file.locator('.file-toggle').click();
  await file.locator('.d2h-diff-table').first().waitFor({ timeout: 60_000 });
  const firstLinesMs = Date.now() - expandStarted;
  const intervals = await scrollFrames(frame, 'html', 120, 1200);
  return {
    tabShownMs,
    firstLinesMs,
    frameMaxMs: Math.max(...intervals),
    frameP95Ms: percentile(intervals, 95),
  };
}

async function measureTodos(page: Page, forge: FakeForge): Promise<Record<string, number>> {
  let lastTodosResponseAt = 0;
  forge.onRequest((request, response) => {
    if (request.url?.startsWith('/api/v4/todos')) {
      response.on('finish', () => {
        lastTodosResponseAt = Date.now();
      });
    }
    return false;
  });
  forge.state.bulkAddTodos(forge.users.user.id, TODOS);
  for (const pane of ['Projects', 'Merge Requests', 'Channel']) await collapsePane(page, pane);
  await expandPane(page, 'Todos');
  await runCommand(page, 'Forge: Refresh Todos');
  // The seeded handful fills a few rows; more than that means the first page of the 10,000 is drawn.
  const rows = treeRows(page, 'Todos');
  await waitUntil(async () => (await rows.count()) > 8, 60_000, 'the first page of todos');
  const firstPageAfterResponseMs = Date.now() - lastTodosResponseAt;
  const loadMoreMs: number[] = [];
  // The list draws only the rows on screen: "Load more" is found by going to the end of the list.
  const endOfList = async (): Promise<string> => {
    await rows.first().click();
    await page.keyboard.press('End');
    const loadMore = treeRow(page, 'Todos', /^Load more/);
    await loadMore.waitFor({ timeout: 30_000 });
    return (await loadMore.getAttribute('aria-label')) ?? '';
  };
  for (let click = 0; click < 10; click++) {
    const before = await endOfList();
    const started = Date.now();
    await treeRow(page, 'Todos', /^Load more/).click();
    await waitUntil(async () => (await endOfList()) !== before, 30_000, 'the next page');
    loadMoreMs.push(Date.now() - started);
  }
  forge.onRequest(undefined);
  return {
    firstPageAfterResponseMs,
    loadMoreFirstMs: loadMoreMs[0] ?? Number.NaN,
    loadMoreTenthMs: loadMoreMs[loadMoreMs.length - 1] ?? Number.NaN,
    loadMoreMedianMs: median(loadMoreMs),
  };
}

function measureStartup(): Record<string, number> {
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'ignore' });
  const bundleBytes = statSync(path.join(ROOT, 'dist', 'extension.js')).size;
  const lazyBytes = statSync(path.join(ROOT, 'dist', 'undiciRuntime.js')).size;
  const activations: number[] = [];
  const bodies: number[] = [];
  for (let run = 0; run < ACTIVATION_RUNS; run++) {
    const output = execFileSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
        'test/host/run.ts',
        '--production',
        '--grep',
        'activation',
      ],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const activation = /activation \(load \+ activate\) ms = ([\d.]+)/.exec(output)?.[1];
    const body = /activate\(\) body ms = ([\d.]+)/.exec(output)?.[1];
    if (activation) activations.push(Number(activation));
    if (body) bodies.push(Number(body));
  }
  return {
    bundleBytes,
    lazyBytes,
    activationMedianMs: median(activations),
    activationMinMs: Math.min(...activations),
    activateBodyMedianMs: median(bodies),
  };
}

export async function runVscodeBench(): Promise<BenchResult> {
  const startup = measureStartup();
  const forge = await startFakeForge({ seed: 'small' });
  let vscode: VscodeSession | undefined;
  try {
    plantBigDiff(forge);
    vscode = await startVscode({
      name: 'bench-vscode',
      env: { FORGE_SERVER_URL: forge.url, FORGE_TOKEN: forge.userToken },
    });
    const page = vscode.page;
    if (!page) throw new Error('no browser page');
    await openActivityBarView(page, 'Forge');
    await treeRow(page, 'Projects', /acme\/web/).waitFor({ timeout: 60_000 });
    const trace = await measureTrace(page, forge);
    const changes = await measureChanges(page);
    const todos = await measureTodos(page, forge);
    const kb = (bytes: number): string => `${Math.round(bytes / 1024)} KB`;
    const ms = (value: number): string => `${Math.round(value)} ms`;
    const summary: SummaryRow[] = [
      {
        figure: 'job trace panel, 20 MB: first rows drawn (page)',
        value: ms(trace.pageFirstPaintMs ?? NaN),
        target: '< 500 ms',
        met: (trace.pageFirstPaintMs ?? Infinity) < 500,
      },
      {
        figure: 'job trace panel: slowest frame scrolling',
        value: ms(trace.frameMaxMs ?? NaN),
        target: '< 50 ms',
        met: (trace.frameMaxMs ?? Infinity) < 50,
      },
      {
        figure: 'MR Changes, 5,000 lines: first lines drawn',
        value: ms(changes.firstLinesMs ?? NaN),
        target: '< 500 ms',
        met: (changes.firstLinesMs ?? Infinity) < 500,
      },
      {
        figure: 'MR Changes: slowest frame scrolling',
        value: ms(changes.frameMaxMs ?? NaN),
        target: '< 50 ms',
        met: (changes.frameMaxMs ?? Infinity) < 50,
      },
      {
        figure: 'Todos (10,000): first page after the response',
        value: ms(todos.firstPageAfterResponseMs ?? NaN),
        target: '< 200 ms',
        met: (todos.firstPageAfterResponseMs ?? Infinity) < 200,
      },
      {
        figure: 'dist/extension.js (minified)',
        value: kb(startup.bundleBytes ?? NaN),
        target: '< 600 KB',
        met: (startup.bundleBytes ?? Infinity) < 600 * 1024,
      },
      {
        figure: 'activation in the real VS Code (median)',
        value: ms(startup.activationMedianMs ?? NaN),
        target: '< 50 ms',
        met: (startup.activationMedianMs ?? Infinity) < 50,
      },
    ];
    return {
      name: 'vscode',
      title: 'Rendering and start-up in the real VS Code',
      tables: [
        {
          title: 'Job trace panel (20 MB trace)',
          columns: ['figure', 'value'],
          rows: Object.entries(trace).map(([key, value]) => [key, String(Math.round(value))]),
          notes: [
            'firstRowsMs: from choosing the job to rows on screen (includes opening the panel and fetching 20 MB); pageFirstPaintMs: from the page script starting.',
          ],
        },
        {
          title: 'Merge request Changes tab (5,000 changed lines)',
          columns: ['figure', 'value'],
          rows: Object.entries(changes).map(([key, value]) => [key, String(Math.round(value))]),
        },
        {
          title: 'Todos tree (10,000 todos)',
          columns: ['figure', 'value'],
          rows: Object.entries(todos).map(([key, value]) => [key, String(Math.round(value))]),
        },
        {
          title: 'Start-up',
          columns: ['figure', 'value'],
          rows: Object.entries(startup).map(([key, value]) => [key, String(Math.round(value))]),
          notes: [`activation: median of ${ACTIVATION_RUNS} fresh VS Code starts, production build.`],
        },
      ],
      summary,
      data: { trace, changes, todos, startup },
    };
  } finally {
    await vscode?.close();
    await forge.close();
  }
}
