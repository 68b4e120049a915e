// The merge request panel in the real VS Code: opened by clicking a merge request in the tree, its
// Overview, Changes (unified, then side by side, a 5,000-line file drawn as a virtual list) and Discussion
// tabs clicked through with screenshots, and hostile server strings (title, description, a comment,
// a file name) shown as inert text: no element made from them, nothing run, no CSP violation.
import assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import type { FakeForge } from '../../server';
import { screenshot } from '../../vscode/harness';
import {
  pickColorTheme,
  collapsePane,
  expandPane,
  openActivityBarView,
  screenshotIfFailed,
  treeRow,
  waitForThemeColours,
  waitUntil,
  webviewFrame,
} from '../support';
import { prepareSharedForge, sharedWorkbench } from './sharedWorkbench';

const HOSTILE_TITLE = `<img src=x onerror="window.pwned='title'">`;
const HOSTILE_DESCRIPTION = [
  'Intro <script>window.pwned = "script"</script> and <b onmouseover="window.pwned=1">bold html</b>',
  '',
  '[click me](javascript:window.pwned=2) and [the docs](https://example.com/docs)',
  '',
  `<img src=x onerror="window.pwned='description'">`,
  '',
  '![remote image](https://example.com/x.png)',
  '',
  '* a **Markdown** list',
  '* with `code`',
  '',
  '- [x] a task done',
  '- [ ] a task <b>to do</b>',
].join('\n');
const HOSTILE_NOTE = `<svg onload="window.pwned='note'"></svg> **still Markdown**`;
const HOSTILE_FILE = `src/<img src=x onerror="window.pwned='file'">.ts`;
const BIG_FILE_LINES = 5000;

/** Hostile strings in the fake forge's state, and a long file, before VS Code opens anything. */
function plantHostileContent(forge: FakeForge): void {
  const { state } = forge;
  const web = forge.fixtures.projects.web;
  const mergeRequest = state.findMergeRequest(web, 1);
  assert.ok(mergeRequest);
  mergeRequest.title = HOSTILE_TITLE;
  mergeRequest.description = HOSTILE_DESCRIPTION;
  const now = state.now();
  state.notes.set(900_001, {
    id: 900_001,
    projectId: web,
    noteableType: 'MergeRequest',
    noteableId: mergeRequest.id,
    body: HOSTILE_NOTE,
    authorId: forge.users.bob.id,
    system: false,
    createdAt: now,
    updatedAt: now,
  });
  // A system note is HTML: everything but lists, links and code goes.
  state.notes.set(900_002, {
    id: 900_002,
    projectId: web,
    noteableType: 'MergeRequest',
    noteableId: mergeRequest.id,
    body: `changed the description <img src=x onerror="window.pwned='system'"><script>window.pwned='system'</script><a href="javascript:window.pwned='system'">see</a><iframe src="https://example.com"></iframe><form><button>go</button></form>`,
    authorId: forge.users.bob.id,
    system: true,
    createdAt: now,
    updatedAt: now,
  });
  const project = state.projects.get(web);
  const branch = project?.branches.get(mergeRequest.sourceBranch);
  assert.ok(branch);
  const sha = state.newSha();
  const added = (path: string, lines: string[]) => ({
    oldPath: path,
    newPath: path,
    aMode: '0',
    bMode: '100644',
    diff: `--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}`).join('\n')}\n`,
    newFile: true,
    renamedFile: false,
    deletedFile: false,
  });
  state.commits.set(sha, {
    id: sha,
    parentIds: [branch.commitSha],
    title: `Add ${HOSTILE_FILE}`,
    message: `Add ${HOSTILE_FILE}`,
    authorName: 'Bob Builder',
    authorEmail: 'bob@example.com',
    authoredDate: now,
    committerName: 'Bob Builder',
    committerEmail: 'bob@example.com',
    committedDate: now,
    changes: [
      added(HOSTILE_FILE, ['export const hostile = "</script><script>window.pwned=\'line\'</script>";']),
      added(
        'src/big.ts',
        Array.from(
          { length: BIG_FILE_LINES },
          (_, index) => `export const value${index + 1} = ${index + 1};`,
        ),
      ),
    ],
  });
  branch.commitSha = sha;
}

prepareSharedForge(plantHostileContent);

describe('merge request panel (UI)', function () {
  this.timeout(240_000);
  let forge: FakeForge;
  let page: Page;
  let frame: Frame;
  const dialogs: string[] = [];
  const cspMessages: string[] = [];

  before(async () => {
    ({ forge, page } = await sharedWorkbench());
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss().catch(() => undefined);
    });
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) cspMessages.push(message.text());
    });
  });

  afterEach(async function () {
    await screenshotIfFailed(this, page);
  });

  async function pwned(): Promise<unknown> {
    return frame.evaluate(() => (window as unknown as { pwned?: unknown }).pwned);
  }

  async function assertInert(): Promise<void> {
    assert.equal(await pwned(), undefined, 'no hostile script ran');
    assert.deepEqual(dialogs, [], 'no dialog opened');
    assert.equal(
      await frame.locator('img, iframe, object, embed, [onerror], [onload], [onmouseover]').count(),
      0,
    );
    assert.equal(await frame.locator('a[href^="javascript"], a[href^="data:"]').count(), 0);
    const scripts = await frame.locator('script').evaluateAll((nodes) =>
      nodes.map((node) => ({
        nonce: node.hasAttribute('nonce') || node.nonce !== '',
        text: node.textContent ?? '',
      })),
    );
    assert.ok(
      scripts.every((script) => !script.text.includes('pwned')),
      'no script element came from server text',
    );
    assert.ok(
      scripts.filter((script) => script.text === '').every((script) => script.nonce),
      'every script file the page loads carries the nonce',
    );
    assert.equal(await frame.locator('html').getAttribute('data-csp-violations'), null, 'no CSP violation');
    assert.deepEqual(cspMessages, [], 'no CSP message in the console');
  }

  it('opens by clicking the merge request in the tree and shows the Overview with hostile text inert', async () => {
    await openActivityBarView(page, 'Forge');
    for (const pane of ['Projects', 'Todos', 'Channel']) await collapsePane(page, pane);
    await expandPane(page, 'Merge Requests');
    const group = treeRow(page, 'Merge Requests', /^Assigned to me/);
    await group.waitFor({ timeout: 60_000 });
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    const row = treeRow(page, 'Merge Requests', /^!1 <img/);
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    frame = await webviewFrame(page, '.mr-header .mr-title-text', 60_000);
    await frame.locator('.overview .facts').waitFor();
    // The header the host wrote into the page for its first frame gave way to the app's.
    assert.equal(await frame.locator('#first-paint').count(), 0);
    assert.equal(await frame.locator('.mr-title-text').innerText(), HOSTILE_TITLE);
    assert.equal(await frame.locator('.overview-title').innerText(), HOSTILE_TITLE);
    const description = frame.locator('.description');
    const text = await description.innerText();
    assert.ok(text.includes('<script>window.pwned = "script"</script>'), 'the script tag shows as text');
    assert.ok(text.includes(`<img src=x onerror="window.pwned='description'">`), 'the img tag shows as text');
    assert.ok(text.includes('click me'), 'the javascript: link text stays');
    assert.equal(await description.locator('a', { hasText: 'click me' }).count(), 0, 'but is not a link');
    assert.equal(
      await description.locator('a[href="https://example.com/docs"]').count(),
      1,
      'web links stay',
    );
    // A click on a link goes to the host, which opens web links only (VS Code asks first).
    await description.locator('a[href="https://example.com/docs"]').click();
    await waitUntil(
      async () => (await frame.locator('html').getAttribute('data-links-routed')) === '1',
      30_000,
      'the click went to the host',
    );
    const asked = page.locator('.monaco-dialog-box');
    await waitUntil(async () => (await asked.count()) > 0, 10_000, 'VS Code asks before opening the site');
    assert.match(await asked.innerText(), /example\.com/);
    await page.keyboard.press('Escape');
    await waitUntil(async () => (await asked.count()) === 0, 10_000, 'the question is gone');
    assert.equal(await description.locator('strong', { hasText: 'Markdown' }).count(), 1, 'Markdown renders');
    assert.equal(await description.locator('li').count(), 4);
    // A task list shows boxes, ticked or not, read-only; not "[x]".
    const boxes = description.locator('li.task-list-item .task-box[role="checkbox"]');
    assert.equal(await boxes.count(), 2);
    assert.equal(await boxes.nth(0).getAttribute('aria-checked'), 'true');
    assert.equal(await boxes.nth(1).getAttribute('aria-checked'), 'false');
    assert.ok(!text.includes('[x]') && !text.includes('[ ]'), text);
    assert.ok(text.includes('a task <b>to do</b>'), 'its text stays text');
    assert.equal(await description.locator('b').count(), 0, 'raw HTML from the server is not markup');
    assert.ok(await frame.locator('vscode-button[data-action="merge"]').isVisible(), 'offers merge');
    assert.ok(await frame.locator('vscode-button[data-action="close"]').isVisible(), 'offers close');
    assert.equal(await frame.locator('vscode-button[data-action="reopen"]').count(), 0, 'no reopen');
    await assertInert();
    await screenshot(page, 'merge-request-overview');
  });

  it('shows the Changes, unified then side by side, drawing only the rows on screen of a 5,000-line file', async () => {
    await frame.locator('vscode-tab-header[data-tab="changes"]').click();
    const sections = frame.locator('section.file');
    await waitUntil(async () => (await sections.count()) === 5, 20_000, 'five changed files');
    const hostile = frame.locator('section.file .file-name', { hasText: 'src/<img' });
    assert.equal(await hostile.innerText(), HOSTILE_FILE, 'the file name shows as text');
    await frame
      .locator('section.file .diff-lines.unified .diff-row.added')
      .first()
      .waitFor({ timeout: 20_000 });
    await screenshot(page, 'merge-request-changes-unified');
    // The changed word of a changed line is marked on both sides.
    const index = frame.locator('section.file[data-path="src/index.ts"]');
    assert.deepEqual(await index.locator('.diff-row.removed .word').allInnerTexts(), ['_request']);
    assert.equal(await index.locator('.diff-row.added .word').first().innerText(), 'request');

    await frame.locator('vscode-button[data-mode="side-by-side"]').click();
    await frame.locator('section.file .diff-lines.split .diff-pane.new .diff-row.added').first().waitFor({
      timeout: 20_000,
    });
    assert.ok(
      (await frame.locator('section.file .diff-lines.split .diff-pane.old .diff-row').count()) > 0,
      'files are drawn side by side',
    );
    await screenshot(page, 'merge-request-changes-side-by-side');

    // The long file starts collapsed; expanded, only the rows near the viewport exist.
    const big = frame.locator('section.file[data-path="src/big.ts"]');
    assert.match((await big.getAttribute('class')) ?? '', /\bcollapsed\b/);
    const started = Date.now();
    await big.locator('.file-toggle').click();
    await big.locator('.diff-pane.new .diff-row.added').first().waitFor({ timeout: 30_000 });
    const firstRowsMs = Date.now() - started;
    assert.ok(firstRowsMs < 5_000, `first rows drawn in ${firstRowsMs} ms`);
    const diff = big.locator('.diff-lines');
    assert.equal(
      await big.locator('.diff-pane.new[role="table"]').getAttribute('aria-rowcount'),
      String(BIG_FILE_LINES + 1),
      'a hunk header and every line',
    );
    const drawn = await big.locator('.diff-pane.new .diff-row').count();
    assert.ok(drawn < 300, `${drawn} rows drawn of ${BIG_FILE_LINES + 1}`);

    // Scrolled to the end, then back to the middle: each drawn row shows its own line in its own
    // place, in rows that showed other lines before.
    const rowsAreRight = async (): Promise<number> => {
      const wrong = await big.locator('.diff-pane.new').evaluate((pane) =>
        [...pane.querySelectorAll<HTMLElement>('.diff-row.added')].filter((row) => {
          const number = Number(row.querySelector('.num')?.textContent);
          return (
            row.querySelector('.code')?.textContent !== `export const value${number} = ${number};` ||
            row.style.top !== `${number * 20}px` ||
            row.getAttribute('aria-rowindex') !== String(number + 1)
          );
        }),
      );
      assert.deepEqual(wrong, []);
      return big.locator('.diff-pane.new .diff-row.added').count();
    };
    assert.ok((await rowsAreRight()) > 20);
    await diff.evaluate((node) => node.scrollIntoView({ block: 'end' }));
    const last = `export const value${BIG_FILE_LINES} = ${BIG_FILE_LINES};`;
    await waitUntil(async () => (await big.innerText()).includes(last), 10_000, 'the last line');
    assert.ok((await rowsAreRight()) > 20);
    await diff.evaluate((node) =>
      window.scrollTo(0, node.getBoundingClientRect().top + window.scrollY + 50_000),
    );
    const middle = 'export const value2520 = 2520;';
    await waitUntil(async () => (await big.innerText()).includes(middle), 10_000, 'the middle lines');
    assert.ok((await rowsAreRight()) > 20);
    assert.ok(!(await big.innerText()).includes(last), 'the rows at the end were drawn again');
    assert.ok(
      (await big.locator('.diff-pane.new .diff-row').count()) < 300,
      'scrolling reuses rows instead of adding them',
    );
    await assertInert();
  });

  it('shows the Discussion with a hostile comment as text, and posts a comment', async () => {
    await frame.locator('vscode-tab-header[data-tab="discussion"]').click();
    const hostile = frame.locator('article.note', { hasText: 'still Markdown' });
    await hostile.waitFor({ timeout: 30_000 });
    assert.ok(
      (await hostile.locator('.note-body').innerText()).includes(`<svg onload="window.pwned='note'"></svg>`),
    );
    assert.equal(await frame.locator('svg[onload]').count(), 0);
    assert.equal(await hostile.locator('.note-body strong').count(), 1);
    // A system note is HTML from the server: a list, not tags as text; shortcodes are emoji.
    const commits = frame.locator('.note.system', { hasText: 'added 2 commits' });
    assert.equal(await commits.locator('li').count(), 2);
    assert.ok(!(await commits.innerText()).includes('<li>'), 'no raw HTML');
    assert.ok((await commits.innerText()).includes('Test the redirect 🚀'));
    assert.equal(await commits.locator('a', { hasText: 'Compare with previous version' }).count(), 1);
    assert.ok(
      (await frame.locator('article.note', { hasText: 'Ship it' }).innerText()).includes('Ship it 🎉'),
    );
    const hostileSystem = frame.locator('.note.system', { hasText: 'changed the description' });
    assert.equal(
      (await hostileSystem.locator('.system-body').innerText()).trim(),
      'changed the description seego',
    );

    forge.clearRequests();
    const composer = frame.locator('vscode-textarea.composer-input textarea');
    await composer.fill('Looks good from the UI test.\nSecond line.');
    await frame.locator('vscode-button[data-action="postNote"]').click();
    await waitUntil(
      () =>
        Promise.resolve(
          forge.requests.some(
            (request) => request.method === 'POST' && request.path.endsWith('/merge_requests/1/notes'),
          ),
        ),
      15_000,
      'the comment posted',
    );
    await frame
      .locator('article.note', { hasText: 'Looks good from the UI test.' })
      .waitFor({ timeout: 15_000 });
    assert.equal(await composer.inputValue(), '', 'the box is empty again');
    await assertInert();
    await screenshot(page, 'merge-request-discussion');
  });

  it('follows the dark and high-contrast themes', async () => {
    for (const [theme, themeClass, name] of [
      ['Dark Modern', 'vs-dark', 'dark'],
      ['Dark High Contrast', 'hc-black', 'high-contrast'],
    ] as const) {
      await pickColorTheme(page, theme, themeClass);
      await frame.locator('vscode-tab-header[data-tab="overview"]').click();
      await waitForThemeColours(frame.locator('body'), 'dark');
      await screenshot(page, `merge-request-overview-${name}`);
      await frame.locator('vscode-tab-header[data-tab="changes"]').click();
      const fileName = frame.locator('section.file .file-name', { hasText: 'src/index.ts' });
      await fileName.scrollIntoViewIfNeeded();
      await waitForThemeColours(fileName, 'dark');
      await screenshot(page, `merge-request-changes-${name}`);
    }
    await assertInert();
  });
});
