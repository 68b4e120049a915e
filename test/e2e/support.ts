// Helpers for the UI tests: drive the real workbench (code-server in headless Chromium) the way a
// user would. Selectors are VS Code 1.139's DOM; activity-bar entries and panes are found by their
// accessible labels, which are stable across themes and layouts.
import type { Locator, Page } from 'playwright-core';

/** Runs a command from the command palette (F1) by its full title, e.g. "Forge: Show Log". */
export async function runCommand(page: Page, title: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await page.locator('.monaco-workbench').focus();
  await page.keyboard.press('F1');
  const input = widget.locator('input.input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  // Wait until the best match is exactly this command, then run it.
  const first = widget.locator('.quick-input-list .monaco-list-row').first();
  await first.waitFor({ state: 'visible' });
  await page.waitForFunction(
    (expected) => {
      const row = document.querySelector('.quick-input-widget .quick-input-list .monaco-list-row');
      return row?.getAttribute('aria-label')?.startsWith(expected) ?? false;
    },
    title,
    { timeout: 15_000 },
  );
  await page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden' });
}

/** Clicks an activity-bar entry (e.g. "Explorer", "Forge") by the start of its aria-label. */
export async function openActivityBarView(page: Page, ariaLabel: string): Promise<void> {
  const entry = page.locator(`.part.activitybar .action-item a.action-label[aria-label^="${cssString(ariaLabel)}"]`);
  await entry.first().waitFor({ state: 'visible' });
  const item = entry.first().locator('xpath=..');
  if ((await item.getAttribute('class'))?.includes('checked')) return; // already open
  await entry.first().click();
}

/** The pane (a view in a side bar or the panel) whose header title is `viewTitle`. */
export function viewPane(page: Page, viewTitle: string): Locator {
  return page.locator('.pane').filter({
    has: page.locator('.pane-header h3.title', { hasText: new RegExp(`^${escapeRegExp(viewTitle)}$`, 'i') }),
  });
}

/** The labels of the visible rows of a tree view, top to bottom (expands the pane if collapsed). */
export async function treeItems(page: Page, viewTitle: string): Promise<string[]> {
  const pane = viewPane(page, viewTitle).first();
  await pane.waitFor({ state: 'visible' });
  const header = pane.locator('.pane-header');
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  const rows = pane.locator('.pane-body .monaco-list-row');
  return rows.evaluateAll((elements) =>
    elements.map((element) => (element.querySelector('.label-name')?.textContent ?? element.textContent ?? '').trim()),
  );
}

/** The channel the Output panel currently shows, or undefined when the panel is not on Output. */
export async function shownOutputChannel(page: Page): Promise<string | undefined> {
  const select = page.locator('.part.panel select.monaco-select-box[aria-label="Switch Output"]');
  if ((await select.count()) === 0 || !(await select.first().isVisible())) return undefined;
  return select.first().evaluate((element) => {
    const box = element as HTMLSelectElement;
    return box.options[box.selectedIndex]?.value;
  });
}

/** Waits until the Output panel shows `channel`. */
export async function waitForOutputChannel(page: Page, channel: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let shown: string | undefined;
  while (Date.now() < deadline) {
    shown = await shownOutputChannel(page);
    if (shown === channel) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`The Output panel shows ${shown === undefined ? 'nothing' : `"${shown}"`}, not "${channel}".`);
}

/** Notification toasts currently on screen (their message text). */
export async function notifications(page: Page): Promise<string[]> {
  return page
    .locator('.notifications-toasts .notification-list-item-message')
    .evaluateAll((elements) => elements.map((element) => (element.textContent ?? '').trim()));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function cssString(text: string): string {
  return text.replace(/["\\]/g, '\\$&');
}
