// Helpers for the UI tests: drive the real workbench (code-server in headless Chromium) the way a
// user would. Selectors are VS Code 1.139's DOM; activity-bar entries and panes are found by their
// accessible labels, which are stable across themes and layouts. Only locator APIs are used (no
// code evaluated in the page), so these files type-check without the DOM library.
import type { Frame, Locator, Page } from 'playwright-core';
import { screenshot } from '../vscode/harness';

/** Polls `condition` every 100 ms until it holds; throws "Timed out waiting for <what>" otherwise. */
export async function waitUntil(
  condition: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
}

export function quickInput(page: Page): Locator {
  return page.locator('.quick-input-widget');
}

/**
 * Runs a command from the command palette (F1) by its full title, e.g. "Forge: Show Log". Right after
 * the workbench appears the palette may not list extension commands yet and does not refresh its
 * results, so a palette without the command is closed and opened again until it is there.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const widget = quickInput(page);
  const input = widget.locator('input.input').first();
  const first = widget.locator('.quick-input-list .monaco-list-row').first();
  const listed = async (): Promise<boolean> =>
    ((await first.getAttribute('aria-label', { timeout: 1_000 }).catch(() => null)) ?? '').startsWith(title);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A webview in front takes the focus back and the palette turns inert: the workbench's own first.
    const sidebarTitle = page.locator('.part.sidebar .composite.title').first();
    if (await sidebarTitle.isVisible()) await sidebarTitle.click();
    await page.locator('.monaco-workbench').focus();
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${title}`);
    const found = await waitUntil(listed, 3_000, 'the command').then(
      () => true,
      () => false,
    );
    if (found) break;
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden' });
    if (Date.now() > deadline)
      throw new Error(`"${title}" is not in the command palette after ${timeoutMs} ms.`);
  }
  await page.keyboard.press('Enter');
  // The palette closes; a command that asks something opens the quick input again at once, which a
  // wait for "hidden" can miss: wait until the palette's own `>` query is gone instead.
  await waitUntil(
    async () =>
      !(await widget.isVisible()) ||
      !(await input.inputValue({ timeout: 1_000 }).catch(() => '')).startsWith('>'),
    10_000,
    'the command palette to close',
  );
}

/** Everything the open quick input says: title, prompt, validation message, placeholder, visible items. */
export async function quickInputText(page: Page): Promise<string> {
  const widget = quickInput(page);
  if (!(await widget.isVisible())) return '';
  const input = widget.locator('input.input').first();
  const parts = [
    await widget.innerText({ timeout: 1_000 }).catch(() => ''),
    (await input.getAttribute('placeholder', { timeout: 1_000 }).catch(() => null)) ?? '',
    (await input.getAttribute('aria-label', { timeout: 1_000 }).catch(() => null)) ?? '',
  ];
  return parts.join('\n');
}

/** Waits until a quick input (input box or pick) is open and says something matching `pattern`. */
export async function expectQuickInput(page: Page, pattern: RegExp, timeoutMs = 15_000): Promise<void> {
  let last = '';
  await waitUntil(
    async () => {
      last = await quickInputText(page);
      return pattern.test(last);
    },
    timeoutMs,
    `a quick input matching ${String(pattern)} (it says: ${JSON.stringify(last.slice(0, 300))})`,
  ).catch(async (error: unknown) => {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)} Last text: ${JSON.stringify((await quickInputText(page)).slice(0, 300))}`,
    );
  });
}

/**
 * Types `text` into the open quick input and presses Enter. In a pick, Enter takes the first item, so it
 * first waits until the first visible item matches the text.
 */
export async function answerQuickInput(page: Page, text: string): Promise<void> {
  await fillQuickInput(page, text);
  await quickInput(page).locator('input.input').first().press('Enter');
}

/** Types into the quick input and, when it lists items, waits until the first one matches the text. */
export async function fillQuickInput(page: Page, text: string): Promise<void> {
  const widget = quickInput(page);
  const input = widget.locator('input.input').first();
  await input.waitFor({ state: 'visible' });
  await input.fill(text);
  const rows = widget.locator('.quick-input-list .monaco-list-row');
  if ((await rows.count()) > 0 && (await rows.first().isVisible())) {
    const wanted = text.toLowerCase();
    await waitUntil(
      async () =>
        (
          (await rows
            .first()
            .getAttribute('aria-label')
            .catch(() => null)) ?? ''
        )
          .toLowerCase()
          .includes(wanted),
      10_000,
      `a quick pick item matching "${text}"`,
    );
  }
}

/** Clicks an activity-bar entry (e.g. "Explorer", "Forge") by the start of its aria-label. */
export async function openActivityBarView(page: Page, ariaLabel: string): Promise<void> {
  const entry = page
    .locator(`.part.activitybar .action-item a.action-label[aria-label^="${cssString(ariaLabel)}"]`)
    .first();
  await entry.waitFor({ state: 'visible' });
  const item = entry.locator('xpath=..');
  if ((await item.getAttribute('class'))?.split(/\s+/).includes('checked')) return; // already open
  await entry.click();
}

/** The pane (a view in a side bar or the panel) whose header title is `viewTitle`. */
export function viewPane(page: Page, viewTitle: string): Locator {
  return page
    .locator('.pane')
    .filter({
      has: page.locator('.pane-header h3.title', {
        hasText: new RegExp(`^\\s*${escapeRegExp(viewTitle)}\\s*$`, 'i'),
      }),
    })
    .first();
}

/** Expands the pane `viewTitle` when it is collapsed. */
export async function expandPane(page: Page, viewTitle: string): Promise<void> {
  const header = viewPane(page, viewTitle).locator('.pane-header');
  await header.waitFor({ state: 'visible' });
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
}

/** All rows of the tree in pane `viewTitle`, top to bottom (only the rendered ones: trees are virtual). */
export function treeRows(page: Page, viewTitle: string): Locator {
  return viewPane(page, viewTitle).locator('.pane-body .monaco-list-row');
}

/**
 * The first row of the tree in pane `viewTitle` whose label, text (label plus description) or
 * accessible name matches `name` (a string must match the label exactly).
 */
export function treeRow(page: Page, viewTitle: string, name: string | RegExp): Locator {
  const pattern = typeof name === 'string' ? new RegExp(`^${escapeRegExp(name)}$`) : name;
  const rows = treeRows(page, viewTitle);
  return rows
    .filter({ has: page.locator('.label-name', { hasText: pattern }) })
    .or(rows.filter({ hasText: pattern }))
    .or(viewPane(page, viewTitle).getByRole('treeitem', { name: pattern }))
    .first();
}

/** The labels (without descriptions) of the rendered rows of the tree in pane `viewTitle`. */
export async function rowLabels(page: Page, viewTitle: string): Promise<string[]> {
  const labels = await treeRows(page, viewTitle).locator('.label-name').allInnerTexts();
  return labels.map((label) => label.trim());
}

/** Expands pane `viewTitle` if needed and returns its row labels. */
export async function treeItems(page: Page, viewTitle: string): Promise<string[]> {
  await expandPane(page, viewTitle);
  return rowLabels(page, viewTitle);
}

/** The channel the Output panel currently shows, or undefined when the panel is not on Output. */
export async function shownOutputChannel(page: Page): Promise<string | undefined> {
  const select = page.locator('.part.panel select.monaco-select-box[aria-label="Switch Output"]').first();
  if ((await select.count()) === 0 || !(await select.isVisible())) return undefined;
  return select.inputValue();
}

/** Waits until the Output panel shows `channel`. */
export async function waitForOutputChannel(page: Page, channel: string, timeoutMs = 15_000): Promise<void> {
  let shown: string | undefined;
  await waitUntil(
    async () => {
      shown = await shownOutputChannel(page);
      return shown === channel;
    },
    timeoutMs,
    `the Output panel to show "${channel}"`,
  ).catch(() => {
    throw new Error(
      `The Output panel shows ${shown === undefined ? 'nothing' : `"${shown}"`}, not "${channel}".`,
    );
  });
}

/** Notification toasts currently on screen (their message text). */
export async function notifications(page: Page): Promise<string[]> {
  const messages = await page
    .locator('.notifications-toasts .notification-list-item-message')
    .allInnerTexts();
  return messages.map((message) => message.trim());
}

/** For an `afterEach`: saves test-results/screenshots/failed-<test>.png when the current test failed. */
export async function screenshotIfFailed(context: Mocha.Context, page: Page | undefined): Promise<void> {
  const test = context.currentTest;
  if (!page || test?.state !== 'failed') return;
  const name = `failed-${test
    .fullTitle()
    .replace(/[^a-z0-9]+/gi, '-')
    .toLowerCase()}`.slice(0, 120);
  await screenshot(page, name).catch(() => undefined);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function cssString(text: string): string {
  return text.replace(/["\\]/g, '\\$&');
}

/** Collapses pane `viewTitle` when it is expanded, to give the others room (trees render only visible rows). */
export async function collapsePane(page: Page, viewTitle: string): Promise<void> {
  const header = viewPane(page, viewTitle).locator('.pane-header');
  await header.waitFor({ state: 'visible' });
  if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
}

/**
 * The frame of the open webview whose page contains `selector` (webviews are nested iframes; the
 * inner one holds the extension's page). Waits until it exists.
 */
export async function webviewFrame(page: Page, selector: string, timeoutMs = 30_000): Promise<Frame> {
  let found: Frame | undefined;
  await waitUntil(
    async () => {
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        if (
          (await frame
            .locator(selector)
            .count()
            .catch(() => 0)) > 0
        ) {
          found = frame;
          return true;
        }
      }
      return false;
    },
    timeoutMs,
    `a webview showing ${selector}`,
  );
  if (!found) throw new Error(`No webview shows ${selector}.`);
  return found;
}

/**
 * "Preferences: Color Theme" (not the palette's first match, so picked by name), then the theme;
 * waits until the workbench wears it (`themeClass`: vs, vs-dark, hc-black).
 */
export async function pickColorTheme(page: Page, theme: string, themeClass?: string): Promise<void> {
  // Keys typed while a webview has focus go to the page: give the workbench focus first.
  await page.locator('.part.sidebar .composite.title').first().click();
  await page.keyboard.press('F1');
  const widget = quickInput(page);
  const input = widget.locator('input.input').first();
  await input.waitFor({ state: 'visible' });
  await input.fill('>Preferences: Color Theme');
  await widget.locator('.monaco-list-row[aria-label^="Preferences: Color Theme,"]').first().click();
  await expectQuickInput(page, /Select Color Theme/i);
  await answerQuickInput(page, theme);
  if (themeClass) {
    await waitUntil(
      async () =>
        ((await page.locator('.monaco-workbench').getAttribute('class')) ?? '')
          .split(/\s+/)
          .includes(themeClass),
      20_000,
      `the ${theme} theme`,
    );
  }
}

/**
 * Waits until `target` is drawn in a theme's colours: light text on a dark theme, dark text on a light
 * one (webviews and editors take a new theme a moment after the workbench does).
 */
export async function waitForThemeColours(
  target: Locator,
  kind: 'dark' | 'light',
  timeoutMs = 15_000,
): Promise<void> {
  await waitUntil(
    async () => {
      const colour = await target.first().evaluate((element) => getComputedStyle(element).color);
      const [red = 0, green = 0, blue = 0] = (colour.match(/\d+(?:\.\d+)?/g) ?? []).map(Number);
      const lightText = (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255 > 0.5;
      return lightText === (kind === 'dark');
    },
    timeoutMs,
    `${kind} theme colours`,
  );
}

/**
 * Expands the row `name` of the tree in pane `viewTitle` unless it is expanded already (a click on
 * the row would toggle it, and suites that share a window find rows as an earlier suite left them).
 * Its twistie is clicked, so a row with a command (a merge request) does not run it.
 */
export async function expandRow(
  page: Page,
  viewTitle: string,
  name: string | RegExp,
  timeoutMs = 30_000,
): Promise<void> {
  const row = treeRow(page, viewTitle, name);
  await row.waitFor({ timeout: timeoutMs });
  if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
}

/** Collapses the row `name` of the tree in pane `viewTitle` when it is expanded. */
export async function collapseRow(page: Page, viewTitle: string, name: string | RegExp): Promise<void> {
  const row = treeRow(page, viewTitle, name);
  await row.waitFor();
  if ((await row.getAttribute('aria-expanded')) === 'true') await row.locator('.monaco-tl-twistie').click();
}

/** Collapses every row of the tree in pane `viewTitle` with its Collapse All button (there once it has rows). */
export async function collapseAllRows(page: Page, viewTitle: string): Promise<void> {
  const header = viewPane(page, viewTitle).locator('.pane-header');
  if ((await header.getAttribute('aria-expanded')) !== 'true') return;
  const collapseAll = header.locator('.action-label[aria-label="Collapse All"]');
  const expanded = viewPane(page, viewTitle).locator('.pane-body .monaco-list-row[aria-expanded="true"]');
  // Until no row is open: the button is disabled while nothing is, and the pane's toolbar is drawn
  // again while its tree loads (a click then finds the old button gone).
  await waitUntil(
    async () => {
      if ((await expanded.count()) === 0) return true;
      await header.hover({ force: true });
      if (
        (await collapseAll.getAttribute('aria-disabled', { timeout: 1_000 }).catch(() => 'true')) !== 'true'
      )
        await collapseAll.click({ force: true, timeout: 1_000 }).catch(() => undefined);
      return (await expanded.count()) === 0;
    },
    15_000,
    `every row of ${viewTitle} folded`,
  );
}
