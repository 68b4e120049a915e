// Acting on the server from the trees, as a person does: inline buttons that appear only where
// they apply, context menus, and the admin's own view.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { type FakeForge, startFakeForge } from '../server';
import { type VscodeSession, screenshot, startVscode } from '../vscode/harness';
import { collapsePane, expandPane, openActivityBarView, treeRow, waitUntil } from './support';

describe('actions from the trees', () => {
  let forge: FakeForge;
  let vscode: VscodeSession;
  let page: Page;

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    // An administrator, so the Admin view shows too.
    vscode = await startVscode({
      name: 'e2e-actions',
      env: { FORGE_SERVER_URL: forge.url, FORGE_TOKEN: forge.adminToken },
    });
    assert.ok(vscode.page);
    page = vscode.page;
    await openActivityBarView(page, 'Forge');
    for (const pane of ['Merge Requests', 'Todos', 'Admin', 'Channel']) await collapsePane(page, pane);
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(page, `failed-${this.currentTest.title}`);
  });

  after(async () => {
    await vscode?.close();
    await forge?.close();
  });

  it('retries a failed job with its inline button, and offers no retry on a running one', async () => {
    await treeRow(page, 'Projects', /acme\/web/).waitFor({ timeout: 60_000 });
    await treeRow(page, 'Projects', /acme\/web/).click();
    await treeRow(page, 'Projects', /^Jobs$/).click();
    await treeRow(page, 'Projects', /^Pipeline #3/).click();
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
    await treeRow(page, 'Projects', /^Branches$/).click();
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

  it('shows the Merge Requests and Admin views to an administrator', async () => {
    await collapsePane(page, 'Projects');
    await expandPane(page, 'Merge Requests');
    await treeRow(page, 'Merge Requests', /All opened/).click();
    await treeRow(page, 'Merge Requests', /^!\d+/).waitFor({ timeout: 20_000 });
    await expandPane(page, 'Admin');
    await treeRow(page, 'Admin', /Broadcast messages/i).waitFor({ timeout: 20_000 });
    await screenshot(page, 'admin');
  });
});
