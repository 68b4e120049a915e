// `npm test`: every check and test suite. The VS Code runtime install (network, then compiling one
// native module), the .vsix packing and the build run beside the checks (types, lint, format: one
// core, one after the other), then the unit tests on that core; the host suites and then the UI
// tests run after all of them, alone. Measured
// on 2 cores (docs/testing.md): the suites that drive VS Code use both cores themselves, and running
// them beside the checks, or beside each other, made every step two to three times as slow (lint
// 41 s to 123 s, the unit tests 61 s to 183 s), timed tests out, and saved nothing overall.
// A step that fails skips what depends on it; everything else still runs, so one run reports
// everything that is broken. The UI tests' output is streamed as it comes; every other step's
// output is printed whole when it ends, between whole lines.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const windows = process.platform === 'win32';
/** @param {string} name */
const bin = (name) => join(root, 'node_modules', '.bin', windows ? `${name}.cmd` : name);
const packagedVsix = join(root, 'out', 'e2e', 'forge-workbench.vsix');
mkdirSync(dirname(packagedVsix), { recursive: true });

/**
 * @typedef {{
 *   name: string;
 *   command: string;
 *   args: string[];
 *   after?: string[];
 *   behind?: string[];
 *   env?: Record<string, string>;
 *   live?: boolean;
 * }} Step
 * `after`: steps that must have passed first; `behind`: steps that must have ended (passed or not);
 * `env`: added to the environment of its process.
 */
/** @type {Step[]} */
const steps = [
  { name: 'typecheck', command: bin('tsc'), args: ['-p', '.', '--noEmit'] },
  { name: 'lint', command: bin('eslint'), args: ['.'], after: ['typecheck'] },
  { name: 'format', command: bin('prettier'), args: ['--check', '.'], after: ['lint'] },
  { name: 'VS Code runtime', command: process.execPath, args: ['scripts/vscode-runtime.mjs'] },
  // The .vsix the marketplace UI test installs, packed beside the checks rather than in the UI run
  // (20 s there). Packing builds for production into dist/, so the build runs behind it.
  {
    name: 'package',
    command: process.execPath,
    args: [
      join(root, 'node_modules', '@vscode', 'vsce', 'vsce'),
      'package',
      '--no-dependencies',
      '--readme-path',
      'docs/marketplace/README.md',
      '--out',
      packagedVsix,
    ],
  },
  { name: 'build', command: process.execPath, args: ['esbuild.mjs'], behind: ['package'] },
  { name: 'build host suites', command: process.execPath, args: ['scripts/build-tests.mjs'] },
  // On the second core once the install and builds are done (about a minute in), beside lint: the
  // checks one after the other left that core idle for as long as the unit tests take.
  {
    name: 'unit tests',
    command: bin('mocha'),
    args: [],
    behind: ['VS Code runtime', 'package', 'build', 'build host suites'],
  },
  {
    name: 'host suites',
    command: bin('tsx'),
    args: ['test/host/run.ts', '--prebuilt'],
    after: ['VS Code runtime', 'build', 'build host suites'],
    behind: ['unit tests', 'format'],
  },
  {
    name: 'UI tests',
    command: bin('mocha'),
    args: ['--config', '.mocharc.e2e.json'],
    after: ['VS Code runtime', 'build', 'package'],
    behind: ['host suites'],
    env: { FORGE_E2E_VSIX: packagedVsix },
    live: true,
  },
];

/** Writes whole lines only, so that steps never split each other's lines. */
function lineWriter() {
  let pending = '';
  return {
    /** @param {string} chunk */
    write(chunk) {
      pending += chunk;
      const end = pending.lastIndexOf('\n');
      if (end < 0) return;
      process.stdout.write(pending.slice(0, end + 1));
      pending = pending.slice(end + 1);
    },
    flush() {
      if (pending !== '') process.stdout.write(`${pending}\n`);
      pending = '';
    },
  };
}

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const started = Date.now();
/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();
/** @type {Map<string, { code: number | null; ms: number; startedAt: number }>} */
const results = new Map();
/** @type {Map<string, Promise<boolean>>} */
const finished = new Map();

/**
 * @param {Step} step
 * @returns {Promise<number>} the exit code
 */
function run(step) {
  const stepStarted = Date.now();
  const live = step.live ? lineWriter() : undefined;
  /** @type {string[]} */
  const buffered = [];
  if (live) process.stdout.write(`\n── ${step.name} ──\n`);
  else process.stdout.write(`── ${step.name}: started at ${seconds(stepStarted - started)} ──\n`);
  return new Promise((done) => {
    // Through a shell (Windows), a path with a space needs its quotes.
    const child = spawn(windows ? `"${step.command}"` : step.command, step.args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Node runs `.cmd` files only through a shell.
      shell: windows,
      // Output goes through a pipe: keep the colours a terminal would have shown.
      env: { ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}), ...process.env, ...step.env },
    });
    children.add(child);
    /** @param {unknown} chunk */
    const take = (chunk) => {
      const text = String(chunk);
      if (live) live.write(text);
      else buffered.push(text);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) => take(`${error.message}\n`));
    child.on('close', (code, signal) => {
      children.delete(child);
      const ms = Date.now() - stepStarted;
      const exit = code ?? (signal ? 1 : 0);
      const verdict = exit === 0 ? 'passed' : `FAILED (exit ${code ?? signal})`;
      if (live) live.flush();
      else {
        const text = buffered.join('');
        process.stdout.write(
          `\n── ${step.name} ──\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}`,
        );
      }
      process.stdout.write(`── ${step.name} ${verdict} in ${seconds(ms)} ──\n`);
      results.set(step.name, { code: exit, ms, startedAt: stepStarted - started });
      done(exit);
    });
  });
}

/**
 * Whether each named step passed, once all have ended.
 * @param {string[]} names
 */
const ended = (names) => Promise.all(names.map((name) => finished.get(name) ?? Promise.resolve(false)));

/**
 * @param {Step} step
 * @returns {Promise<boolean>} whether it ran and passed
 */
async function schedule(step) {
  if ((await ended(step.after ?? [])).some((passed) => !passed)) {
    results.set(step.name, { code: null, ms: 0, startedAt: 0 });
    return false;
  }
  await ended(step.behind ?? []);
  return (await run(step)) === 0;
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

// Steps are listed after the steps they wait for, so each finds its prerequisites' promises.
for (const step of steps) finished.set(step.name, schedule(step));
await Promise.all(finished.values());

process.stdout.write('\n── npm test ──\n');
for (const step of steps) {
  const result = results.get(step.name);
  const verdict = !result || result.code === null ? 'not run' : result.code === 0 ? 'passed' : 'FAILED';
  const timing =
    result && result.code !== null ? `${seconds(result.ms)} (from ${seconds(result.startedAt)})` : '';
  process.stdout.write(`${step.name.padEnd(16)} ${verdict.padEnd(8)} ${timing}\n`);
}
const failed = steps.filter((step) => results.get(step.name)?.code !== 0);
process.stdout.write(
  `${failed.length === 0 ? 'all passed' : `${failed.length} step(s) failed or not run`} in ${seconds(Date.now() - started)}\n`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
