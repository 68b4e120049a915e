// `npm run test:host`: builds the extension and the host suites, starts the fake forge and a real
// VS Code (code-server + headless Chromium) with the runner extension, waits for the suites' JSON
// report, prints it and exits non-zero on any failure or when no test ran.
// `--verbose` (or FORGE_VSCODE_VERBOSE=1) streams code-server's output; otherwise its tail is printed
// only when something goes wrong. VS Code's logs are kept in test-results/vscode-logs/host/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, startVscode, type VscodeSession } from '../vscode/harness';
import { type FakeForge, startFakeForge } from '../server';
import type { HostTestReport } from './index';

// The soak suite (FORGE_SOAK_MINUTES) runs that long on top of the usual suites.
const REPORT_TIMEOUT_MS = (5 + Number(process.env.FORGE_SOAK_MINUTES ?? 0)) * 60_000;
const verbose = process.argv.includes('--verbose') || process.env.FORGE_VSCODE_VERBOSE === '1';
const grepIndex = process.argv.indexOf('--grep');
const grep = grepIndex >= 0 ? process.argv[grepIndex + 1] : undefined;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function waitForReport(file: string, isAlive: () => boolean): Promise<HostTestReport> {
  const deadline = Date.now() + REPORT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as HostTestReport;
    if (!isAlive()) throw new Error('VS Code stopped before the host suites wrote their report.');
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`No report after ${REPORT_TIMEOUT_MS / 1000} s (is the runner extension active?).`);
}

async function main(): Promise<number> {
  const started = Date.now();
  // `--prebuilt`: `npm test` built both already (scripts/test.mjs).
  if (!process.argv.includes('--prebuilt')) {
    execFileSync(process.execPath, ['scripts/build-tests.mjs'], { cwd: repoRoot, stdio: 'inherit' });
    // `--production` tests the minified bundle users get (and measures its activation).
    const buildArgs = process.argv.includes('--production')
      ? ['esbuild.mjs', '--production']
      : ['esbuild.mjs'];
    execFileSync(process.execPath, buildArgs, { cwd: repoRoot, stdio: 'inherit' });
  }

  const resultsDir = mkdtempSync(join(tmpdir(), 'forge-host-results-'));
  const resultsFile = join(resultsDir, 'report.json');
  const output: string[] = [];
  const log = (line: string): void => {
    if (verbose) console.error(line);
    output.push(line);
    if (output.length > 200) output.shift();
  };

  let forge: FakeForge | undefined;
  let vscode: VscodeSession | undefined;
  try {
    forge = await startFakeForge({ seed: 'small' });
    const forgeUrl = forge.url;
    vscode = await startVscode({
      name: 'host',
      log,
      extraExtensionDirs: [join(repoRoot, 'test', 'host', 'runner-extension')],
      env: {
        FORGE_HOST_TESTS: join(repoRoot, 'out', 'host', 'index.js'),
        FORGE_HOST_RESULTS: resultsFile,
        FORGE_SERVER_URL: forgeUrl,
        FORGE_TOKEN: forge.userToken,
        FORGE_ADMIN_TOKEN: forge.adminToken,
        ...(grep ? { FORGE_HOST_GREP: grep } : {}),
      },
    });
    console.log(`VS Code ready after ${seconds(Date.now() - started)}; running the host suites…`);
    const session = vscode;
    const report = await waitForReport(resultsFile, () => session.isRunning());

    console.log('');
    for (const test of report.tests) {
      if (test.state === 'passed') console.log(`  ✓ ${test.fullTitle} (${test.durationMs} ms)`);
      else if (test.state === 'pending') console.log(`  - ${test.fullTitle} (pending)`);
      else console.log(`  ✗ ${test.fullTitle}\n${indent(test.error ?? '(no error text)')}`);
    }
    console.log('');
    console.log(
      `${report.passes} passing, ${report.failures} failing, ${report.pending} pending ` +
        `(suites ${seconds(report.durationMs)}, total ${seconds(Date.now() - started)})`,
    );
    for (const [name, value] of Object.entries(report.measurements ?? {})) {
      console.log(`  measured: ${name} = ${value.toFixed(1)}`);
    }
    if (report.failures > 0) return 1;
    if (report.passes === 0) {
      console.error('No host test ran.');
      return 1;
    }
    return 0;
  } catch (error) {
    console.error(`\nHost tests could not run: ${error instanceof Error ? error.message : String(error)}`);
    if (!verbose && output.length > 0)
      console.error(`\nLast VS Code output:\n${output.slice(-40).join('\n')}`);
    return 1;
  } finally {
    await vscode?.close();
    await forge?.close();
    rmSync(resultsDir, { recursive: true, force: true });
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
