/**
 * The benchmark's own small extensions (VS Code's floors: an empty extension, an empty webview, a
 * diff of texts held in memory) and the command palette they are run from.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { expectQuickInput, runCommand, waitUntil, webviewFrame } from '../test/e2e/support';
import { median } from './report';

/**
 * Writes an unpacked extension `forge-bench.<name>` under `parent`: its manifest (with `commands`
 * contributed, when given), `code` as its `extension.js`, and any other `files` beside it.
 */
export function writeBenchExtension(
  parent: string,
  name: string,
  code: string,
  options: { commands?: { command: string; title: string }[]; files?: Record<string, string> } = {},
): string {
  const dir = path.join(parent, name);
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name,
    publisher: 'forge-bench',
    version: '0.0.1',
    engines: { vscode: '^1.100.0' },
    activationEvents: [],
    main: 'extension.js',
    ...(options.commands ? { contributes: { commands: options.commands } } : {}),
  };
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const [file, text] of Object.entries(options.files ?? {})) writeFileSync(path.join(dir, file), text);
  writeFileSync(path.join(dir, 'extension.js'), code);
  return dir;
}

/**
 * The command palette with `title` typed and its command listed (a new window lists an extension's
 * commands once its host has read the extension: the palette is asked again until then).
 */
export async function commandInPalette(page: Page, title: string): Promise<Locator> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    await page.keyboard.press('F1');
    await expectQuickInput(page, /./);
    const input = page.locator('.quick-input-widget input.input').first();
    await input.fill(`>${title}`);
    try {
      await page
        .locator(`.quick-input-widget .monaco-list-row[aria-label^="${title}"]`)
        .first()
        .waitFor({ timeout: 5_000 });
      return input;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

const EMPTY_WEBVIEW_TITLE = 'Bench: Open Empty Webview';

/**
 * An extension with one command, "Bench: Open Empty Webview", that opens a panel whose page does
 * nothing but note when its first frame is drawn: VS Code's own cost of showing a webview, the floor
 * our panels are measured against.
 */
export function writeEmptyWebviewExtension(parent: string): string {
  return writeBenchExtension(
    parent,
    'empty-webview',
    `const vscode = require('vscode');
exports.activate = (context) => {
  context.subscriptions.push(vscode.commands.registerCommand('forgeBench.emptyWebview', () => {
    const panel = vscode.window.createWebviewPanel('forgeBench.empty', 'Empty', vscode.ViewColumn.Active, { enableScripts: true });
    panel.webview.html = '<!DOCTYPE html><html data-host-set-at="' + Date.now() + '"><body><div id="empty">empty</div><script>document.documentElement.dataset.navigationStartAt = String(Math.round(performance.timeOrigin)); requestAnimationFrame(() => { document.documentElement.dataset.firstPaintAt = String(Date.now()); });</script></body></html>';
  }));
};
exports.deactivate = () => {};
`,
    {
      commands: [{ command: 'forgeBench.emptyWebview', title: EMPTY_WEBVIEW_TITLE }],
    },
  );
}

/**
 * When a page's document started loading, its script started, the first message from the host
 * arrived and its first frame was drawn, in ms from `started` (the page's clock readings; NaN for a
 * moment the page did not note).
 */
export async function pagePhases(frame: Frame, started: number): Promise<Record<string, number>> {
  const root = frame.locator('html');
  const at = async (name: string): Promise<number> => {
    const value = await root.getAttribute(`data-${name}`);
    return value === null ? Number.NaN : Number(value) - started;
  };
  return {
    panelCreatedMs: await at('panel-created-at'),
    hostSetMs: await at('host-set-at'),
    navigationStartMs: await at('navigation-start-at'),
    // When the page's parser had read its first paint (the inline script after it).
    firstPaintParsedMs: await at('first-paint-parsed-at'),
    scriptStartMs: await at('script-start-at'),
    firstMessageMs: await at('first-message-at'),
    firstPaintMs: await at('first-paint-at'),
  };
}

/** Median of each phase over several page loads. */
export function medianPhases(runs: Record<string, number>[]): Record<string, number> {
  const names = [...new Set(runs.flatMap((run) => Object.keys(run)))];
  return Object.fromEntries(names.map((name) => [name, median(runs.map((run) => run[name] ?? Number.NaN))]));
}

/** Opens the empty webview `runs` times (each after closing the editors): ms to each first frame, and its phases. */
export async function measureEmptyWebview(
  page: Page,
  runs = 3,
): Promise<{ times: number[]; phases: Record<string, number>[] }> {
  const times: number[] = [];
  const phases: Record<string, number>[] = [];
  for (let run = 0; run < runs; run++) {
    await runCommand(page, 'View: Close All Editors');
    const input = await commandInPalette(page, EMPTY_WEBVIEW_TITLE);
    const started = Date.now();
    await input.press('Enter');
    const frame = await webviewFrame(page, '#empty', 30_000);
    await waitUntil(
      async () => (await frame.locator('html').getAttribute('data-first-paint-at')) !== null,
      10_000,
      'the empty page drawn',
    );
    times.push(Number(await frame.locator('html').getAttribute('data-first-paint-at')) - started);
    phases.push(await pagePhases(frame, started));
  }
  await runCommand(page, 'View: Close All Editors');
  return { times, phases };
}
