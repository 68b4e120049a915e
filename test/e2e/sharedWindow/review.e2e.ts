// A review in VS Code's own diff editor, clicked through as a reviewer would: the "Changes" folder
// of a merge request in the Merge Requests view, a file side by side with its review threads on the
// lines, a reply typed into a thread, a comment held for the review and submitted from the status
// bar, a suggestion applied, in the light and the dark theme (screenshots review-*.png).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { FakeForge } from '../../server';
import { screenshot } from '../../vscode/harness';
import {
  collapsePane,
  expandPane,
  expandRow,
  openActivityBarView,
  pickColorTheme,
  screenshotIfFailed,
  treeRow,
  waitForThemeColours,
  waitUntil,
  webviewFrame,
} from '../support';
import { sharedWorkbench } from './sharedWorkbench';

describe('review in the diff editor (UI)', function () {
  this.timeout(120_000);
  let forge: FakeForge;
  let page: Page;

  before(async () => {
    ({ forge, page } = await sharedWorkbench());
  });

  afterEach(async function () {
    await screenshotIfFailed(this, page);
  });

  it('opens a file of !5 from its Changes folder, with the review threads on their lines, and answers one', async () => {
    await openActivityBarView(page, 'Forge');
    for (const pane of ['Projects', 'Todos', 'Channel']) await collapsePane(page, pane);
    await expandPane(page, 'Merge Requests');
    await expandRow(page, 'Merge Requests', /^Created by me/, 60_000);
    await expandRow(page, 'Merge Requests', /^!5 Draft: Dark mode/, 60_000);
    await expandRow(page, 'Merge Requests', /^Changes/, 60_000);
    await treeRow(page, 'Merge Requests', /^dark\.css/).click();
    const diff = page.locator('.monaco-diff-editor');
    await diff
      .locator('.editor.modified .view-lines', { hasText: 'color-scheme' })
      .first()
      .waitFor({ timeout: 30_000 });
    // bob's thread on line 2 of the new side, with alice's answer.
    const thread = page.locator('.review-widget', { hasText: 'Should this follow the system theme' }).first();
    await thread.waitFor({ timeout: 30_000 });
    assert.match(await thread.innerText(), /this file is only loaded in dark mode/);
    await screenshot(page, 'review-diff-threads');

    // The reply box opens from its prompt: the controller's "Reply…" (it said "Comment on this line").
    await thread.getByText('Reply…').first().click();
    await thread.locator('.monaco-editor textarea').first().waitFor({ timeout: 30_000 });
    await page.keyboard.type('Agreed: keep it, and follow the system theme in a later change.');
    await thread
      .locator('.monaco-button, a.monaco-button', { hasText: /^Add Comment Now$/ })
      .first()
      .click();
    await waitUntil(
      async () => /Agreed: keep it/.test(await thread.innerText()),
      30_000,
      'the reply in the thread',
    );
    const posted = forge.requests.find(
      (request) =>
        request.method === 'POST' &&
        /\/merge_requests\/5\/discussions\/[0-9a-f]{40}\/notes$/.test(request.path),
    );
    assert.ok(posted, 'the reply went to the thread');
    await screenshot(page, 'review-diff-reply');
  });

  it('holds a comment for the review, submits it from the status bar, and applies a suggestion', async () => {
    const thread = page.locator('.review-widget', { hasText: 'Should this follow the system theme' }).first();
    await thread.getByText('Reply…').first().click();
    await thread.locator('.monaco-editor textarea').first().waitFor({ timeout: 30_000 });
    await page.keyboard.type('And a test for the toggle, please.');
    await thread
      .locator('.monaco-button, a.monaco-button', { hasText: /^Add to Review$/ })
      .first()
      .click();
    await waitUntil(
      async () =>
        /And a test for the toggle[\s\S]*Pending|Pending[\s\S]*And a test for the toggle/.test(
          await thread.innerText(),
        ),
      30_000,
      'the comment pending in the thread',
    );
    const pending = page.locator('.statusbar-item', { hasText: '1 pending' });
    await pending.waitFor({ timeout: 30_000 });
    assert.equal(
      forge.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/draft_notes'))
        .length,
      1,
    );
    await screenshot(page, 'review-pending');
    await pending.click();
    await page
      .locator('.notification-toast', { hasText: 'Review of !5 submitted: 1 comment published.' })
      .waitFor({ timeout: 30_000 });
    await pending.waitFor({ state: 'detached', timeout: 30_000 });
    await waitUntil(
      async () =>
        /And a test for the toggle/.test(
          await page
            .locator('.review-widget')
            .allInnerTexts()
            .then((all) => all.join('\n')),
        ),
      30_000,
      'the published comment in its thread',
    );

    // bob's suggestion for the background on line 3: the change it proposes, and its Apply button.
    const suggestion = page.locator('.review-widget', { hasText: 'A shade lighter' }).first();
    // Below the long thread of line 2: the Comments view brings it into sight.
    await page.locator('.comments-panel .monaco-list-row', { hasText: 'A shade lighter' }).first().click();
    await suggestion.waitFor({ timeout: 30_000 });
    assert.match(await suggestion.innerText(), /Suggested change/);
    await screenshot(page, 'review-suggestion');
    await suggestion.hover();
    await suggestion.locator('.action-label.codicon-git-commit').first().click();
    await waitUntil(
      async () => /line 3, applied/.test(await suggestion.innerText()),
      30_000,
      'the suggestion shown applied',
    );
    assert.ok(forge.requests.some((request) => /^\/api\/v4\/suggestions\/\d+\/apply$/.test(request.path)));
    await screenshot(page, 'review-suggestion-applied');
  });

  it("shows !5's threads in the panel's Discussion tab, and a comment's link opens its line", async () => {
    await treeRow(page, 'Merge Requests', /^!5 Draft: Dark mode/).click();
    const frame = await webviewFrame(page, '.mr-header .mr-title-text', 60_000);
    await frame.locator('vscode-tab-header[data-tab="discussion"]').click();
    const first = frame.locator('article.note', { hasText: 'Should this follow the system theme' });
    await first.waitFor({ timeout: 30_000 });
    assert.match(await first.innerText(), /src\/theme\/dark\.css:2/);
    assert.match(await first.innerText(), /Unresolved/);
    assert.equal(
      await frame.locator('article.note.note-reply', { hasText: 'only loaded in dark mode' }).count(),
      1,
      'the answer sits under it',
    );
    await screenshot(page, 'review-panel-threads');
    await first.locator('a.note-place').click();
    await page
      .locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: 'color-scheme' })
      .first()
      .waitFor({ timeout: 30_000 });
  });

  it('follows the dark theme', async () => {
    await pickColorTheme(page, 'Dark Modern', 'vs-dark');
    await waitForThemeColours(page.locator('.monaco-diff-editor .editor.modified .view-lines'), 'dark');
    await screenshot(page, 'review-diff-threads-dark');
  });
});
