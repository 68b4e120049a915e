// A new user's first hour in a clone of a project: the status bar shows the branch's merge request
// and pipeline at once, without the Forge view ever being opened; panels survive a window reload.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type FakeForge, startFakeForge } from '../server';
import { type VscodeSession, screenshot, startVscode } from '../vscode/harness';
import {
  answerQuickInput,
  expectQuickInput,
  pickColorTheme,
  runCommand,
  screenshotIfFailed,
  waitForThemeColours,
  waitUntil,
  webviewFrame,
} from './support';

function git(cwd: string, args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' });
}

describe('a clone of a project (UI)', function () {
  this.timeout(120_000);
  let forge: FakeForge;
  let vscode: VscodeSession;
  let page: Page;
  let clone: string;

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    clone = mkdtempSync(join(tmpdir(), 'forge-clone-'));
    git(clone, ['init', '-q']);
    git(clone, ['remote', 'add', 'origin', `${forge.url}/acme/web.git`]);
    git(clone, ['symbolic-ref', 'HEAD', 'refs/heads/feature/login']);
    vscode = await startVscode({
      name: 'e2e-status-bar',
      workspaceFolder: clone,
      env: { FORGE_SERVER_URL: forge.url, FORGE_TOKEN: forge.userToken },
    });
    assert.ok(vscode.page);
    page = vscode.page;
  });

  /** "Forge: Open Merge Request" from the palette, in acme/web; `answer` picks it. */
  async function openMergeRequest(
    answer: string,
    question: RegExp = /Open which merge request/,
  ): Promise<void> {
    await runCommand(page, 'Forge: Open Merge Request');
    await expectQuickInput(page, /Project of the merge request/);
    await answerQuickInput(page, 'acme/web');
    await expectQuickInput(page, question);
    await answerQuickInput(page, answer);
  }

  /** "Forge: Show Job Trace" from the palette, in acme/web; `answer` picks the job. */
  async function openJobTrace(answer: string): Promise<void> {
    await runCommand(page, 'Forge: Show Job Trace');
    await expectQuickInput(page, /Project of the job/);
    await answerQuickInput(page, 'acme/web');
    await expectQuickInput(page, /Job whose trace to show/);
    await answerQuickInput(page, answer);
  }

  async function openPipelineGraph(pipelineId: number): Promise<void> {
    await runCommand(page, 'Forge: Show Pipeline Graph');
    await expectQuickInput(page, /Project of the pipeline/);
    await answerQuickInput(page, 'acme/web');
    await expectQuickInput(page, /Which pipeline of acme\/web/);
    await answerQuickInput(page, `#${pipelineId}`);
  }

  afterEach(async function () {
    await screenshotIfFailed(this, page);
  });

  after(async () => {
    await vscode?.close();
    await forge?.close();
    rmSync(clone, { recursive: true, force: true });
  });

  it("shows the branch's merge request and pipeline without the Forge view opened", async () => {
    const mergeRequest = [...forge.state.mergeRequests.values()].find(
      (candidate) => candidate.sourceBranch === 'feature/login',
    );
    assert.ok(mergeRequest);
    const item = page.locator('.statusbar-item', { hasText: `!${mergeRequest.iid}` });
    await item.waitFor({ timeout: 60_000 });
    // The item shows the merge request first and its pipeline when that answer is in (later under
    // load): wait for the text asserted, not only for the item.
    const shown = new RegExp(`!${mergeRequest.iid}\\s+Pipeline running`);
    await waitUntil(async () => shown.test(await item.innerText()), 60_000, 'the pipeline in the item');
    const label = (await item.locator('[aria-label]').first().getAttribute('aria-label')) ?? '';
    assert.match(label, /^Forge: Merge request !\d+ of feature\/login, pipeline #\d+ running$/);
    assert.equal(
      await page.locator('.pane-header[aria-label^="Projects"]').count(),
      0,
      'the Forge view was not opened',
    );
    await screenshot(page, 'status-bar-clone');
  });

  it('offers the getting-started walkthrough, its titles translated from package.nls.json', async () => {
    await runCommand(page, 'Welcome: Open Walkthrough...');
    await expectQuickInput(page, /./);
    await answerQuickInput(page, 'Get started with Forge Workbench');
    const step = page.locator('.getting-started-step', { hasText: 'Add an account' });
    await step.first().waitFor({ timeout: 30_000 });
    for (const title of [
      'Browse your projects',
      "Read a job's trace",
      'Review a merge request',
      'Connect your channel',
    ]) {
      assert.equal(await page.locator('.getting-started-step', { hasText: title }).count(), 1, title);
    }
    assert.equal(await page.getByText(/%walkthrough\./).count(), 0, 'no untranslated key');
    await screenshot(page, 'walkthrough');
    await runCommand(page, 'View: Close All Editors');
  });

  it('reopens the issue, merge request, trace and pipeline graph panels after a window reload', async () => {
    await runCommand(page, 'Forge: Open Issue');
    await expectQuickInput(page, /group\/project#12/);
    await answerQuickInput(page, 'acme/web#1');
    const issueBefore = await webviewFrame(page, '.issue-header .issue-title', 60_000);
    await issueBefore.locator('html[data-restorable]').waitFor({ state: 'attached', timeout: 30_000 });
    await openMergeRequest('!1 ');
    const panel = await webviewFrame(page, '.mr-header .mr-title-text', 60_000);
    await panel.locator('html[data-restorable]').waitFor({ state: 'attached', timeout: 30_000 });
    // A changed file of !1 in the diff editor, from the panel's Changes tab.
    await panel.locator('vscode-tab-header[data-tab="changes"]').click();
    await panel.locator('section.file', { hasText: 'src/index.ts' }).getByText('Open in diff editor').click();
    await page.locator('.tabs-container .tab', { hasText: 'index.ts' }).waitFor({ timeout: 30_000 });
    // The graph before the trace: the trace's tab is the one shown after the reload.
    const pipelineId = forge.fixtures.pipelines.masterSuccess;
    await openPipelineGraph(pipelineId);
    const graphBefore = await webviewFrame(page, '.graph .node', 60_000);
    await graphBefore.locator('html[data-restorable]').waitFor({ state: 'attached', timeout: 30_000 });
    const nodesBefore = await graphBefore.locator('.graph .node').count();
    const jobId = forge.fixtures.jobs.success;
    await openJobTrace(`#${jobId}`);
    const traceBefore = await webviewFrame(page, '.viewport .row', 60_000);
    // The page has handed the workbench what reopens it after the reload (its restore key).
    await traceBefore.locator('html[data-restorable]').waitFor({ state: 'attached', timeout: 30_000 });

    // As a person reloads: the workbench saves its editors and their pages' state first.
    await runCommand(page, 'Developer: Reload Window');
    await page.waitForLoadState('load');
    const trace = await webviewFrame(page, '.viewport .row', 90_000);
    assert.ok((await trace.locator('.rows').innerText()).length > 0, 'the trace is back');
    await page.locator('.tabs-container .tab', { hasText: '!1 Add a login form' }).click();
    const mergeRequest = await webviewFrame(page, '.mr-header .mr-title-text', 60_000);
    await waitUntil(
      async () => (await mergeRequest.locator('.mr-header .mr-title-text').innerText()).length > 0,
      30_000,
      'the merge request title',
    );
    await screenshot(page, 'panels-after-reload');
    await page.locator('.tabs-container .tab', { hasText: '#1 Login page crashes on Safari' }).click();
    const issue = await webviewFrame(page, '.issue-header .issue-title', 60_000);
    await waitUntil(
      async () =>
        (await issue.locator('.issue-header .issue-title').innerText()).includes('Login page crashes'),
      30_000,
      'the issue drawn again',
    );
    await page.locator('.tabs-container .tab', { hasText: `Pipeline #${pipelineId}` }).click();
    const graph = await webviewFrame(page, '.graph .node', 60_000);
    await waitUntil(
      async () => (await graph.locator('.graph .node').count()) === nodesBefore,
      30_000,
      'the graph drawn again',
    );
    // The review's diff is back with its text: the entry serves `forge-review:` before the core loads.
    await page.locator('.tabs-container .tab', { hasText: 'index.ts' }).click();
    await waitUntil(
      async () =>
        (await page.locator('.monaco-diff-editor .view-lines', { hasText: 'createServer' }).count()) > 0,
      60_000,
      'the restored diff shows the file',
    );
    await screenshot(page, 'review-diff-after-reload');
  });

  it('shows the merge request and trace panels in a dark theme (the marketplace screenshots)', async () => {
    await runCommand(page, 'View: Close All Editors');
    await pickColorTheme(page, 'Dark Modern', 'vs-dark');
    try {
      await openMergeRequest('!1 ');
      const mergeRequest = await webviewFrame(page, '.mr-header .mr-title-text', 60_000);
      await mergeRequest.locator('vscode-tab-header[data-tab="changes"]').click();
      await mergeRequest.locator('section.file .diff-row').first().waitFor({ timeout: 30_000 });
      await waitForThemeColours(mergeRequest.locator('body'), 'dark');
      await screenshot(page, 'merge-request-changes-dark-theme');
      await runCommand(page, 'View: Close All Editors');
      await openJobTrace(`#${forge.fixtures.jobs.failed}`);
      const trace = await webviewFrame(page, '.viewport .row', 60_000);
      await waitForThemeColours(trace.locator('body'), 'dark');
      await screenshot(page, 'job-trace-dark-theme');
    } finally {
      await pickColorTheme(page, 'Light Modern', 'vs');
    }
  });

  it('opens a merged merge request from the palette by typing its number', async () => {
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'Forge: Open Merge Request');
    await expectQuickInput(page, /Project of the merge request/);
    await answerQuickInput(page, 'acme/web');
    await expectQuickInput(page, /Open which merge request/);
    // !2 is merged: not among the opened ones, found by its number.
    await answerQuickInput(page, '!2');
    await waitUntil(
      async () =>
        (
          await page
            .locator('.tabs-container .tab.active')
            .innerText()
            .catch(() => '')
        ).includes('!2'),
      20_000,
      'the panel of !2',
    );
    const merged = await webviewFrame(page, '.mr-header .mr-title-text', 60_000);
    assert.ok((await merged.locator('.mr-header').innerText()).length > 0);

    // When the list cannot be loaded, the number still opens it (fetched on its own).
    await runCommand(page, 'View: Close All Editors');
    forge.onRequest((request, response) => {
      if (request.method === 'GET' && /\/merge_requests(\?|$)/.test(request.url ?? '')) {
        response
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"message":"500 Internal Server Error"}');
        return true;
      }
      return false;
    });
    try {
      await openMergeRequest('!4', /Could not load the merge requests.*Type !number/);
      await waitUntil(
        async () =>
          (
            await page
              .locator('.tabs-container .tab.active')
              .innerText()
              .catch(() => '')
          ).includes('!4'),
        20_000,
        'the panel of !4',
      );
    } finally {
      forge.onRequest(undefined);
    }
  });
});
