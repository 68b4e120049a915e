// A person's first minutes with the extension, in a real VS Code in a browser: sign in through the
// UI, browse projects, jobs and merge requests, mark a todo done, open the log.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { type FakeForge, startFakeForge } from '../server';
import { type VscodeSession, screenshot, startVscode } from '../vscode/harness';
import {
  answerQuickInput,
  openActivityBarView,
  expectQuickInput,
  rowLabels,
  runCommand,
  treeRow,
  treeRows,
  viewPane,
  waitUntil,
} from './support';

describe('signed in from the environment', () => {
  let forge: FakeForge;
  let vscode: VscodeSession;
  let page: Page;

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    vscode = await startVscode({
      name: 'e2e-views',
      env: { FORGE_SERVER_URL: forge.url, FORGE_TOKEN: forge.userToken },
    });
    assert.ok(vscode.page);
    page = vscode.page;
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(page, `failed-${this.currentTest.title}`);
  });

  after(async () => {
    await vscode?.close();
    await forge?.close();
  });

  it('shows the projects of the account in the Forge view', async () => {
    await openActivityBarView(page, 'Forge');
    await treeRow(page, 'Projects', /acme\/web/).waitFor({ timeout: 60_000 });
    const labels = await rowLabels(page, 'Projects');
    assert.ok(labels.includes('Web'), `rows: ${labels.join(', ')}`);
    assert.ok(!labels.some((label) => /secret/i.test(label)), 'a private project alice is not in');
    await screenshot(page, 'projects');
  });

  it('expands a project into its folders and jobs grouped by pipeline', async () => {
    await treeRow(page, 'Projects', /acme\/web/).click();
    await treeRow(page, 'Projects', /^Jobs$/).waitFor();
    const labels = await rowLabels(page, 'Projects');
    for (const folder of ['Branches', 'Jobs', 'Merge Requests', 'Events'])
      assert.ok(labels.includes(folder), folder);
    await treeRow(page, 'Projects', /^Jobs$/).click();
    await treeRow(page, 'Projects', /^Pipeline #\d+/).waitFor();
    await treeRow(page, 'Projects', /^Pipeline #\d+/).click();
    // The first pipeline's jobs carry a status icon coloured by the theme.
    const icon = treeRows(page, 'Projects').locator('.codicon').first();
    await icon.waitFor();
    await screenshot(page, 'jobs');
  });

  it('marks a todo as done with the inline action', async () => {
    const header = viewPane(page, 'Todos').locator('.pane-header');
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    await treeRows(page, 'Todos').first().waitFor({ timeout: 20_000 });
    const before = await treeRows(page, 'Todos').count();
    assert.ok(before > 0);
    await screenshot(page, 'todos');
    forge.clearRequests();
    const first = treeRows(page, 'Todos').first();
    await first.hover();
    await first.locator('.action-label[aria-label="Mark as Done"]').click();
    await waitUntil(
      () =>
        Promise.resolve(forge.requests.some((request) => /\/todos\/\d+\/mark_as_done$/.test(request.path))),
      30_000,
      'POST mark_as_done',
    );
    await waitUntil(
      async () => (await treeRows(page, 'Todos').count()) === before - 1,
      30_000,
      'the row to go',
    );
  });

  it('opens the log from the command palette', async () => {
    await runCommand(page, 'Forge: Show Log');
    await page
      .locator('.part.panel')
      .filter({ hasText: 'Forge Workbench' })
      .first()
      .waitFor({ timeout: 15_000 });
    await screenshot(page, 'log');
  });
});

describe('a new user signs in through the UI', () => {
  let forge: FakeForge;
  let vscode: VscodeSession;
  let page: Page;

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    vscode = await startVscode({ name: 'e2e-sign-in' });
    assert.ok(vscode.page);
    page = vscode.page;
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(page, `failed-${this.currentTest.title}`);
  });

  after(async () => {
    await vscode?.close();
    await forge?.close();
  });

  it('sees a welcome with an Add Account button, signs in, and sees the projects', async () => {
    await openActivityBarView(page, 'Forge');
    const button = viewPane(page, 'Projects').locator('.monaco-text-button', { hasText: 'Add Account' });
    await button.waitFor({ timeout: 60_000 });
    await screenshot(page, 'welcome');
    await button.click();
    await expectQuickInput(page, /Address of the server/);
    await answerQuickInput(page, 'not a url at all');
    await expectQuickInput(page, /cannot contain spaces/);
    await answerQuickInput(page, forge.url);
    await expectQuickInput(page, /Kind of token/);
    await answerQuickInput(page, 'Personal access token');
    await expectQuickInput(page, /Personal access token for/);
    await answerQuickInput(page, forge.userToken);
    await treeRow(page, 'Projects', /acme\/web/).waitFor({ timeout: 60_000 });
    const check = forge.requests.find((request) => request.path === '/api/v4/todos');
    assert.equal(check?.headers['private-token'], forge.userToken);
    await screenshot(page, 'signed-in');
  });
});
