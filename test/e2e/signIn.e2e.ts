// A new user's first minute, in a real VS Code in a browser with no account: the welcome's Add
// Account button, a wrong address refused with a reason, a token, and the projects.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { type FakeForge, startFakeForge } from '../server';
import { type VscodeSession, screenshot, startVscode } from '../vscode/harness';
import { answerQuickInput, expectQuickInput, openActivityBarView, treeRow, viewPane } from './support';

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
