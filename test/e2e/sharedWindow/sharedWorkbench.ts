// One VS Code window for the UI suites that need the same seed and the same signed-in user (the
// files in this folder), instead of a window each: docs/testing.md ("Where the time goes") has
// what it saves.
//
// What keeps the suites independent of each other and of their order:
// - every suite's changes to the fake forge are made before the window opens, whichever suite runs
//   first: a suite file registers them at load time with `prepareSharedForge` (mocha loads every
//   file before it runs any), so running one suite alone prepares only what it needs;
// - every suite starts from `resetSharedWorkbench`: no quick input, menu, notification or editor
//   left open, the light theme, the Forge view open, the rows of its expanded trees folded, and the
//   panes VS Code shows collapsed at first (Issues) collapsed again, so the others keep their height;
// - a suite expands the panes and rows it needs (`expandPane`, `expandRow`), never by a click that
//   toggles, so a row an earlier suite left open (in a pane that was folded) does not close.
// The window closes after the last suite (`mochaHooks`, loaded through `.mocharc.e2e.json`).
import type { Page } from 'playwright-core';
import { type FakeForge, startFakeForge } from '../../server';
import { type VscodeSession, startVscode } from '../../vscode/harness';
import { collapseAllRows, collapsePane, openActivityBarView, pickColorTheme, runCommand } from '../support';

export interface SharedWorkbench {
  forge: FakeForge;
  vscode: VscodeSession;
  page: Page;
}

const preparations: ((forge: FakeForge) => void)[] = [];
let started: Promise<SharedWorkbench> | undefined;

/** The Forge view's trees with rows that expand. */
const TREES_WITH_ROWS_TO_FOLD = ['Projects', 'Merge Requests', 'Channel'];
/** Views contributed with `"visibility": "collapsed"`. */
const PANES_COLLAPSED_AT_START = ['Issues'];
const LIGHT_THEME = ['Light Modern', 'vs'] as const;

/** Registers a change to the shared fake forge, made before the window opens. Call at module load. */
export function prepareSharedForge(prepare: (forge: FakeForge) => void): void {
  if (started)
    throw new Error('prepareSharedForge is called when a suite file loads, before the window opens.');
  preparations.push(prepare);
}

/** The shared window, opened on first use, reset for the calling suite. */
export async function sharedWorkbench(): Promise<SharedWorkbench> {
  started ??= open();
  const shared = await started;
  await resetSharedWorkbench(shared.page);
  return shared;
}

async function open(): Promise<SharedWorkbench> {
  const forge = await startFakeForge({ seed: 'small' });
  for (const prepare of preparations) prepare(forge);
  const vscode = await startVscode({
    name: 'e2e-shared',
    env: {
      FORGE_SERVER_URL: forge.url,
      FORGE_TOKEN: forge.userToken,
      FORGE_CHANNEL_URL: forge.url,
      FORGE_CHANNEL_USER: forge.channel.nickname,
      FORGE_CHANNEL_PASSWORD: forge.channel.password,
    },
  }).catch(async (error: unknown) => {
    await forge.close();
    throw error;
  });
  if (!vscode.page) throw new Error('The shared VS Code window has no page.');
  return { forge, vscode, page: vscode.page };
}

/** Puts the window back as a suite expects to find it (see the top of this file). */
export async function resetSharedWorkbench(page: Page): Promise<void> {
  for (let press = 0; press < 2; press++) await page.keyboard.press('Escape');
  await runCommand(page, 'Notifications: Clear All Notifications');
  await runCommand(page, 'View: Close All Editors');
  const themeClasses = ((await page.locator('.monaco-workbench').getAttribute('class')) ?? '').split(/\s+/);
  if (!themeClasses.includes(LIGHT_THEME[1])) await pickColorTheme(page, ...LIGHT_THEME);
  await openActivityBarView(page, 'Forge');
  for (const pane of TREES_WITH_ROWS_TO_FOLD) {
    await collapseAllRows(page, pane);
  }
  for (const pane of PANES_COLLAPSED_AT_START) await collapsePane(page, pane);
}

/** Root hooks (mocha's `--require`): the shared window closes after the last suite. */
export const mochaHooks = {
  async afterAll(): Promise<void> {
    if (!started) return;
    const shared = await started.catch(() => undefined);
    started = undefined;
    await shared?.vscode.close();
    await shared?.forge.close();
  },
};
