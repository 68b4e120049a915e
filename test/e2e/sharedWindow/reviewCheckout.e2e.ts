// Reviewing from one's own checkout, clicked through: the window's folder on !1's source branch, a
// local edit to one of its files, "Suggest Changes from My Edits", and the suggestion held for the
// review (the status bar counts it), in the light and the dark theme (review-suggest-*.png). The
// folder, the file and the pending comment are taken back afterwards: later suites find the window
// as they expect it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { FakeForge } from '../../server';
import { treeAt } from '../../server/repositoryFiles';
import { screenshot } from '../../vscode/harness';
import {
  pickColorTheme,
  quickInput,
  runCommand,
  screenshotIfFailed,
  waitForThemeColours,
  waitUntil,
} from '../support';
import { sharedWorkbench } from './sharedWorkbench';

describe('review from my checkout (UI)', function () {
  this.timeout(120_000);
  let forge: FakeForge;
  let page: Page;
  let folder: string;
  let madeRepository = false;

  before(async () => {
    const shared = await sharedWorkbench();
    ({ forge, page } = shared);
    folder = shared.vscode.workspaceFolder;
  });

  afterEach(async function () {
    await screenshotIfFailed(this, page);
  });

  after(async () => {
    await runCommand(page, 'View: Revert and Close Editor').catch(() => undefined);
    await runCommand(page, 'View: Close All Editors');
    // The pending suggestion goes; turning the threads on the files off makes the review read its
    // drafts again, and the status bar's count goes with it.
    for (const [id, draft] of forge.state.draftNotes) {
      if (draft.note.startsWith('```suggestion')) forge.state.draftNotes.delete(id);
    }
    const hadSettings = existsSync(join(folder, '.vscode'));
    await runCommand(page, 'Forge: Hide Merge Request Threads on My Files');
    await page
      .locator('.statusbar-item', { hasText: 'pending' })
      .waitFor({ state: 'detached', timeout: 30_000 });
    await runCommand(page, 'Forge: Show Merge Request Threads on My Files');
    if (!hadSettings) rmSync(join(folder, '.vscode'), { recursive: true, force: true });
    rmSync(join(folder, 'src'), { recursive: true, force: true });
    if (madeRepository) rmSync(join(folder, '.git'), { recursive: true, force: true });
    await runCommand(page, 'Forge: Refresh the Current Branch Status');
  });

  it('turns a local edit into a suggestion held for the review, without committing it', async () => {
    const web = forge.fixtures.projects.web;
    const mergeRequest = forge.state.findMergeRequest(web, 1);
    assert.ok(mergeRequest);
    const head = forge.state.mergeRequestHeadSha(mergeRequest);
    const login = treeAt(forge.state, head)?.get('src/login.ts');
    assert.ok(login);
    // git's complaints go into the thrown error, not the test output (one call is meant to fail).
    const git = (args: string[]) =>
      execFileSync('git', args, { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.ok(!existsSync(join(folder, '.git')), "the shared window's folder is no repository yet");
    madeRepository = true;
    git(['init', '-q']);
    git(['remote', 'add', 'origin', `${forge.url}/acme/web.git`]);
    git(['symbolic-ref', 'HEAD', `refs/heads/${mergeRequest.sourceBranch}`]);
    mkdirSync(join(folder, 'src'), { recursive: true });
    writeFileSync(join(folder, 'src', 'login.ts'), login);

    await runCommand(page, 'Forge: Refresh the Current Branch Status');
    await page.locator('.statusbar-item', { hasText: '!1' }).first().waitFor({ timeout: 30_000 });

    // The file, from Quick Open, and its first line reworded.
    await page.keyboard.press('Control+P');
    await quickInput(page).locator('input.input').first().fill('src/login.ts');
    await quickInput(page).locator('.monaco-list-row', { hasText: 'login.ts' }).first().waitFor();
    await page.keyboard.press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines', { hasText: 'renderLoginForm' }).waitFor({ timeout: 30_000 });
    await editor.locator('.view-line').first().click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.type('// reworded by the reviewer');
    await editor.locator('.view-lines', { hasText: 'reworded by the reviewer' }).waitFor({ timeout: 10_000 });

    await runCommand(page, 'Forge: Suggest Changes from My Edits');
    const heldOnServer = () =>
      forge.requests.find(
        (request) => request.method === 'POST' && request.path.endsWith('/merge_requests/1/draft_notes'),
      );
    await waitUntil(
      () => Promise.resolve(heldOnServer() !== undefined),
      30_000,
      'the suggestion held on the server',
    );
    await page.locator('.statusbar-item', { hasText: '1 pending' }).waitFor({ timeout: 30_000 });
    const posted = forge.requests.find(
      (request) => request.method === 'POST' && request.path.endsWith('/merge_requests/1/draft_notes'),
    );
    assert.equal(
      (posted?.body as { note?: string } | undefined)?.note,
      '```suggestion\n// reworded by the reviewer\n```',
    );
    assert.throws(() => git(['rev-parse', 'HEAD']), 'nothing was committed');
    await screenshot(page, 'review-suggest-light');
  });

  it('follows the dark theme', async () => {
    await pickColorTheme(page, 'Dark Modern', 'vs-dark');
    await waitForThemeColours(page.locator('.editor-instance .monaco-editor .view-lines').first(), 'dark');
    await waitUntil(
      async () => (await page.locator('.statusbar-item', { hasText: '1 pending' }).count()) > 0,
      10_000,
      'the pending count',
    );
    await screenshot(page, 'review-suggest-dark');
  });
});
