// Acting on the server from the trees, as a person does: inline buttons that appear only where
// they apply, and context menus (the admin's own view is in hostile.e2e.ts, an administrator's window).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { FakeForge } from '../../server';
import { screenshot } from '../../vscode/harness';
import { collapsePane, expandPane, expandRow, treeRow, waitUntil } from '../support';
import { sharedWorkbench } from './sharedWorkbench';

describe('actions from the trees', () => {
  let forge: FakeForge;
  let page: Page;

  before(async () => {
    ({ forge, page } = await sharedWorkbench());
    for (const pane of ['Merge Requests', 'Todos', 'Channel']) await collapsePane(page, pane);
    await expandPane(page, 'Projects');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(page, `failed-${this.currentTest.title}`);
  });

  it('retries a failed job with its inline button, and offers no retry on a running one', async () => {
    await treeRow(page, 'Projects', /acme\/web/).waitFor({ timeout: 60_000 });
    await expandRow(page, 'Projects', /acme\/web/);
    await expandRow(page, 'Projects', /^Jobs$/);
    await expandRow(page, 'Projects', /^Pipeline #3(?!\d)/);
    // Its stage rows open at first, unless "Collapse All" closed them before (an earlier suite).
    await expandRow(page, 'Projects', 'test');
    const running = treeRow(page, 'Projects', /^test:unit/);
    await running.hover();
    // The row draws its inline actions once hovered: wait for them before counting.
    await running.locator('.action-label[aria-label="Cancel Job"]').waitFor({ timeout: 30_000 });
    assert.equal(await running.locator('.action-label[aria-label="Cancel Job"]').count(), 1);
    assert.equal(await running.locator('.action-label[aria-label="Retry Job"]').count(), 0);
    const failed = treeRow(page, 'Projects', /^lint/);
    await failed.hover();
    forge.clearRequests();
    await failed.locator('.action-label[aria-label="Retry Job"]').click();
    await waitUntil(
      () => Promise.resolve(forge.requests.some((request) => /\/jobs\/\d+\/retry$/.test(request.path))),
      30_000,
      'POST retry',
    );
    await screenshot(page, 'job-retried');
  });

  it('shows the branch actions in its context menu', async () => {
    await expandRow(page, 'Projects', /^Branches$/);
    const branch = treeRow(page, 'Projects', /^feature\/login/);
    await branch.click({ button: 'right' });
    const menu = page.locator('.context-view .monaco-menu');
    await menu.waitFor();
    const items = await menu.locator('.action-label').allInnerTexts();
    assert.ok(
      items.some((item) => /Protect Branch/.test(item)),
      items.join(', '),
    );
    assert.ok(
      items.some((item) => /Delete Branch/.test(item)),
      items.join(', '),
    );
    await screenshot(page, 'branch-menu');
    await page.keyboard.press('Escape');
  });
});
