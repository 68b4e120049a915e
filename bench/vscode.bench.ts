/**
 * Benchmarks in the real VS Code (code-server + headless Chromium, like the UI tests):
 * - first paint of the job trace panel with a 20 MB trace, and frame times while scrolling it;
 * - first paint of the merge request Changes tab with a 5,000-line diff, and frame times scrolling it;
 * - the Todos tree with 10,000 todos: first page drawn after the response, and "Load more" later on;
 * - review: three changed files of !1 opened in the diff editor, against VS Code's own diff of the
 *   same texts in a fresh window (`review.ts`);
 * - start-up: the size of dist/extension.js (minified) and activation in the real VS Code (the host
 *   suite `activation`, run on the production build).
 * Wall-clock figures include the browser, the webview channel and the page; they are measured, not asserted.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { type FakeForge, type RecordedRequest, startFakeForge } from '../test/server';
import { type VscodeSession, startVscode } from '../test/vscode/harness';
import {
  answerQuickInput,
  collapsePane,
  fillQuickInput,
  quickInput,
  expandPane,
  expectQuickInput,
  openActivityBarView,
  runCommand,
  treeRow,
  viewPane,
  waitUntil,
  webviewFrame,
} from '../test/e2e/support';
import {
  measureEmptyWebview,
  medianPhases,
  pagePhases,
  writeBenchExtension,
  writeEmptyWebviewExtension,
} from './benchExtension';
import { type BenchResult, type SummaryRow, percentile } from './report';
import { runHostSuite } from './hostSuite';
import { measureDiffFloor, measureReview, reviewFigures, reviewSides, warmTypeScript } from './review';

const ROOT = path.resolve(__dirname, '..');
const TRACE_BYTES = 20 * 1024 * 1024;
const DIFF_LINES = 5000;
const TODOS = 10_000;
const ACTIVATION_RUNS = 3;
const LATER_REQUESTS_WINDOW_MS = 3000;
const LOAD_MORE_RETRY_MS = 5000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
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

/**
 * Scrolls `selector` by `step` px per animation frame and returns the frame intervals (ms). Fails
 * after a minute instead of waiting for ever on a page that draws no frames.
 */
async function scrollFrames(frame: Frame, selector: string, frames: number, step: number): Promise<number[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`scrolling ${selector}: no ${frames} frames drawn within a minute`)),
      60_000,
    );
  });
  const scrolled = frame.evaluate(
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
  try {
    return await Promise.race([scrolled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Types into the quick input, waits for the matching item, then presses Enter: when it did (the clock
 * of a panel's timing starts there, as the empty webview's does at its Enter, not before the typing).
 */
async function chooseInQuickInput(page: Page, text: string): Promise<number> {
  await fillQuickInput(page, text);
  const chosen = Date.now();
  await quickInput(page).locator('input.input').first().press('Enter');
  return chosen;
}

/** How many times the 20 MB trace is opened for its first rows (the median is reported). */
const TRACE_OPENS = 3;

interface TraceOpen {
  frame: Frame;
  started: number;
  firstRowsMs: number;
  appRowsMs: number;
  phases: Record<string, number>;
}

/** Opens a job's trace from the palette: from choosing the job to its first rows, and the page's phases. */
async function openTrace(page: Page, jobId: number): Promise<TraceOpen> {
  await runCommand(page, 'Forge: Show Job Trace');
  await expectQuickInput(page, /Project of the job/);
  await answerQuickInput(page, 'acme/web');
  await expectQuickInput(page, /Job whose trace to show/);
  const started = await chooseInQuickInput(page, `#${jobId}`);
  const frame = await webviewFrame(page, '.viewport .row', 60_000);
  const root = frame.locator('html');
  return {
    frame,
    started,
    // When the page drew them (its own clock reading), not when the test saw them: the test's
    // polling waits while the page's thread is busy with the rest of the trace arriving.
    firstRowsMs: Number(await root.getAttribute('data-first-paint-at')) - started,
    // The page's own rows (drawn by its script, after the host's first paint of the same rows).
    appRowsMs: Number(await root.getAttribute('data-app-first-paint-at')) - started,
    phases: await pagePhases(frame, started),
  };
}

export async function measureTrace(page: Page, forge: FakeForge): Promise<Record<string, number>> {
  // The session's first webview, with a short trace: VS Code starts its webview machinery then,
  // whatever the panel shows. Timed on its own, then closed.
  await runCommand(page, 'Forge: Show Job Trace');
  await expectQuickInput(page, /Project of the job/);
  await answerQuickInput(page, 'acme/web');
  await expectQuickInput(page, /Job whose trace to show/);
  const smallStarted = await chooseInQuickInput(page, `#${forge.fixtures.jobs.failed}`);
  const small = await webviewFrame(page, '.viewport .row', 60_000);
  const firstWebviewFirstRowsMs =
    Number(await small.locator('html').getAttribute('data-first-paint-at')) - smallStarted;
  await runCommand(page, 'View: Close All Editors');
  await waitUntil(
    () => Promise.resolve(!page.frames().some((frame) => frame.url().includes('vscode-webview'))),
    20_000,
    'the first trace panel closed',
  );

  const jobId = forge.fixtures.jobs.build;
  const trace = bigTrace();
  forge.state.setLazyTrace(jobId, () => trace);
  // Stored as a server stores a finished job's trace: the fake forge's first rendering of it (20 MB
  // copied and hashed for its ETag, on the benchmark's own thread) is not part of what is measured.
  forge.state.renderTrace(jobId);
  // Opened several times, as the empty webview is (the median is reported); the last stays open.
  const opens: TraceOpen[] = [];
  for (let run = 0; run < TRACE_OPENS; run++) {
    if (run > 0) await closeAllEditors(page);
    opens.push(await openTrace(page, jobId));
  }
  const { frame, started } = opens[opens.length - 1] ?? { frame: undefined, started: 0 };
  if (!frame) throw new Error('the trace panel never opened');
  const root = frame.locator('html');
  const firstRowsMs = median(opens.map((open) => open.firstRowsMs));
  const appRowsMs = median(opens.map((open) => open.appRowsMs));
  const phases = medianPhases(opens.map((open) => open.phases));
  // The host sends the trace in pieces; scroll while they are still arriving and being parsed…
  await frame.locator('#scroll-top').click();
  const loading = await scrollFrames(frame, '.viewport', 120, 2400);
  const traceBytes = Buffer.byteLength(trace);
  const parsedBytes = async (): Promise<number> => Number(await root.getAttribute('data-parsed-bytes'));
  const bytesAfterLoadingScroll = await parsedBytes();
  // …then, with all of it parsed, scroll from the top again.
  await waitUntil(async () => (await parsedBytes()) >= traceBytes, 120_000, 'the whole trace parsed');
  const parsedMs = Date.now() - started;
  const pageFirstPaint = Number(await root.getAttribute('data-first-paint-ms'));
  const pageFirstBytes = Number(await root.getAttribute('data-first-bytes-ms'));
  const lines = Number(await root.getAttribute('data-parsed-lines'));
  await frame.locator('#scroll-top').click();
  const intervals = await scrollFrames(frame, '.viewport', 120, 2400);
  return {
    traceBytes: trace.length,
    lines,
    firstWebviewFirstRowsMs,
    firstRowsMs,
    ...Object.fromEntries(opens.map((open, index) => [`firstRowsMs.${index + 1}`, open.firstRowsMs])),
    appRowsMs,
    ...Object.fromEntries(Object.entries(phases).map(([name, value]) => [`phase.${name}`, value])),
    pageFirstPaintMs: pageFirstPaint,
    pageFirstBytesMs: pageFirstBytes,
    allParsedMs: parsedMs,
    loadingScrollParsedPercent: (100 * bytesAfterLoadingScroll) / traceBytes,
    loadingFrameMaxMs: Math.max(...loading),
    loadingFrameP95Ms: percentile(loading, 95),
    frameMaxMs: Math.max(...intervals),
    frameP95Ms: percentile(intervals, 95),
  };
}

/** Closes every editor and waits until no webview is left (as before each empty-webview run). */
export async function closeAllEditors(page: Page): Promise<void> {
  await runCommand(page, 'View: Close All Editors');
  await waitUntil(
    () => Promise.resolve(!page.frames().some((frame) => frame.url().includes('vscode-webview'))),
    20_000,
    'every panel closed',
  );
}

/** How many times the merge request panel is opened for its first paint (the median is reported). */
const MERGE_REQUEST_OPENS = 3;

async function measureChanges(page: Page): Promise<Record<string, number>> {
  // Opened as the empty webview is: several times, with no other panel open (the 20 MB trace's
  // page would still hold its memory), the median reported. The last one stays open.
  const paints: number[] = [];
  const phaseRuns: Record<string, number>[] = [];
  let frame: Frame | undefined;
  for (let run = 0; run < MERGE_REQUEST_OPENS; run++) {
    await closeAllEditors(page);
    await runCommand(page, 'Forge: Open Merge Request');
    await expectQuickInput(page, /Project of the merge request/);
    await answerQuickInput(page, 'acme/web');
    await expectQuickInput(page, /Open which merge request/);
    const chosen = await chooseInQuickInput(page, '!1 Add a login form');
    const opened = await webviewFrame(page, '.mr-header .mr-title-text', 60_000);
    await waitUntil(
      async () => (await opened.locator('html').getAttribute('data-first-paint-at')) !== null,
      30_000,
      'the merge request drawn',
    );
    // From choosing the merge request to the page drawing it (the page's clock reading).
    paints.push(Number(await opened.locator('html').getAttribute('data-first-paint-at')) - chosen);
    phaseRuns.push(await pagePhases(opened, chosen));
    // The page drew everything (the app replaced the first paint) before the next run closes it.
    await opened.locator('vscode-tab-header[data-tab="changes"]').waitFor();
    frame = opened;
  }
  if (!frame) throw new Error('the merge request panel never opened');
  const panelFirstPaintMs = median(paints);
  const phases = medianPhases(phaseRuns);
  await frame.locator('vscode-tab-header[data-tab="changes"]').waitFor();
  const started = Date.now();
  await frame.locator('vscode-tab-header[data-tab="changes"]').click();
  const file = frame.locator('section.file[data-path="src/long.ts"]');
  await file.waitFor({ timeout: 60_000 });
  const tabShownMs = Date.now() - started;
  // Files over 3,000 lines start collapsed; expanding one draws only the rows near the screen.
  const expandStarted = Date.now();
  if (/\bcollapsed\b/.test((await file.getAttribute('class')) ?? ''))
    await file.locator('.file-toggle').click();
  await file.locator('.diff-row.added').first().waitFor({ timeout: 60_000 });
  const firstLinesMs = Date.now() - expandStarted;
  const intervals = await scrollFrames(frame, 'html', 120, 1200);
  return {
    panelFirstPaintMs,
    ...Object.fromEntries(paints.map((value, index) => [`panelFirstPaintMs.${index + 1}`, value])),
    ...Object.fromEntries(Object.entries(phases).map(([name, value]) => [`phase.${name}`, value])),
    tabShownMs,
    firstLinesMs,
    frameMaxMs: Math.max(...intervals),
    frameP95Ms: percentile(intervals, 95),
  };
}

/**
 * In the workbench page: notes (Date.now()) the first frame drawn after the Todos pane shows more
 * than `rows` rows, in `window.__forgeTodosRowsAt`. A string, so that nothing is added to it on the
 * way to the page.
 */
const WATCH_TODO_ROWS = (rows: number): string => `(() => {
  const pane = [...document.querySelectorAll('.pane')].find((candidate) =>
    /^\\s*Todos\\s*$/i.test(candidate.querySelector('.pane-header h3.title')?.textContent ?? ''));
  if (!pane) throw new Error('no Todos pane');
  window.__forgeTodosRowsAt = undefined;
  const observer = new MutationObserver(() => {
    if (pane.querySelectorAll('.pane-body .monaco-list-row').length <= ${rows}) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => { window.__forgeTodosRowsAt = Date.now(); }, 0));
  });
  observer.observe(pane, { childList: true, subtree: true });
})()`;

/** In the workbench page: records animation frames until `__forgeStopFrames()`, which returns the longest interval. */
const RECORD_FRAMES = `(() => {
  let last = performance.now();
  let longest = 0;
  let running = true;
  const tick = (now) => {
    longest = Math.max(longest, now - last);
    last = now;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.__forgeStopFrames = () => {
    running = false;
    return longest;
  };
})()`;

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
  // The view is reloaded while hidden, so the load starts when it is shown again, as on a first look.
  for (const pane of ['Projects', 'Merge Requests', 'Channel', 'Todos']) await collapsePane(page, pane);
  forge.state.bulkAddTodos(forge.users.user.id, TODOS);
  await runCommand(page, 'Forge: Refresh Todos');
  // The seeded handful fills a few rows; more than that means the first page of the 10,000 is drawn.
  await page.evaluate(WATCH_TODO_ROWS(8));
  await expandPane(page, 'Todos');
  const rowsDrawnAt = async (): Promise<number> =>
    Number(await page.evaluate('window.__forgeTodosRowsAt ?? 0'));
  await waitUntil(async () => (await rowsDrawnAt()) > 0, 60_000, 'the first page of todos');
  const firstPageAfterResponseMs = (await rowsDrawnAt()) - lastTodosResponseAt;
  const loadMoreMs: number[] = [];
  // The list draws only the rows on screen: "Load more" is found by going to the end of the list.
  // Focused, not clicked: a click on a todo row opens the todo in the browser. Undefined while
  // "Load more" is not on screen (the list was redrawn under the key press).
  const list = viewPane(page, 'Todos').locator('.monaco-list').first();
  const endOfList = async (): Promise<string | undefined> => {
    await list.focus();
    await page.keyboard.press('End');
    const loadMore = treeRow(page, 'Todos', /^Load more/);
    try {
      await loadMore.waitFor({ timeout: 2_000 });
      return (await loadMore.getAttribute('aria-label', { timeout: 1_000 })) ?? '';
    } catch {
      return undefined;
    }
  };
  const slowestFrames: number[] = [];
  let loadMoreRetries = 0;
  for (let click = 0; click < 10; click++) {
    let before: string | undefined;
    await waitUntil(async () => (before = await endOfList()) !== undefined, 30_000, '"Load more"');
    await page.evaluate(RECORD_FRAMES);
    const started = Date.now();
    let clickedAt = Date.now();
    await treeRow(page, 'Todos', /^Load more/).click();
    await waitUntil(
      async () => {
        const now = await endOfList();
        if (now !== undefined && now !== before) return true;
        // A click can land while the list is being redrawn and do nothing: click again (counted).
        if (now !== undefined && Date.now() - clickedAt > LOAD_MORE_RETRY_MS) {
          await treeRow(page, 'Todos', /^Load more/).click();
          clickedAt = Date.now();
          loadMoreRetries++;
        }
        return false;
      },
      30_000,
      'the next page',
    );
    loadMoreMs.push(Date.now() - started);
    slowestFrames.push(Number(await page.evaluate('window.__forgeStopFrames()')));
  }
  forge.onRequest(undefined);
  return {
    firstPageAfterResponseMs,
    loadMoreSlowestFrameMs: Math.max(...slowestFrames),
    loadMoreSlowestFrameMedianMs: median(slowestFrames),
    loadMoreRetries,
    loadMoreFirstMs: loadMoreMs[0] ?? Number.NaN,
    loadMoreTenthMs: loadMoreMs[loadMoreMs.length - 1] ?? Number.NaN,
    loadMoreMedianMs: median(loadMoreMs),
  };
}

/** An extension whose `activate` returns at once: VS Code's own share of activating one. */
function writeEmptyExtension(parent: string, name: string): string {
  return writeBenchExtension(
    parent,
    name,
    'exports.activate = () => ({});\nexports.deactivate = () => {};\n',
  );
}

/** Requiring dist/extension.js in plain Node with a stand-in for 'vscode': the module load alone. */
const MODULE_LOAD_SCRIPT = `
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest);
};
const anything = new Proxy(function () {}, {
  get: (_target, key) => (key === '__esModule' || typeof key === 'symbol' ? undefined : anything),
  apply: () => anything,
  construct: () => anything,
});
// Bundles copy the module's own keys when they load it: 'l10n' is one (read at load, src/l10nSetup.ts).
const standIn = { l10n: { bundle: undefined, t: (message) => message } };
const exported = new Proxy(standIn, { get: (target, key) => (key in target ? target[key] : anything) });
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: exported };
const started = process.hrtime.bigint();
require(process.argv[1]);
process.stdout.write(String(Number(process.hrtime.bigint() - started) / 1e6));
`;

function moduleLoadMs(file: string): number {
  const output = execFileSync(process.execPath, ['-e', MODULE_LOAD_SCRIPT, file], { encoding: 'utf8' });
  return Number(output);
}

interface ActivationRun {
  measurements: Record<string, number>;
  /** Requests the fake forge received from VS Code's start to the report (activation included). */
  requests: string[];
  /** Requests in the few seconds after the report. */
  laterRequests: string[];
}

/**
 * One fresh VS Code with the host suite `activation` on the production build, the two empty
 * extensions installed next to ours; no view of ours is visible.
 */
async function activationRun(floorDirs: string[]): Promise<ActivationRun> {
  return runHostSuite(
    { name: 'activation', grep: 'activation', extraExtensionDirs: floorDirs },
    async ({ report, reportedAt, forge }) => {
      // What the extension does in the background soon after activation, for the notes.
      await new Promise((resolve) => setTimeout(resolve, LATER_REQUESTS_WINDOW_MS));
      const describe = (request: RecordedRequest): string => `${request.method} ${request.path}`;
      return {
        measurements: report.measurements ?? {},
        requests: forge.requests.filter((request) => request.at <= reportedAt).map(describe),
        laterRequests: forge.requests.filter((request) => request.at > reportedAt).map(describe),
      };
    },
  );
}

async function measureStartup(): Promise<{
  figures: Record<string, number>;
  series: Record<string, number[]>;
  requests: string[];
  laterRequests: string[];
}> {
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'ignore' });
  execFileSync(process.execPath, ['scripts/build-tests.mjs'], { cwd: ROOT, stdio: 'ignore' });
  const bundle = path.join(ROOT, 'dist', 'extension.js');
  const bundleBytes = statSync(bundle).size;
  const lazyBytes = statSync(path.join(ROOT, 'dist', 'undiciRuntime.js')).size;
  const core = path.join(ROOT, 'dist', 'core.js');
  const coreBytes = statSync(core).size;
  const moduleLoads = Array.from({ length: 5 }, () => moduleLoadMs(bundle));
  const coreModuleLoads = Array.from({ length: 5 }, () => moduleLoadMs(core));
  const floorParent = mkdtempSync(path.join(tmpdir(), 'forge-bench-empty-'));
  const floorDirs = ['empty-before', 'empty-after'].map((name) => writeEmptyExtension(floorParent, name));
  const series: Record<string, number[]> = {};
  const requests: string[] = [];
  const laterRequests: string[] = [];
  try {
    for (let run = 0; run < ACTIVATION_RUNS; run++) {
      const result = await activationRun(floorDirs);
      for (const [name, value] of Object.entries(result.measurements)) (series[name] ??= []).push(value);
      requests.push(...result.requests);
      laterRequests.push(...result.laterRequests);
    }
  } finally {
    rmSync(floorParent, { recursive: true, force: true });
  }
  const ours = series['activation (load + activate) ms'] ?? [];
  const floor = [
    ...(series['empty extension activation, before ours, ms'] ?? []),
    ...(series['empty extension activation, after ours, ms'] ?? []),
  ];
  return {
    figures: {
      bundleBytes,
      coreBytes,
      lazyBytes,
      moduleLoadMedianMs: median(moduleLoads),
      coreModuleLoadMedianMs: median(coreModuleLoads),
      coreLoadOnFirstUseMedianMs: median(series['core load on first use ms'] ?? []),
      activationMedianMs: median(ours),
      activationMinMs: Math.min(...ours),
      activateBodyMedianMs: median(series['activate() body ms'] ?? []),
      emptyExtensionMedianMs: median(floor),
      emptyExtensionMinMs: Math.min(...floor),
      activationAboveEmptyMedianMs: median(ours) - median(floor),
      requestsAtActivation: requests.length,
    },
    series: { ...series, moduleLoadMs: moduleLoads, coreModuleLoadMs: coreModuleLoads },
    requests,
    laterRequests,
  };
}

export async function runVscodeBench(): Promise<BenchResult> {
  const {
    figures: startup,
    series: startupSeries,
    requests: activationRequests,
    laterRequests,
  } = await measureStartup();
  const forge = await startFakeForge({ seed: 'small' });
  let vscode: VscodeSession | undefined;
  const floorParent = mkdtempSync(path.join(tmpdir(), 'forge-bench-webview-'));
  try {
    plantBigDiff(forge);
    // VS Code's own floor for the review, in a window of its own (as ours is the first diff of its
    // window), before the session that measures ours.
    const sides = await reviewSides(forge);
    const diffFloor = await measureDiffFloor(floorParent, sides);
    vscode = await startVscode({
      name: 'bench-vscode',
      env: { FORGE_SERVER_URL: forge.url, FORGE_TOKEN: forge.userToken },
      extraExtensionDirs: [writeEmptyWebviewExtension(floorParent)],
    });
    const page = vscode.page;
    if (!page) throw new Error('no browser page');
    await openActivityBarView(page, 'Forge');
    await treeRow(page, 'Projects', /acme\/web/).waitFor({ timeout: 60_000 });
    const trace = await measureTrace(page, forge);
    // The platform's floor, in the same session: VS Code showing a webview that does nothing, three
    // times between the panels and three times at the end (the machine's pace drifts over a run).
    const emptyBetween = await measureEmptyWebview(page);
    const changes = await measureChanges(page);
    const todos = await measureTodos(page, forge);
    await warmTypeScript(vscode, page);
    const review = reviewFigures(await measureReview(page), diffFloor);
    const emptyAtEnd = await measureEmptyWebview(page);
    const emptyWebviewTimes = [...emptyBetween.times, ...emptyAtEnd.times];
    const emptyWebviewMs = median(emptyWebviewTimes);
    const emptyWebview = { phases: medianPhases([...emptyBetween.phases, ...emptyAtEnd.phases]) };
    const traceRatio = (trace.firstRowsMs ?? NaN) / emptyWebviewMs;
    const mergeRequestRatio = (changes.panelFirstPaintMs ?? NaN) / emptyWebviewMs;
    const kb = (bytes: number): string => `${Math.round(bytes / 1024)} KB`;
    const ms = (value: number): string => `${Math.round(value)} ms`;
    const summary: SummaryRow[] = [
      {
        figure: 'job trace panel, 20 MB: from choosing the job to its first rows',
        value: `${ms(trace.firstRowsMs ?? NaN)} (the page's script: ${ms(trace.appRowsMs ?? NaN)})`,
        target: '< 500 ms',
        met: (trace.firstRowsMs ?? Infinity) < 500,
      },
      {
        figure: 'job trace panel, 20 MB: first rows ÷ an empty webview (same session)',
        value: `${traceRatio.toFixed(2)}× (${ms(trace.firstRowsMs ?? NaN)} ÷ ${ms(emptyWebviewMs)})`,
        target: '≤ 1.2×',
        met: traceRatio <= 1.2,
      },
      {
        figure: 'merge request panel: first paint ÷ an empty webview (same session)',
        value: `${mergeRequestRatio.toFixed(2)}× (${ms(changes.panelFirstPaintMs ?? NaN)} ÷ ${ms(emptyWebviewMs)})`,
        target: '≤ 1.2×',
        met: mergeRequestRatio <= 1.2,
      },
      {
        figure: 'job trace panel: slowest frame scrolling',
        value: ms(trace.frameMaxMs ?? NaN),
        target: '< 50 ms',
        met: (trace.frameMaxMs ?? Infinity) < 50,
      },
      {
        figure: 'job trace panel: slowest frame scrolling while the trace loads',
        value: ms(trace.loadingFrameMaxMs ?? NaN),
        target: '< 50 ms',
        met: (trace.loadingFrameMaxMs ?? Infinity) < 50,
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
        figure: 'Todos: slowest workbench frame during "Load more" (median of 10 loads)',
        value: ms(todos.loadMoreSlowestFrameMedianMs ?? NaN),
        target: '< 50 ms',
        met: (todos.loadMoreSlowestFrameMedianMs ?? Infinity) < 50,
      },
      {
        figure: 'review: from choosing a changed file to its diff shown (server, median of 3)',
        value: `${ms(review.fileToDiffMedianMs ?? NaN)} (max ${ms(review.fileToDiffMaxMs ?? NaN)})`,
        target: '< 500 ms',
        met: (review.fileToDiffMaxMs ?? Infinity) < 500,
      },
      {
        figure: "review: ours ÷ VS Code's own diff of the same texts (fresh window, same order; median of 3)",
        value: `${(review.oursOverFloorMedian ?? NaN).toFixed(2)}× (floor ${ms(review.floorMedianMs ?? NaN)}, max ${ms(review.floorMaxMs ?? NaN)})`,
        target: '≤ 1.2×',
        met: (review.oursOverFloorMedian ?? Infinity) <= 1.2,
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
      {
        figure: 'activation: ours − empty-extension floor (median)',
        value: `${ms(startup.activationAboveEmptyMedianMs ?? NaN)} (floor ${ms(startup.emptyExtensionMedianMs ?? NaN)})`,
        target: '< 50 ms',
        met: (startup.activationAboveEmptyMedianMs ?? Infinity) < 50,
      },
      {
        figure: 'requests to the forge at activation (no view visible)',
        value: String(activationRequests.length),
        target: '0',
        met: activationRequests.length === 0,
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
            `firstWebviewFirstRowsMs: the session's first webview (a short trace), from choosing the job to the page drawing rows: VS Code starting its webview machinery, whatever the panel shows. firstRowsMs: then the 20 MB trace (opened ${TRACE_OPENS} times, median; each run firstRowsMs.n), from choosing the job (the Enter in the quick pick, as for the empty webview) to the first frame showing its rows (the page's clock reading): the host's first paint, the rows written into the page's HTML once the first 64 KB are here; appRowsMs: the page's script drawing the same rows; phase.*: when the host created the panel, set its HTML, the document and its script started, the first host message and the first rows (medians); pageFirstPaintMs: from the page script starting; pageFirstBytesMs: from the page script starting to the first text arriving from the host (the rest of pageFirstPaintMs is the page's own work); allParsedMs: until the page has parsed every character of the trace.`,
            'loadingFrame*: scrolling right after the first rows, while the host is still sending the trace in pieces and the page parses them (loadingScrollParsedPercent: how much was parsed when that scroll ended); frame*: scrolling from the top once all of it is parsed.',
            'Scrolling: 120 frames, 2,400 px a frame; frame*: intervals between animation frames.',
          ],
        },
        {
          title: 'Merge request Changes tab (5,000 changed lines)',
          columns: ['figure', 'value'],
          rows: Object.entries(changes).map(([key, value]) => [key, String(Math.round(value))]),
          notes: [
            'tabShownMs: from the click on the tab to the file list; firstLinesMs: from expanding the 5,000-line file (it starts collapsed) to its first lines. Scrolling: 120 frames, 1,200 px a frame.',
          ],
        },
        {
          title: 'Todos tree (10,000 todos)',
          columns: ['figure', 'value'],
          rows: Object.entries(todos).map(([key, value]) => [key, String(Math.round(value))]),
          notes: [
            'firstPageAfterResponseMs: from the fake forge sending the last byte of the first page to the first frame the workbench drew with its rows (the view was reloaded while hidden, then shown). loadMore*: ten clicks on "Load more"; *Ms from the click to the new last row as the test sees it (polling, every 100 ms); SlowestFrame: the longest interval between animation frames of the workbench meanwhile (the view stays responsive when it is short).',
          ],
        },
        {
          title: 'Review in the diff editor',
          columns: ['figure', 'value'],
          rows: Object.entries(review).map(([key, value]) => [key, String(Math.round(value))]),
          notes: [
            'From the click on a file under "Changes" (Merge Requests view, !1) to the diff editor showing lines of the new side; both sides read from the server (no clone in the workspace), each file for the first time: src/login.ts (added), src/index.ts, test/login.test.ts.',
            "VS Code's floor: a fresh window (started before the session measuring ours; it is the first diff of its window, as ours is) opens the same two texts of each file, in the same order, through a bench extension's command (`vscode.diff` of two documents its content provider holds in memory), timed from the Enter in the command palette to the diff editor showing the new side. oursOverFloorMedian: the median of the three files' ratios.",
          ],
        },
        {
          title: 'Start-up',
          columns: ['figure', 'value'],
          rows: Object.entries(startup).map(([key, value]) => [key, String(Math.round(value))]),
          notes: [
            `activation: median of ${ACTIVATION_RUNS} fresh VS Code starts, production build, measured by the host suite \`activation\` as the time of \`ext.activate()\`. emptyExtension: the same call for an extension whose activate() returns at once (one activated just before ours, one just after; median of both), VS Code's own share. moduleLoad: requiring dist/extension.js in plain Node with a stand-in for 'vscode' (median of 5); coreModuleLoad: the same for dist/core.js, the rest of the extension, which the entry requires the first time a view asks for items or a command runs; coreLoadOnFirstUse: that first load and the core's set-up in the real VS Code, timed by the entry and read by the suite after activation. bundleBytes: dist/extension.js; coreBytes: dist/core.js; lazyBytes: dist/undiciRuntime.js (loaded on the first request).`,
            `requestsAtActivation: requests the fake forge received from VS Code's start until the suite reported, Forge views hidden${activationRequests.length > 0 ? `: ${activationRequests.join(', ')}` : ''}.`,
            `In the ${LATER_REQUESTS_WINDOW_MS / 1000} s after the report (all starts): ${laterRequests.join(', ') || 'none'}.`,
          ],
        },
      ],
      summary,
      data: {
        trace,
        changes,
        todos,
        review,
        emptyWebviewMs,
        emptyWebviewTimes,
        emptyWebviewPhases: emptyWebview.phases,
        startup,
        startupSeries,
        activationRequests,
        laterRequests,
      },
    };
  } finally {
    await vscode?.close();
    await forge.close();
    rmSync(floorParent, { recursive: true, force: true });
  }
}
