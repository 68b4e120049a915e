// Renders media/icon.svg to the 256 px media/icon.png the marketplace shows, with the Chromium the
// UI tests use (`npx tsx scripts/render-icon.ts`; run after changing the SVG, commit both).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { repoRoot, vscodeRuntime } from '../test/vscode/harness';

async function main(): Promise<void> {
  const svg = readFileSync(join(repoRoot, 'media', 'icon.svg'), 'utf8');
  const browser = await chromium.launch({
    executablePath: vscodeRuntime().chromiumPath,
    args: ['--no-sandbox'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 256, height: 256 }, deviceScaleFactor: 1 });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.locator('svg').screenshot({ path: join(repoRoot, 'media', 'icon.png'), omitBackground: true });
  } finally {
    await browser.close();
  }
}

void main();
