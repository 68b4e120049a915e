// Entry point of the host suites: mocha running INSIDE a real VS Code extension host.
// `run()` is the @vscode/test-electron convention (test/electron/run.ts); `runAndReport()` is what the
// runner extension (test/host/runner-extension) calls under code-server (test/host/run.ts), writing a
// JSON report the outside process reads. scripts/build-tests.mjs bundles this file and every
// test/host/**/*.test.ts into out/host/, so the compiled suites sit next to the compiled index.
import Mocha from 'mocha';
import { readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface HostTestResult {
  fullTitle: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: string;
}

export interface HostTestReport {
  /** Figures suites recorded with `recordMeasurement` (for docs/performance.md; never asserted). */
  measurements?: Record<string, number>;
  passes: number;
  failures: number;
  pending: number;
  durationMs: number;
  tests: HostTestResult[];
}

// Stack traces from the bundled suites point at the TypeScript sources.
process.setSourceMapsEnabled(true);

function compiledSuites(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...compiledSuites(path));
    else if (entry.name.endsWith('.test.js')) found.push(path);
  }
  return found.sort();
}

/** Shared through globalThis: each suite is its own bundle, so module state is not shared. */
const MEASUREMENTS_KEY = '__forgeHostMeasurements';

export function recordMeasurement(name: string, value: number): void {
  const store = globalThis as unknown as Record<string, Record<string, number> | undefined>;
  store[MEASUREMENTS_KEY] = { ...store[MEASUREMENTS_KEY], [name]: value };
}

function measurements(): Record<string, number> {
  return (
    (globalThis as unknown as Record<string, Record<string, number> | undefined>)[MEASUREMENTS_KEY] ?? {}
  );
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/** Runs every compiled suite next to this file; resolves with the report (never rejects on test failures). */
export async function runSuites(): Promise<HostTestReport> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 20_000, color: false, reporter: 'spec' });
  // `npm run test:host -- --grep jobs` runs only the matching tests.
  const grep = process.env['FORGE_HOST_GREP'];
  if (grep) mocha.grep(grep);
  for (const file of compiledSuites(__dirname)) mocha.addFile(file);
  const tests: HostTestResult[] = [];
  const started = Date.now();
  await new Promise<void>((done) => {
    const runner = mocha.run(() => done());
    runner.on('pass', (test: Mocha.Test) => {
      tests.push({ fullTitle: test.fullTitle(), state: 'passed', durationMs: test.duration ?? 0 });
    });
    runner.on('fail', (test: Mocha.Runnable, error: unknown) => {
      tests.push({
        fullTitle: test.fullTitle(),
        state: 'failed',
        durationMs: test.duration ?? 0,
        error: describeError(error),
      });
    });
    runner.on('pending', (test: Mocha.Test) => {
      tests.push({ fullTitle: test.fullTitle(), state: 'pending', durationMs: 0 });
    });
  });
  return {
    measurements: measurements(),
    passes: tests.filter((test) => test.state === 'passed').length,
    failures: tests.filter((test) => test.state === 'failed').length,
    pending: tests.filter((test) => test.state === 'pending').length,
    durationMs: Date.now() - started,
    tests,
  };
}

/** Writes the report in one step (temp file + rename), so a reader never sees half of it. */
export function writeReport(resultsFile: string, report: HostTestReport): void {
  const temporary = `${resultsFile}.part`;
  writeFileSync(temporary, JSON.stringify(report, null, 2));
  renameSync(temporary, resultsFile);
}

/** Runs the suites and writes the JSON report; an error outside the tests becomes a failed entry. */
export async function runAndReport(resultsFile: string): Promise<void> {
  let report: HostTestReport;
  try {
    report = await runSuites();
  } catch (error) {
    report = {
      passes: 0,
      failures: 1,
      pending: 0,
      durationMs: 0,
      tests: [{ fullTitle: 'host test runner', state: 'failed', durationMs: 0, error: describeError(error) }],
    };
  }
  writeReport(resultsFile, report);
}

/** The @vscode/test-electron entry point: rejects when any test failed or none ran. */
export async function run(): Promise<void> {
  const report = await runSuites();
  for (const test of report.tests) {
    if (test.state === 'failed') console.error(`✗ ${test.fullTitle}\n${test.error ?? ''}`);
  }
  if (report.failures > 0) throw new Error(`${report.failures} host test(s) failed.`);
  if (report.passes === 0) throw new Error('No host test ran.');
}
