// A person's first minutes with the extension signed in from the environment, in a real VS Code in
// a browser: browse projects, jobs and merge requests, mark a todo done, open the log. Signing in
// through the UI is in signIn.e2e.ts (a window of its own, without an account).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { FakeForge } from '../../server';
import { screenshot } from '../../vscode/harness';
import {
  expandPane,
  expandRow,
  openActivityBarView,
  rowLabels,
  runCommand,
  treeRow,
  treeRows,
  viewPane,
  waitUntil,
} from '../support';
import { sharedWorkbench } from './sharedWorkbench';

describe('signed in from the environment', () => {
  let forge: FakeForge;
  let page: Page;

  before(async () => {
    ({ forge, page } = await sharedWorkbench());
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(page, `failed-${this.currentTest.title}`);
  });

  it('shows the projects of the account in the Forge view', async () => {
    await openActivityBarView(page, 'Forge');
    await expandPane(page, 'Projects');
    await treeRow(page, 'Projects', /acme\/web/).waitFor({ timeout: 60_000 });
    const labels = await rowLabels(page, 'Projects');
    assert.ok(labels.includes('Web'), `rows: ${labels.join(', ')}`);
    assert.ok(!labels.some((label) => /secret/i.test(label)), 'a private project alice is not in');
    await screenshot(page, 'projects');
  });

  it('expands a project into its folders and jobs grouped by pipeline', async () => {
    await expandRow(page, 'Projects', /acme\/web/);
    await treeRow(page, 'Projects', /^Jobs$/).waitFor();
    const labels = await rowLabels(page, 'Projects');
    for (const folder of ['Branches', 'Jobs', 'Merge Requests', 'Events'])
      assert.ok(labels.includes(folder), folder);
    await expandRow(page, 'Projects', /^Jobs$/);
    await treeRow(page, 'Projects', /^Pipeline #\d+/).waitFor();
    await expandRow(page, 'Projects', /^Pipeline #\d+/);
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
