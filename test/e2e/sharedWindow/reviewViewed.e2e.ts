// A large review, file by file and commit by commit, clicked through as a reviewer would: a changed
// file ticked "Viewed" in the Merge Requests view (the folder counts it), viewed files hidden and
// shown again, a commit of the merge request opened in the multi-file diff editor and the next one
// from the editor's title, in the light and the dark theme (screenshots review-viewed-*.png,
// review-commit-*.png).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { FakeForge } from '../../server';
import { screenshot } from '../../vscode/harness';
import {
  collapsePane,
  expandPane,
  expandRow,
  pickColorTheme,
  runCommand,
  screenshotIfFailed,
  treeRow,
  waitForThemeColours,
  waitUntil,
} from '../support';
import { sharedWorkbench } from './sharedWorkbench';

describe('review file by file and commit by commit (UI)', function () {
  this.timeout(120_000);
  let forge: FakeForge;
  let page: Page;

  before(async () => {
    ({ forge, page } = await sharedWorkbench());
  });

  afterEach(async function () {
    await screenshotIfFailed(this, page);
  });

  async function openChangesOfLoginForm(): Promise<void> {
    for (const pane of ['Projects', 'Todos', 'Channel']) await collapsePane(page, pane);
    await expandPane(page, 'Merge Requests');
    await expandRow(page, 'Merge Requests', /^Assigned to me/, 60_000);
    // By its number: another suite gives !1 a hostile title before the window opens.
    await expandRow(page, 'Merge Requests', /^!1 /, 60_000);
    await expandRow(page, 'Merge Requests', /^Changes/, 60_000);
  }

  it('ticks a file viewed, counts it on the folder, hides it and shows it again', async () => {
    await openChangesOfLoginForm();
    const login = treeRow(page, 'Merge Requests', /^login\.ts/);
    await login.waitFor({ timeout: 30_000 });
    const tick = login.locator('.custom-view-tree-node-item-checkbox, .monaco-checkbox').first();
    await tick.click();
    const changes = treeRow(page, 'Merge Requests', /^Changes/);
    await waitUntil(
      // Another suite adds files to !1 before the window opens: counted, not assumed.
      async () => /1 of \d+ viewed/.test(await changes.innerText()),
      30_000,
      'the count on the Changes folder',
    );
    await screenshot(page, 'review-viewed-light');

    await runCommand(page, 'Forge: Hide Viewed Files');
    await waitUntil(
      async () => (await treeRow(page, 'Merge Requests', /^login\.ts/).count()) === 0,
      30_000,
      'the viewed file hidden',
    );
    assert.equal(await treeRow(page, 'Merge Requests', /^index\.ts/).count(), 1, 'the others stay');
    await screenshot(page, 'review-viewed-hidden');
    await runCommand(page, 'Forge: Show Viewed Files');
    await treeRow(page, 'Merge Requests', /^login\.ts/).waitFor({ timeout: 30_000 });
    // Cleared again for the suites after this one.
    await treeRow(page, 'Merge Requests', /^login\.ts/)
      .locator('.custom-view-tree-node-item-checkbox, .monaco-checkbox')
      .first()
      .click();
    await waitUntil(
      async () => !/viewed/.test(await changes.innerText()),
      30_000,
      'the count gone when nothing is viewed',
    );
  });

  it("opens the first commit's own changes and steps to the next from the editor's title", async () => {
    await openChangesOfLoginForm();
    await expandRow(page, 'Merge Requests', /^Commits/, 30_000);
    const first = treeRow(page, 'Merge Requests', /^Add login form/);
    await first.waitFor({ timeout: 30_000 });
    await first.click();
    const tab = page.locator('.tabs-container .tab.active');
    await waitUntil(
      async () => /!1 commit 1 of \d+/.test(await tab.innerText()),
      30_000,
      'the commit opened',
    );
    assert.ok(
      forge.requests.some((request) => /\/repository\/commits\/[0-9a-f]{40}\/diff$/.test(request.path)),
    );
    await page
      .locator('.monaco-workbench .multiDiffEditor, .monaco-workbench .multi-diff-editor')
      .first()
      .waitFor({
        timeout: 30_000,
      });
    await screenshot(page, 'review-commit-light');
    await page.locator('.editor-actions .action-label[aria-label^="Next Commit"]').first().click();
    await waitUntil(async () => /!1 commit 2 of \d+/.test(await tab.innerText()), 30_000, 'the next commit');
    // Its files drawn: until then the editor takes the focus back when it is ready (and a quick
    // input opened meanwhile turns inert).
    await page
      .locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: 'createServer' })
      .first()
      .waitFor({ timeout: 30_000 });
  });

  it('follows the dark theme', async () => {
    await pickColorTheme(page, 'Dark Modern', 'vs-dark');
    await waitForThemeColours(page.locator('.monaco-workbench .part.editor'), 'dark');
    await screenshot(page, 'review-commit-dark');
  });
});
