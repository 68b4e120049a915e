/**
 * One fresh VS Code (code-server, like the host tests) running the host suites whose titles match
 * `grep` against a fake forge, for benchmarks that read what a suite measured (`recordMeasurement` in
 * test/host/index.ts). Needs `node esbuild.mjs` and `node scripts/build-tests.mjs` first.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type FakeForge, startFakeForge } from '../test/server';
import type { HostTestReport } from '../test/host/index';
import { waitUntil } from '../test/e2e/support';
import { type VscodeSession, startVscode } from '../test/vscode/harness';

const ROOT = path.resolve(__dirname, '..');

export interface HostSuiteRun {
  report: HostTestReport;
  /** When the suite wrote its report (epoch ms), to tell the forge's requests before and after. */
  reportedAt: number;
  forge: FakeForge;
}

/**
 * Runs the matching host suites in a fresh VS Code and hands the report (and the still running
 * forge) to `use`; a suite that failed or ran nothing throws.
 */
export async function runHostSuite<T>(
  options: { name: string; grep: string; extraExtensionDirs?: string[] },
  use: (run: HostSuiteRun) => Promise<T>,
): Promise<T> {
  const resultsDir = mkdtempSync(path.join(tmpdir(), `forge-bench-${options.name}-`));
  const resultsFile = path.join(resultsDir, 'report.json');
  const forge = await startFakeForge({ seed: 'small' });
  let vscode: VscodeSession | undefined;
  try {
    vscode = await startVscode({
      name: `bench-${options.name}`,
      extraExtensionDirs: [
        path.join(ROOT, 'test', 'host', 'runner-extension'),
        ...(options.extraExtensionDirs ?? []),
      ],
      env: {
        FORGE_HOST_TESTS: path.join(ROOT, 'out', 'host', 'index.js'),
        FORGE_HOST_RESULTS: resultsFile,
        FORGE_SERVER_URL: forge.url,
        FORGE_TOKEN: forge.userToken,
        FORGE_ADMIN_TOKEN: forge.adminToken,
        FORGE_HOST_GREP: options.grep,
      },
    });
    const session = vscode;
    await waitUntil(
      () => Promise.resolve(existsSync(resultsFile) || !session.isRunning()),
      180_000,
      `the report of the host suites matching "${options.grep}"`,
    );
    if (!existsSync(resultsFile)) throw new Error(`VS Code stopped before "${options.grep}" reported`);
    const reportedAt = statSync(resultsFile).mtimeMs;
    const report = JSON.parse(readFileSync(resultsFile, 'utf8')) as HostTestReport;
    if (report.failures > 0 || report.passes === 0)
      throw new Error(`the host suites matching "${options.grep}" failed: ${JSON.stringify(report.tests)}`);
    return await use({ report, reportedAt, forge });
  } finally {
    await vscode?.close();
    await forge.close();
    rmSync(resultsDir, { recursive: true, force: true });
  }
}
