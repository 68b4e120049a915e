// The pipeline graph in the real VS Code (issue 37): opened from the palette, its stages, nodes,
// `needs:` edge and child pipeline drawn; a click on a node opens the job's trace, the arrow keys
// move between nodes, a node's button retries its failed job; light, dark and high-contrast themes.
import assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import type { FakeForge } from '../../server';
import { screenshot } from '../../vscode/harness';
import {
  answerQuickInput,
  expandPane,
  expectQuickInput,
  openActivityBarView,
  pickColorTheme,
  runCommand,
  screenshotIfFailed,
  treeRow,
  waitForThemeColours,
  waitUntil,
  webviewFrame,
} from '../support';
import { sharedWorkbench } from './sharedWorkbench';

describe('pipeline graph (UI)', function () {
  this.timeout(180_000);
  let forge: FakeForge;
  let page: Page;
  let frame: Frame;
  let pipelineId: number;
  let buildId: number;

  before(async () => {
    ({ forge, page } = await sharedWorkbench());
    // A pipeline of the seed's CI file (build, test needing build, a manual deploy, the docs child),
    // made here rather than before the window opens, so that no other suite sees it in its trees.
    const response = await fetch(`${forge.url}/api/v4/projects/${forge.fixtures.projects.web}/pipeline`, {
      method: 'POST',
      headers: { 'private-token': forge.userToken, 'content-type': 'application/json' },
      body: JSON.stringify({ ref: 'master' }),
    });
    assert.equal(response.status, 201);
    pipelineId = ((await response.json()) as { id: number }).id;
    const build = (forge.state.pipelines.get(pipelineId)?.jobIds ?? []).find(
      (id) => forge.state.jobs.get(id)?.name === 'build',
    );
    assert.ok(build !== undefined);
    buildId = build;
    forge.state.setJobStatus(buildId, 'failed');
  });

  afterEach(async function () {
    await screenshotIfFailed(this, page);
  });

  it('opens from the palette and draws the stages, the jobs, the needs edge and the child pipeline', async () => {
    await openActivityBarView(page, 'Forge');
    await expandPane(page, 'Projects');
    await treeRow(page, 'Projects', /acme\/web/).waitFor({ timeout: 60_000 });
    await runCommand(page, 'Forge: Show Pipeline Graph');
    await expectQuickInput(page, /Project of the pipeline/);
    await answerQuickInput(page, 'acme/web');
    await expectQuickInput(page, /Which pipeline of acme\/web/);
    await answerQuickInput(page, `#${pipelineId}`);
    frame = await webviewFrame(page, '.graph .node', 60_000);
    assert.deepEqual(await frame.locator('.stage-title').allInnerTexts(), [
      'build',
      'test',
      'deploy',
      'Downstream',
    ]);
    assert.equal(await frame.locator('.node').count(), 4, 'three jobs and the child pipeline');
    assert.equal(await frame.locator('svg.edges path').count(), 1, 'test needs build');
    assert.match(await frame.locator('.node.downstream').innerText(), /docs/);
    assert.equal(
      await frame.locator(`.node[data-job-id="${buildId}"] .node-action`).getAttribute('data-action'),
      'retry',
    );
    assert.equal(await frame.locator('html').getAttribute('data-csp-violations'), null, 'no CSP violation');
    await screenshot(page, 'pipeline-graph-light');
  });

  it("moves between nodes with the arrow keys, and opens a job's trace from its node", async () => {
    const build = frame.locator(`.node[data-job-id="${buildId}"] .node-main`);
    await build.focus();
    await page.keyboard.press('ArrowRight');
    const focusedName = (): Promise<string> =>
      frame.evaluate(() => document.activeElement?.closest('.node')?.getAttribute('data-name') ?? '');
    await waitUntil(async () => (await focusedName()) === 'test', 10_000, 'the test node focused');
    // Its needs edge is drawn highlighted while the node has focus.
    assert.equal(await frame.locator('svg.edges path.highlight').count(), 1);
    await build.click();
    // Its trace is empty (the job never ran): the panel's header says which job it shows.
    const trace = await webviewFrame(page, '.job-title', 60_000);
    await waitUntil(
      async () => (await trace.locator('.job-title').innerText({ timeout: 1_000 })) === `build #${buildId}`,
      30_000,
      `the trace panel of build #${buildId}`,
    );
    await waitUntil(
      async () => (await page.locator('.tab.active').innerText()).includes(`build #${buildId}`),
      30_000,
      'the trace of build in the active tab',
    );
  });

  it("retries the failed job from its node's button: the node shows the new attempt", async () => {
    await page.locator('.tab', { hasText: `Pipeline #${pipelineId}` }).click();
    frame = await webviewFrame(page, '.graph .node', 60_000);
    forge.clearRequests();
    await frame.locator(`.node[data-job-id="${buildId}"] .node-action`).click();
    await waitUntil(
      () =>
        Promise.resolve(forge.requests.some((request) => request.path.endsWith(`/jobs/${buildId}/retry`))),
      30_000,
      'POST retry',
    );
    const node = frame.locator('.node[data-name="build"]');
    await waitUntil(
      async () => (await node.getAttribute('data-job-id')) !== String(buildId),
      30_000,
      'the node shows the new attempt',
    );
    assert.match(await node.innerText(), /retried 1×/);
  });

  it('follows the dark and high-contrast themes', async () => {
    for (const [theme, themeClass, name] of [
      ['Dark Modern', 'vs-dark', 'dark'],
      ['Dark High Contrast', 'hc-black', 'high-contrast'],
    ] as const) {
      await pickColorTheme(page, theme, themeClass);
      await page.locator('.tab', { hasText: `Pipeline #${pipelineId}` }).click();
      frame = await webviewFrame(page, '.graph .node', 60_000);
      await waitForThemeColours(frame.locator('body'), 'dark');
      await screenshot(page, `pipeline-graph-${name}`);
    }
  });
});
