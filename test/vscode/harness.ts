// Runs the extension inside a real VS Code: code-server (its own Node 24) plus Debian's Chromium driven
// by playwright-core. Used by the host suites (test/host), the UI tests (test/e2e) and `npm run demo`.
// It builds nothing: `dist/extension.js` must exist, and `node scripts/vscode-runtime.mjs` must have run.
// Every session lives in fresh temp folders and owns its processes; close() removes both, and a
// process-wide exit/SIGINT/SIGTERM handler kills whatever a failed test left running.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const repoRoot = resolve(__dirname, '..', '..');
const cacheDir = process.env.FORGE_RUNTIME_CACHE ?? join(repoRoot, '.cache', 'vscode-runtime');
export const CODE_SERVER_VERSION = '4.139.1';

/** Where `scripts/vscode-runtime.mjs` installs things (kept in sync with that script). */
type VscodeRuntime = { node24: string; codeServerEntry: string; chromiumPath: string };

export function vscodeRuntime(): VscodeRuntime {
  const codeServerDir = join(cacheDir, `code-server-${CODE_SERVER_VERSION}`);
  const runtime = {
    node24: join(cacheDir, 'node24', 'node_modules', 'node', 'bin', 'node'),
    codeServerEntry: join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    chromiumPath: process.env.FORGE_CHROMIUM ?? '/usr/bin/chromium',
  };
  if (!existsSync(join(codeServerDir, '.ready')) || !existsSync(runtime.node24)) {
    throw new Error(
      `The VS Code runtime is not installed in ${cacheDir}: run \`node scripts/vscode-runtime.mjs\` first.`,
    );
  }
  return runtime;
}

export interface StartVscodeOptions {
  /** Passed to the code-server process; it reaches the extension host. */
  env?: Record<string, string>;
  /** Other unpacked extensions to install (e.g. the host-test runner extension). */
  extraExtensionDirs?: string[];
  /** Default: a fresh temp dir (removed on close). */
  workspaceFolder?: string;
  /** Merged over the defaults (`defaultUserSettings`). */
  userSettings?: Record<string, unknown>;
  /** Default: a free port. */
  port?: number;
  /** Default true: launch Chromium and open the workbench (the extension host starts only then). */
  openBrowser?: boolean;
  /** Receives code-server's output and the harness's own progress lines. */
  log?: (line: string) => void;
  /** Names the folder under test-results/vscode-logs/ that receives VS Code's logs on close. */
  name?: string;
  /** Installs this packaged extension as a user would (`--install-extension`) instead of the build. */
  vsix?: string;
  /** Other packaged extensions to install with it (e.g. a language pack). */
  extraVsix?: string[];
  /** Runs once the extension is installed, with its folder (e.g. to add a translation). */
  afterInstall?: (extensionDir: string) => void;
  /** More code-server arguments (e.g. `--locale`). */
  extraArgs?: string[];
}

export interface VscodeSession {
  url: string;
  page: Page | undefined;
  browser: Browser | undefined;
  userDataDir: string;
  extensionsDir: string;
  workspaceFolder: string;
  /** False once code-server or the browser has gone away (a crash, not a close()). */
  isRunning(): boolean;
  /** Stops the browser and code-server, removes the temp folders. Safe to call twice. */
  close(): Promise<void>;
}

export const defaultUserSettings: Record<string, unknown> = {
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'git.enabled': false,
};

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// ---- process-wide cleanup: nothing may outlive the test process ----------------------------------

interface Owned {
  pid: number | undefined;
  dirs: string[];
}
const live = new Set<Owned>();
let handlersInstalled = false;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function cleanupSync(): void {
  for (const owned of live) {
    killGroup(owned.pid, 'SIGKILL');
    for (const dir of owned.dirs) rmSync(dir, { recursive: true, force: true });
  }
  live.clear();
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', cleanupSync);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const code = signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 129;
    const handler = (): void => {
      if (process.listenerCount(signal) > 1) {
        // Someone else listens too (the demo, playwright) and stops things its own way, then exits;
        // the 'exit' hook is the safety net. Should it not exit, this does, a little later.
        setTimeout(() => {
          cleanupSync();
          process.exit(code);
        }, 15_000).unref();
        return;
      }
      cleanupSync();
      process.exit(code);
    };
    process.on(signal, handler);
  }
}

// ---- helpers -------------------------------------------------------------------------------------

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

interface ManifestLike {
  publisher: string;
  name: string;
  version: string;
}

function readManifest(dir: string): ManifestLike {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as ManifestLike;
}

/** Copies the built extension into `extensionsDir` the way VS Code lays out an installed one. */
export function installBuiltExtension(extensionsDir: string): string {
  if (!existsSync(join(repoRoot, 'dist', 'extension.js'))) {
    throw new Error('dist/extension.js is missing: run `node esbuild.mjs` first.');
  }
  const manifest = readManifest(repoRoot);
  const target = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  mkdirSync(target, { recursive: true });
  // The manifest's strings live in package.nls*.json (translations beside the default).
  const nlsFiles = readdirSync(repoRoot).filter((name) => /^package\.nls(\.[\w-]+)?\.json$/.test(name));
  for (const entry of [
    'package.json',
    ...nlsFiles,
    'dist',
    'l10n',
    'media',
    'schemas',
    'README.md',
    'CHANGELOG.md',
    'LICENSE',
  ]) {
    const source = join(repoRoot, entry);
    if (existsSync(source)) cpSync(source, join(target, entry), { recursive: true });
  }
  return target;
}

/** Installs a `.vsix` with code-server's own `--install-extension`, as from the marketplace; answers its folder. */
function installVsix(
  runtime: VscodeRuntime,
  extensionsDir: string,
  userDataDir: string,
  vsixFiles: string[],
): string {
  execFileSync(
    runtime.node24,
    [
      runtime.codeServerEntry,
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      userDataDir,
      ...vsixFiles.flatMap((file) => ['--install-extension', file]),
    ],
    { stdio: 'pipe', timeout: 60_000 },
  );
  registerLanguagePacks(extensionsDir, userDataDir);
  const manifest = readManifest(repoRoot);
  const installed = readdirSync(extensionsDir).find((name) =>
    name.startsWith(`${manifest.publisher}.${manifest.name}-`),
  );
  if (!installed) throw new Error(`${vsixFiles[0]} did not install into ${extensionsDir}`);
  return join(extensionsDir, installed);
}

/**
 * Writes `languagepacks.json` for the language packs installed, as VS Code does only once it runs:
 * it reads the file when it starts, so without it the first start ignores `--locale`.
 */
function registerLanguagePacks(extensionsDir: string, userDataDir: string): void {
  const packs: Record<string, unknown> = {};
  for (const folder of readdirSync(extensionsDir)) {
    const manifestFile = join(extensionsDir, folder, 'package.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
      publisher: string;
      name: string;
      version: string;
      contributes?: {
        localizations?: {
          languageId: string;
          languageName: string;
          translations: { id: string; path: string }[];
        }[];
      };
    };
    for (const localization of manifest.contributes?.localizations ?? []) {
      packs[localization.languageId] = {
        hash: `${manifest.name}-${manifest.version}`,
        extensions: [
          {
            extensionIdentifier: { id: `${manifest.publisher}.${manifest.name}` },
            version: manifest.version,
          },
        ],
        translations: Object.fromEntries(
          localization.translations.map((translation) => [
            translation.id,
            join(extensionsDir, folder, translation.path),
          ]),
        ),
        label: localization.languageName,
      };
    }
  }
  if (Object.keys(packs).length > 0)
    writeFileSync(join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
}

function installExtraExtension(extensionsDir: string, dir: string): string {
  const manifest = readManifest(dir);
  const target = join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  cpSync(dir, target, { recursive: true });
  return target;
}

async function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

async function waitForHttp(
  url: string,
  child: ChildProcess,
  output: string[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `code-server exited (${child.exitCode ?? child.signalCode}) before answering:\n${output.slice(-30).join('\n')}`,
      );
    }
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(150);
  }
  throw new Error(`code-server did not answer within ${timeoutMs} ms:\n${output.slice(-30).join('\n')}`);
}

function pipeLines(stream: NodeJS.ReadableStream | null, sink: (line: string) => void): void {
  if (!stream) return;
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') sink(line);
  });
  stream.on('end', () => {
    if (pending.trim() !== '') sink(pending);
  });
}

// ---- the session ---------------------------------------------------------------------------------

export async function startVscode(options: StartVscodeOptions = {}): Promise<VscodeSession> {
  const runtime = vscodeRuntime();
  const log = options.log ?? (() => undefined);
  installHandlers();

  const root = mkdtempSync(join(tmpdir(), 'forge-vscode-'));
  const owned: Owned = { pid: undefined, dirs: [root] };
  live.add(owned);
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  const workspaceFolder = options.workspaceFolder ?? join(root, 'workspace');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  mkdirSync(workspaceFolder, { recursive: true });

  let child: ChildProcess | undefined;
  let browser: Browser | undefined;
  let closed = false;
  const output: string[] = [];

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    if (browser) {
      await Promise.race([browser.close().catch(() => undefined), sleep(5000)]);
    }
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((done) => child?.once('exit', () => done()));
      killGroup(child.pid, 'SIGTERM');
      await Promise.race([exited, sleep(5000)]);
    }
    // Stragglers in the group (extension host, pty host) go too, whatever the wrapper did.
    killGroup(child?.pid, 'SIGKILL');
    if (options.name) saveLogs(userDataDir, options.name);
    for (const dir of owned.dirs) rmSync(dir, { recursive: true, force: true });
    live.delete(owned);
  };

  try {
    const extensionDir = options.vsix
      ? installVsix(runtime, extensionsDir, userDataDir, [options.vsix, ...(options.extraVsix ?? [])])
      : installBuiltExtension(extensionsDir);
    options.afterInstall?.(extensionDir);
    for (const dir of options.extraExtensionDirs ?? []) installExtraExtension(extensionsDir, dir);
    writeFileSync(
      join(userDataDir, 'User', 'settings.json'),
      JSON.stringify({ ...defaultUserSettings, ...options.userSettings }, null, 2),
    );
    // A config file of our own keeps code-server from writing one (with a password) into ~/.config.
    const configFile = join(root, 'code-server.yaml');
    writeFileSync(configFile, 'auth: none\ncert: false\n');

    const port = options.port ?? (await freePort());
    const url = `http://127.0.0.1:${port}`;
    const args = [
      runtime.codeServerEntry,
      '--config',
      configFile,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      userDataDir,
      ...(options.extraArgs ?? []),
      workspaceFolder,
    ];
    log(`[vscode] starting code-server on ${url}`);
    const started = Date.now();
    child = spawn(runtime.node24, args, {
      cwd: workspaceFolder,
      detached: true, // its own process group, so close() can kill the whole tree
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        // code-server's own logs (coder-logs) go to the session, not to ~/.local/share.
        XDG_DATA_HOME: join(root, 'xdg-data'),
        XDG_CONFIG_HOME: join(root, 'xdg-config'),
        ...options.env,
      },
    });
    owned.pid = child.pid;
    const sink = (line: string): void => {
      output.push(line);
      if (output.length > 500) output.shift();
      log(`[code-server] ${line}`);
    };
    pipeLines(child.stdout, sink);
    pipeLines(child.stderr, sink);
    await waitForHttp(url, child, output, 60_000);
    log(`[vscode] code-server answers after ${Date.now() - started} ms`);

    const session: VscodeSession = {
      url,
      page: undefined,
      browser: undefined,
      userDataDir,
      extensionsDir,
      workspaceFolder,
      close,
      isRunning: () =>
        !closed &&
        child !== undefined &&
        child.exitCode === null &&
        child.signalCode === null &&
        (browser === undefined || browser.isConnected()),
    };

    if (options.openBrowser ?? true) {
      browser = await chromium.launch({
        executablePath: runtime.chromiumPath,
        headless: true,
        args: chromiumArgs,
      });
      const context = await browser.newContext({
        viewport: { width: 1400, height: 900 },
        // Lets tests read back what commands copied.
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      const page = await context.newPage();
      page.on('pageerror', (error) => log(`[page error] ${error.message}`));
      await page.goto(workbenchUrl(url, workspaceFolder));
      await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
      log(`[vscode] workbench rendered after ${Date.now() - started} ms`);
      session.browser = browser;
      session.page = page;
    }
    return session;
  } catch (error) {
    await close();
    throw error;
  }
}

/** The address that opens the workbench on a folder. */
export function workbenchUrl(url: string, folder: string): string {
  return `${url}/?${new URLSearchParams({ folder }).toString()}`;
}

function saveLogs(userDataDir: string, name: string): void {
  const logs = join(userDataDir, 'logs');
  if (!existsSync(logs)) return;
  const target = join(repoRoot, 'test-results', 'vscode-logs', name);
  try {
    rmSync(target, { recursive: true, force: true });
    cpSync(logs, target, { recursive: true });
  } catch {
    // logs are a convenience; never fail a close over them
  }
}

/** Saves a screenshot to test-results/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = join(repoRoot, 'test-results', 'screenshots', `${name}.png`);
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  return file;
}
