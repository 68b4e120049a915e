/**
 * The benchmark's own small extensions (VS Code's floors: an empty extension, an empty webview, a
 * diff of texts held in memory) and the command palette they are run from.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expectQuickInput } from '../test/e2e/support';

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
