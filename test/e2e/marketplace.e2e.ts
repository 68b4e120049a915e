// The extension as a user gets it: the packaged .vsix installed into a fresh VS Code with
// `--install-extension`, in another display language. A translation (a German bundle beside the
// English one, as a translator would add it) reaches the welcome view, the questions, the tree
// and the merge request page: what `npm run l10n:export` lists is what the product shows.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type FakeForge, startFakeForge } from '../server';
import { type VscodeSession, screenshot, startVscode } from '../vscode/harness';
import {
  answerQuickInput,
  collapsePane,
  expectQuickInput,
  openActivityBarView,
  screenshotIfFailed,
  treeRow,
  viewPane,
  webviewFrame,
} from './support';

const root = join(__dirname, '..', '..');

/** A few German sentences, keyed by the English text as `l10n/bundle.l10n.json` lists them. */
const GERMAN_BUNDLE: Record<string, string> = {
  'Add Account (1/3)': 'Konto hinzufügen (1/3)',
  'Address of the server': 'Adresse des Servers',
  'Kind of token': 'Art des Tokens',
  'Personal access token': 'Persönliches Zugriffstoken',
  Jobs: 'Aufträge',
  Issues: 'Tickets',
  'Merge Requests': 'Merge-Requests',
  Overview: 'Übersicht',
  Author: 'Autor',
};

/** `vsce package` in `dir`, without node_modules (the extension's bundles carry what it needs). */
function vsce(dir: string, args: string[]): void {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', ...args],
    { cwd: dir, stdio: 'pipe', timeout: 120_000 },
  );
}

/**
 * A language pack that declares German and translates nothing of VS Code itself: enough for VS Code
 * to run in German (`--locale de` needs an installed pack), so that extensions load their German bundles.
 */
function writeLanguagePack(dir: string): void {
  mkdirSync(join(dir, 'translations'), { recursive: true });
  writeFileSync(
    join(dir, 'translations', 'main.i18n.json'),
    JSON.stringify({ version: '1.0.0', contents: {} }),
  );
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'language-pack-de-for-tests',
      displayName: 'German for tests',
      description: 'Declares German; translates nothing of VS Code itself.',
      publisher: 'forge-tests',
      version: '1.0.0',
      license: 'MIT',
      engines: { vscode: '^1.90.0' },
      categories: ['Language Packs'],
      contributes: {
        localizations: [
          {
            languageId: 'de',
            languageName: 'German',
            localizedLanguageName: 'Deutsch',
            translations: [{ id: 'vscode', path: './translations/main.i18n.json' }],
          },
        ],
      },
    }),
  );
}

describe('installed from the .vsix, in German (UI)', function () {
  this.timeout(180_000);
  let forge: FakeForge;
  let vscode: VscodeSession;
  let page: Page;
  const packed = mkdtempSync(join(tmpdir(), 'forge-vsix-'));
  let installed = '';

  before(async () => {
    // `npm test` packs the extension beside its checks (FORGE_E2E_VSIX); alone, this suite packs it.
    const prepacked = process.env['FORGE_E2E_VSIX'];
    const vsix = prepacked ?? join(packed, 'forge-workbench.vsix');
    if (prepacked === undefined) vsce(root, ['--readme-path', 'docs/marketplace/README.md', '--out', vsix]);
    assert.ok(existsSync(vsix), `the packed extension is at ${vsix}`);
    const languagePack = join(packed, 'language-pack');
    writeLanguagePack(languagePack);
    const languagePackVsix = join(packed, 'language-pack.vsix');
    vsce(languagePack, ['--allow-missing-repository', '--skip-license', '--out', languagePackVsix]);
    forge = await startFakeForge({ seed: 'small' });
    vscode = await startVscode({
      name: 'e2e-vsix-german',
      vsix,
      extraArgs: ['--locale', 'de'],
      extraVsix: [languagePackVsix],
      afterInstall: (extensionDir) => {
        installed = extensionDir;
        const english = JSON.parse(readFileSync(join(extensionDir, 'package.nls.json'), 'utf8')) as Record<
          string,
          string
        >;
        const welcome = english['viewsWelcome.forge.projects.1'] ?? '';
        assert.match(welcome, /\[Add Account\]/);
        writeFileSync(
          join(extensionDir, 'package.nls.de.json'),
          JSON.stringify({
            ...english,
            'viewsWelcome.forge.projects.1': welcome.replace('[Add Account]', '[Konto hinzufügen]'),
          }),
        );
        writeFileSync(join(extensionDir, 'l10n', 'bundle.l10n.de.json'), JSON.stringify(GERMAN_BUNDLE));
      },
    });
    assert.ok(vscode.page);
    page = vscode.page;
  });

  afterEach(async function () {
    await screenshotIfFailed(this, page);
  });

  after(async () => {
    await vscode?.close();
    await forge?.close();
    rmSync(packed, { recursive: true, force: true });
  });

  it('installs what the .vsix holds: the bundles, the English messages, no sources', () => {
    const shipped = readdirSync(installed).sort();
    assert.deepEqual(
      shipped.filter((name) => ['src', 'test', 'node_modules', 'scripts', 'bench'].includes(name)),
      [],
    );
    for (const file of ['dist/extension.js', 'dist/core.js', 'package.nls.json', 'l10n/bundle.l10n.json'])
      assert.ok(existsSync(join(installed, file)), file);
    const bundle = JSON.parse(readFileSync(join(installed, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    for (const english of Object.keys(GERMAN_BUNDLE)) assert.ok(english in bundle, english);
  });

  it('signs in through the translated welcome and questions, and shows translated folders', async () => {
    await openActivityBarView(page, 'Forge');
    const button = viewPane(page, 'Projects').locator('.monaco-text-button', { hasText: 'Konto hinzufügen' });
    await button.waitFor({ timeout: 60_000 });
    await button.click();
    await expectQuickInput(page, /Adresse des Servers/);
    await answerQuickInput(page, forge.url);
    await expectQuickInput(page, /Art des Tokens/);
    await answerQuickInput(page, 'Persönliches Zugriffstoken');
    await expectQuickInput(page, /for/);
    await answerQuickInput(page, forge.userToken);
    await treeRow(page, 'Projects', /acme\/web/).click();
    await treeRow(page, 'Projects', /^Aufträge/).waitFor({ timeout: 30_000 });
    await treeRow(page, 'Projects', /^Merge-Requests/).waitFor({ timeout: 30_000 });
    // A folder's menus match its English kind, not its translated name: the Issues folder
    // ("Tickets") keeps its inline "Create Issue…".
    const tickets = treeRow(page, 'Projects', /^Tickets/);
    await tickets.hover();
    await tickets.locator('.actions .action-label.codicon-add').waitFor({ timeout: 30_000 });
    await screenshot(page, 'vsix-german');
  });

  it('shows the merge request page in the same language', async () => {
    // The Projects pane gets the sidebar's height, so that the folder's rows are drawn.
    for (const pane of ['Merge Requests', 'Todos', 'Channel']) await collapsePane(page, pane);
    await treeRow(page, 'Projects', /^Merge-Requests/).click();
    // The pane is short: once the folder's rows are in, the focus walks down them (the list scrolls
    // with it) until !1 is drawn. Keys pressed before the rows came would walk past the folder.
    await treeRow(page, 'Projects', /^!\d+ /)
      .first()
      .waitFor({ timeout: 30_000 });
    const first = treeRow(page, 'Projects', /^!1 /);
    for (let step = 0; step < 12 && (await first.count()) === 0; step++)
      await page.keyboard.press('ArrowDown');
    await first.click();
    const frame = await webviewFrame(page, '.mr-header .mr-title-text', 60_000);
    await frame.locator('.overview .facts').waitFor();
    await frame.locator('vscode-tab-header', { hasText: 'Übersicht' }).first().waitFor({ timeout: 30_000 });
    await frame.locator('.facts dt', { hasText: 'Autor' }).first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'vsix-german-merge-request');
  });
});
