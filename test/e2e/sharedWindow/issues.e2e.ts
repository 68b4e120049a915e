// An issue read, answered, ticked and closed in the real VS Code, as a developer would: its row in
// the Issues view clicked, the panel's labels in their colours, a task of the description ticked
// (the server's description changes), a comment posted from the box, the issue closed from the
// header; in the light and the dark theme (screenshots issue-light.png, issue-dark.png); the `!1`
// written in the comment opens the merge request.
import assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import type { FakeForge } from '../../server';
import { screenshot } from '../../vscode/harness';
import {
  collapsePane,
  expandPane,
  expandRow,
  pickColorTheme,
  screenshotIfFailed,
  treeRow,
  waitForThemeColours,
  waitUntil,
  webviewFrame,
} from '../support';
import { sharedWorkbench } from './sharedWorkbench';

describe('an issue in the editor (UI)', function () {
  this.timeout(180_000);
  let forge: FakeForge;
  let page: Page;
  let frame: Frame;

  before(async () => {
    ({ forge, page } = await sharedWorkbench());
  });

  afterEach(async function () {
    await screenshotIfFailed(this, page);
  });

  const issue = () => {
    const found = forge.state.findIssue(forge.fixtures.projects.web, forge.fixtures.issues.darkMode);
    assert.ok(found);
    return found;
  };

  it('opens an issue from the Issues view, ticks a task, comments and closes it', async () => {
    for (const pane of ['Projects', 'Merge Requests', 'Todos', 'Channel']) await collapsePane(page, pane);
    await expandPane(page, 'Issues');
    await expandRow(page, 'Issues', /^Created by me/, 60_000);
    const row = treeRow(page, 'Issues', /^#2 Add a dark mode/);
    await row.waitFor({ timeout: 30_000 });
    assert.match(await row.innerText(), /1 of 3 tasks/);
    await row.click();
    frame = await webviewFrame(page, '.issue-header .issue-title', 60_000);
    await frame.locator('.facts .label-chip', { hasText: 'feature' }).waitFor({ timeout: 30_000 });
    // The label wears the server's colour (#5cb85c), set through the CSSOM, not a style attribute.
    const chip = frame.locator('.label-chip', { hasText: 'feature' });
    assert.equal(await chip.evaluate((node) => getComputedStyle(node).backgroundColor), 'rgb(92, 184, 92)');
    assert.equal(await frame.locator('html').getAttribute('data-csp-violations'), null);

    const box = frame.locator('.description .task-box').nth(1);
    await box.waitFor();
    assert.equal(await box.getAttribute('aria-checked'), 'false');
    await box.click();
    await waitUntil(
      () => Promise.resolve(/- \[x\] switch with the system/.test(issue().description)),
      30_000,
      'the task ticked on the server',
    );
    await waitUntil(
      async () => (await frame.locator('.facts dd', { hasText: '2 of 3 done' }).count()) === 1,
      30_000,
      'the panel counts the task done',
    );

    const composer = frame.locator('vscode-textarea.composer-input textarea');
    await composer.fill('Dark mode looks good, closing. The toggle came with !1.');
    await frame.locator('vscode-button[data-action="postNote"]').click();
    await frame.locator('.note', { hasText: 'Dark mode looks good, closing.' }).waitFor({ timeout: 30_000 });
    assert.equal(await composer.inputValue(), '', 'the box is empty again');
    await screenshot(page, 'issue-light');

    await frame.locator('vscode-button[data-action="close"]').click();
    await waitUntil(
      () => Promise.resolve(issue().state === 'closed'),
      30_000,
      'the issue closed on the server',
    );
    await frame.locator('vscode-button[data-action="reopen"]').waitFor({ timeout: 30_000 });
    await pickColorTheme(page, 'Dark Modern', 'vs-dark');
    await waitForThemeColours(page.locator('.monaco-workbench .part.editor'), 'dark');
    await screenshot(page, 'issue-dark');

    // `!1` in the comment is a link, as on the server's page: it opens the merge request's panel.
    const reference = frame.locator('.note a.reference-link', { hasText: '!1' });
    assert.equal(await reference.getAttribute('data-reference-kind'), 'mergeRequest');
    await reference.click();
    const mergeRequest = await webviewFrame(page, '.mr-header .mr-title-text', 60_000);
    await waitUntil(
      async () => (await mergeRequest.locator('.mr-header .mr-iid').innerText()) === '!1',
      30_000,
      'the merge request !1 is shown',
    );
  });
});
