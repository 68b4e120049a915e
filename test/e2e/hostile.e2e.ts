// The hostile corpus (test/fixtures/hostile/corpus.json, 73 cases) in every place the real VS Code shows
// server text: tree labels and tooltips, a quick pick, notifications (broadcast messages), the output
// panel (a tailed trace), the job trace panel, the merge request panel (overview, changes, discussion),
// the Channel view and the Admin view. Every payload would set `__pwned` or call a local listener;
// the test proves neither happened, that no link or element was made from server text, that the
// webviews saw no CSP violation or page error, and that a few cases read literally where they are
// shown.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import {
  type FakeForge,
  type HostileCase,
  hostileCorpus,
  seedHostileCorpus,
  startFakeForge,
} from '../server';
import { type VscodeSession, screenshot, startVscode } from '../vscode/harness';
import {
  answerQuickInput,
  collapsePane,
  expandPane,
  expectQuickInput,
  openActivityBarView,
  rowLabels,
  runCommand,
  screenshotIfFailed,
  treeRow,
  viewPane,
  waitUntil,
  webviewFrame,
} from './support';

/** Elements that server text would become if it were ever treated as markup (event handlers, links). */
const MADE_FROM_MARKUP =
  'iframe[srcdoc], meta[http-equiv="refresh"], [onerror], [onload], [onmouseover], [onfocus], [ontoggle], a[href^="javascript"], a[href^="data:"], a[href^="command:"], a[href^="file:"], a[href^="vscode:"]';

describe('hostile corpus in the real VS Code (UI)', function () {
  this.timeout(240_000);
  let forge: FakeForge;
  let vscode: VscodeSession;
  let page: Page;
  let cases: HostileCase[];
  let traceJobId: number;
  let traceFrame: Frame;
  let pickedRows: string[] = [];
  let pickedCodicons = 0;
  const pwnedRequests: string[] = [];
  const dialogs: string[] = [];
  const consoleProblems: string[] = [];
  let listener: http.Server;
  let pwnedOrigin = '';

  /** Elements that point at the listener: a resource or frame the markup would have loaded. */
  function pointingAtListener(): string {
    // Web links (<a href>) may point anywhere: they only open, after a click and VS Code's prompt.
    return ['[src', '[data', '[action', '[content', '[style', 'link[href', 'base[href']
      .map((attribute) => `${attribute}*="${pwnedOrigin}"]`)
      .join(', ');
  }

  function hostile(id: string): string {
    const found = cases.find((entry) => entry.id === id);
    assert.ok(found, `case ${id}`);
    return found.text;
  }

  /** Text as read, without the zero-width characters renderers and the extension insert. */
  function readable(text: string): string {
    return text.replace(/[\u200B-\u200D\uFEFF]/g, '').replace(/\u00A0/g, ' ');
  }

  before(async () => {
    // The listener every payload would call (fetch, img, iframe, stylesheet, form, meta refresh).
    listener = http.createServer((req, res) => {
      pwnedRequests.push(`${req.method ?? ''} ${req.url ?? ''}`);
      res.end();
    });
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    pwnedOrigin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    forge = await startFakeForge({ seed: 'small' });
    cases = hostileCorpus(pwnedOrigin);
    traceJobId = forge.fixtures.jobs.created;
    seedHostileCorpus(forge, cases, { userId: forge.users.admin.id, traceJobId });
    vscode = await startVscode({
      name: 'e2e-hostile',
      env: {
        // An administrator sees broadcast messages (shown as notifications) and the Admin view.
        FORGE_SERVER_URL: forge.url,
        FORGE_TOKEN: forge.adminToken,
        FORGE_CHANNEL_URL: forge.url,
        FORGE_CHANNEL_USER: forge.channel.nickname,
        FORGE_CHANNEL_PASSWORD: forge.channel.password,
      },
    });
    assert.ok(vscode.page);
    page = vscode.page;
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss().catch(() => undefined);
    });
    page.on('console', (message) => {
      if (/Content.Security.Policy|__pwned/i.test(message.text())) consoleProblems.push(message.text());
    });
  });

  afterEach(async function () {
    await screenshotIfFailed(this, page);
  });

  after(async () => {
    await vscode?.close();
    await forge?.close();
    await new Promise((done) => listener?.close(done));
  });

  /** No payload ran in the workbench or any webview, and no element or link was made from markup. */
  async function assertNothingRan(where: string): Promise<void> {
    for (const frame of page.frames()) {
      const flag = await frame
        .evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)
        .catch(() => undefined);
      assert.equal(flag, undefined, `${where}: __pwned is set in ${frame.url().slice(0, 80)}`);
      const made = await frame
        .locator(`${MADE_FROM_MARKUP}, ${pointingAtListener()}`)
        .evaluateAll((nodes) => nodes.slice(0, 3).map((node) => node.outerHTML.slice(0, 200)))
        .catch(() => []);
      const scripts = await frame
        .locator('script')
        .evaluateAll((nodes) => nodes.filter((node) => (node.textContent ?? '').includes('__pwned')).length)
        .catch(() => 0);
      assert.equal(scripts, 0, `${where}: a script element from server text in ${frame.url().slice(0, 80)}`);
      assert.deepEqual(
        made,
        [],
        `${where}: an element made from server markup in ${frame.url().slice(0, 80)}`,
      );
      const violations = await frame
        .locator('html[data-csp-violations]')
        .count()
        .catch(() => 0);
      assert.equal(violations, 0, `${where}: CSP violations counted in ${frame.url().slice(0, 80)}`);
    }
    assert.deepEqual(pwnedRequests, [], `${where}: the listener was called`);
    assert.deepEqual(dialogs, [], `${where}: a dialog opened`);
    assert.deepEqual(consoleProblems, [], `${where}: CSP or payload messages in the console`);
  }

  /** The Forge Workbench log lines the panels wrote for page errors and CSP violations. */
  function panelProblemsLogged(): string[] {
    const logs: string[] = [];
    const visit = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) visit(path);
        else if (entry.name.includes('Forge Workbench')) logs.push(path);
      }
    };
    visit(join(vscode.userDataDir, 'logs'));
    return logs
      .flatMap((file) => readFileSync(file, 'utf8').split('\n'))
      .filter((line) =>
        /\b(jobTrace|mergeRequest) panel\b|Content-Security-Policy|securitypolicyviolation/i.test(line),
      );
  }

  /**
   * Hovers `row` until its tooltip shows `expected` (the tree may still redraw under the mouse); the
   * hover must hold no link or image. Returns the tooltip's text. The mouse stays on the row while no
   * hover has come (moving away starts the hover's delay again: under load it never came); it moves
   * away and back only when a hover shows other text.
   */
  async function tooltipOf(row: ReturnType<typeof treeRow>, expected: string): Promise<string> {
    const hover = page.locator('.workbench-hover, .monaco-hover').filter({ hasText: /\S/ }).last();
    let text = '';
    await page.mouse.move(0, 0);
    await waitUntil(
      async () => {
        await row.hover();
        await hover.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
        // Bounded: without a timeout, reading a hover that is not there waited out the whole budget
        // (Playwright's default), so under load one try was all the test had.
        text = readable(await hover.innerText({ timeout: 1_000 }).catch(() => ''));
        if (text.includes(expected)) return true;
        if (text !== '') await page.mouse.move(0, 0);
        return false;
      },
      60_000,
      `the tooltip showing ${JSON.stringify(expected)} (it shows ${JSON.stringify(text)})`,
    );
    assert.equal(await hover.locator('a[href^="command:"], a[href^="javascript"], img').count(), 0);
    await page.mouse.move(0, 0);
    return text;
  }

  it('shows hostile project names, descriptions, branches and jobs as text in the Projects tree', async () => {
    await openActivityBarView(page, 'Forge');
    for (const pane of ['Todos', 'Merge Requests', 'Admin', 'Channel']) await collapsePane(page, pane);
    const codicon = treeRow(page, 'Projects', hostile('codicon-syntax'));
    await codicon.waitFor({ timeout: 60_000 });
    assert.equal(
      (await codicon.locator('.label-name').innerText()).trim(),
      hostile('codicon-syntax'),
      '$(alert) stays text in a tree label',
    );
    assert.equal(await codicon.locator('.label-name .codicon').count(), 0);
    const script = treeRow(page, 'Projects', hostile('md-command-link'));
    await script.waitFor();
    await tooltipOf(script, hostile('md-command-link'));
    await screenshot(page, 'hostile-projects');

    const web = treeRow(page, 'Projects', 'Web');
    await web.click();
    await treeRow(page, 'Projects', 'Branches').click();
    const branch = treeRow(page, 'Projects', hostile('img-onerror'));
    await branch.waitFor({ timeout: 30_000 });
    assert.equal(await branch.locator('img').count(), 0);
    await treeRow(page, 'Projects', 'Branches').click();
    await treeRow(page, 'Projects', 'Jobs').click();
    // Jobs are grouped by pipeline; the newest pipeline holds the hostile job names.
    const pipeline = viewPane(page, 'Projects')
      .locator('.monaco-list-row', { hasText: /^Pipeline|#\d+/ })
      .first();
    await pipeline.waitFor({ timeout: 30_000 });
    if ((await pipeline.getAttribute('aria-expanded')) === 'false') await pipeline.click();
    await waitUntil(
      async () => (await rowLabels(page, 'Projects')).some((label) => label.includes('<')),
      30_000,
      'a hostile job name',
    );
    await screenshot(page, 'hostile-projects-jobs');
    await assertNothingRan('Projects tree');
    await web.click();
  });

  it('shows broadcast messages as notifications without links, and hostile todos and merge requests as text', async () => {
    // Toasts hide after a while; the notification center keeps every message.
    await runCommand(page, 'Notifications: Show Notifications');
    const messages = page.locator('.notifications-center .notification-list-item-message');
    await waitUntil(
      async () => (await messages.count()) >= 5,
      20_000,
      'the broadcasts in the notification center',
    );
    // The extension breaks link syntax with a zero-width space; what reads is the text as sent.
    const texts = readable((await messages.allInnerTexts()).join('\n'));
    assert.ok(texts.includes('Broadcast from'), texts.slice(0, 500));
    assert.ok(
      texts.includes('[Open settings](command:workbench.action.openSettings)'),
      'link syntax is shown as typed',
    );
    assert.equal(
      await page
        .locator(
          '.notifications-center .notification-list-item-message a, .notifications-toasts .notification-list-item-message a',
        )
        .count(),
      0,
      'no link made from a server message',
    );
    await screenshot(page, 'hostile-notifications');
    await runCommand(page, 'Notifications: Clear All Notifications');

    await collapsePane(page, 'Projects');
    await expandPane(page, 'Todos');
    await waitUntil(
      async () => (await rowLabels(page, 'Todos')).some((label) => label.includes('__pwned')),
      30_000,
      'a hostile todo',
    );
    await expandPane(page, 'Merge Requests');
    const group = treeRow(page, 'Merge Requests', /^Assigned to me/);
    await group.waitFor({ timeout: 30_000 });
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
    await waitUntil(
      async () => (await rowLabels(page, 'Merge Requests')).some((label) => /^!\d+ .*[<[$]/.test(label)),
      30_000,
      'a hostile merge request title',
    );
    await screenshot(page, 'hostile-todos-and-merge-requests');
    await collapsePane(page, 'Todos');
    await assertNothingRan('Todos and Merge Requests trees, notifications');
  });

  it('lists hostile project names in a quick pick and draws the hostile trace inert in the job trace panel', async () => {
    await page.keyboard.press('Escape');
    await runCommand(page, 'Forge: Show Job Trace');
    await expectQuickInput(page, /Project of the job/);
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await waitUntil(
      async () => (await rows.allInnerTexts()).some((text) => text.includes('Build passed')),
      20_000,
      'hostile project names in the pick',
    );
    await screenshot(page, 'hostile-quick-pick');
    pickedRows = await rows.allInnerTexts();
    pickedCodicons = await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row .codicon')
      .count();
    assert.equal(await page.locator('.quick-input-widget').locator(MADE_FROM_MARKUP).count(), 0);
    await answerQuickInput(page, 'acme/web');
    await expectQuickInput(page, /Job whose trace to show/);
    await answerQuickInput(page, `#${traceJobId}`);
    traceFrame = await webviewFrame(page, '.viewport .row');
    await traceFrame.locator('#scroll-top').click();
    await waitUntil(
      async () => (await traceFrame.locator('.rows').innerText()).includes('[script-tag]'),
      20_000,
      'the first hostile lines',
    );
    const text = await traceFrame.locator('.rows').innerText();
    assert.ok(text.includes(hostile('script-tag')), 'the script tag reads as typed');
    assert.ok(text.includes(hostile('img-onerror')), 'the img tag reads as typed');
    assert.equal(await traceFrame.locator('#app a, #app img, #app svg, #app iframe, #app style').count(), 0);
    await screenshot(page, 'hostile-trace-panel');
    // Scroll through the whole trace, so every line is drawn once.
    await traceFrame.locator('#scroll-bottom').click();
    await waitUntil(
      async () => (await traceFrame.locator('.rows').innerText()).includes('end of the hostile corpus'),
      20_000,
      'the end of the trace',
    );
    await assertNothingRan('quick pick and job trace panel');
  });

  it('shows $(name) in server text as typed in quick picks, not as icons', () => {
    // VS Code draws `$(name)` in a quick pick label as an icon: server text must escape it (`\\$(`).
    const row = pickedRows.find((text) => text.includes('Build passed'));
    assert.ok(row, 'the project named with codicon syntax is in the pick');
    assert.ok(
      row.includes(hostile('codicon-syntax')),
      `the pick shows ${JSON.stringify(row)} for ${JSON.stringify(hostile('codicon-syntax'))}`,
    );
    assert.equal(pickedCodicons, 0, 'no icon drawn from server text');
  });

  it('tails the hostile trace into the output panel without escape sequences', async () => {
    await traceFrame.locator('#tail-trace').click();
    // The panel's filter box is an editor too: take the one showing the trace.
    const output = page.locator('.part.panel .monaco-editor .view-lines', { hasText: 'Hostile corpus' });
    await waitUntil(
      async () =>
        readable(await output.innerText({ timeout: 1_000 }).catch(() => '')).includes(
          'end of the hostile corpus',
        ),
      30_000,
      'the tailed trace in the output panel',
    );
    const text = await output.innerText();
    assert.ok(!text.includes('\x1b'), 'no escape character reaches the output panel');
    await screenshot(page, 'hostile-output-tail');
    await assertNothingRan('output panel');
  });

  it('shows the hostile merge request inert in the Overview, Changes and Discussion tabs', async () => {
    await expandPane(page, 'Merge Requests');
    const showcase = forge.state.findMergeRequest(
      forge.fixtures.projects.web,
      forge.fixtures.mergeRequests.opened,
    );
    assert.ok(showcase);
    const row = treeRow(page, 'Merge Requests', `!${showcase.iid} ${showcase.title}`);
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    const frame = await webviewFrame(page, '.mr-header .mr-title-text', 60_000);
    const description = frame.locator('.description');
    await description.waitFor();
    await waitUntil(
      async () => (await description.innerText()).includes('md-command-args'),
      20_000,
      'the whole description',
    );
    const overview = await description.innerText();
    assert.ok(overview.includes(hostile('script-tag')), 'raw HTML reads as typed');
    assert.equal(
      await description.locator('a[href^="command:"], a[href^="file:"], a[href^="vscode:"]').count(),
      0,
    );
    await screenshot(page, 'hostile-merge-request-overview');
    await assertNothingRan('merge request overview');

    await frame.locator('vscode-tab-header[data-tab="changes"]').click();
    const fileName = frame.locator('section.file .file-name', { hasText: 'hostile/<body onload' }).first();
    await fileName.waitFor({ timeout: 20_000 });
    await frame.locator('section.file .diff-lines .diff-row').first().waitFor({ timeout: 20_000 });
    const corpusFile = frame.locator('section.file[data-path="hostile/corpus.txt"]');
    await corpusFile.scrollIntoViewIfNeeded();
    await waitUntil(
      async () => (await corpusFile.innerText()).includes('img-onerror'),
      20_000,
      'the hostile diff lines',
    );
    await screenshot(page, 'hostile-merge-request-changes');
    await assertNothingRan('merge request changes');

    await frame.locator('vscode-tab-header[data-tab="discussion"]').click();
    const note = frame.locator('article.note', { hasText: 'svg-onload:' }).first();
    await note.waitFor({ timeout: 20_000 });
    assert.ok(
      (await note.innerText()).includes(hostile('svg-onload')),
      'a note with raw HTML reads as typed',
    );
    await frame.locator('article.note').last().scrollIntoViewIfNeeded();
    await screenshot(page, 'hostile-merge-request-discussion');
    await assertNothingRan('merge request discussion');
  });

  it('shows hostile channel posts, comments and file names as text in the Channel view', async () => {
    await page
      .locator('.part.sidebar')
      .first()
      .click({ position: { x: 10, y: 10 } });
    for (const pane of ['Projects', 'Merge Requests', 'Todos']) await collapsePane(page, pane);
    await expandPane(page, 'Channel');
    await treeRow(page, 'Channel', 'Stream').click();
    await treeRow(page, 'Channel', 'Network').click();
    const post = treeRow(page, 'Channel', 'Hostile corpus');
    await post.waitFor({ timeout: 30_000 });
    await post.click();
    await waitUntil(
      async () => (await rowLabels(page, 'Channel')).some((label) => label.includes('__pwned')),
      30_000,
      'hostile comments',
    );
    await screenshot(page, 'hostile-channel-stream');
    await treeRow(page, 'Channel', 'Stream').click();
    await treeRow(page, 'Channel', 'Files').click();
    await treeRow(page, 'Channel', 'Documents').click();
    await waitUntil(
      async () =>
        (await rowLabels(page, 'Channel')).some((label) => /\.txt$/.test(label) && /[<$[]/.test(label)),
      30_000,
      'hostile file names',
    );
    await screenshot(page, 'hostile-channel-files');
    await assertNothingRan('Channel view');
  });

  it('shows the Admin view and all opened merge requests to an administrator', async () => {
    for (const pane of ['Projects', 'Todos', 'Channel']) await collapsePane(page, pane);
    await expandPane(page, 'Merge Requests');
    const allOpened = treeRow(page, 'Merge Requests', /^All opened/);
    await allOpened.waitFor({ timeout: 30_000 });
    if ((await allOpened.getAttribute('aria-expanded')) !== 'true') await allOpened.click();
    await treeRow(page, 'Merge Requests', /^!\d+/).waitFor({ timeout: 20_000 });
    await expandPane(page, 'Admin');
    await treeRow(page, 'Admin', /Broadcast messages/i).waitFor({ timeout: 20_000 });
    await screenshot(page, 'admin');
    await assertNothingRan('Admin view');
  });

  it('logged no page error or CSP violation from either panel', () => {
    assert.deepEqual(panelProblemsLogged(), []);
    assert.deepEqual(pwnedRequests, []);
  });
});
