/**
 * `npm run bench [-- --only <name>]`: runs the benchmarks, prints a table per benchmark and a
 * summary (figure, target, met), and writes everything to `bench/results/latest.json`.
 * Benchmarks: pagination, traceTail, vscode (rendering, activation, bundle, todos tree), linearText,
 * pipelineGraph, ciConfig, reviewLarge, issues, traceLoading. See docs/performance.md for the method and the last results.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCiConfigBench } from './ciConfig.bench';
import { runIssuesBench } from './issues.bench';
import { runLinearTextBench } from './linearText.bench';
import { runPaginationBench } from './pagination.bench';
import { runPipelineGraphBench } from './pipelineGraph.bench';
import { runReviewLargeBench } from './reviewLarge.bench';
import { type BenchResult, type Benchmark, formatTable, yesNo } from './report';
import { runTraceLoadingBench } from './traceLoading.bench';
import { runTraceTailBench } from './traceTail.bench';
import { runVscodeBench } from './vscode.bench';

const BENCHMARKS: Benchmark[] = [
  { name: 'pagination', run: runPaginationBench },
  { name: 'traceTail', run: runTraceTailBench },
  { name: 'vscode', run: runVscodeBench },
  { name: 'linearText', run: runLinearTextBench },
  { name: 'pipelineGraph', run: runPipelineGraphBench },
  { name: 'ciConfig', run: runCiConfigBench },
  { name: 'reviewLarge', run: runReviewLargeBench },
  { name: 'issues', run: runIssuesBench },
  { name: 'traceLoading', run: runTraceLoadingBench },
];

const RESULTS_FILE = path.join(__dirname, 'results', 'latest.json');

function parseArguments(argv: readonly string[]): { only: string[] } {
  const only: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === '--only') {
      const value = argv[++index];
      if (value === undefined) throw new Error('--only needs a benchmark name');
      only.push(...value.split(','));
    } else if (argument?.startsWith('--only=')) {
      only.push(...argument.slice('--only='.length).split(','));
    } else {
      throw new Error(`unknown argument ${argument}; usage: npm run bench [-- --only <name>]`);
    }
  }
  const known = BENCHMARKS.map((benchmark) => benchmark.name);
  for (const name of only) {
    if (!known.includes(name)) throw new Error(`no benchmark "${name}"; there are: ${known.join(', ')}`);
  }
  return { only };
}

function machine(): Record<string, unknown> {
  const cpus = os.cpus();
  return {
    cpus: os.availableParallelism(),
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
  };
}

function print(result: BenchResult): void {
  for (const table of result.tables) {
    console.log(`\n### ${table.title}\n`);
    console.log(formatTable(table));
    for (const note of table.notes ?? []) console.log(`\n${note}`);
  }
}

async function main(): Promise<number> {
  const { only } = parseArguments(process.argv.slice(2));
  const selected = BENCHMARKS.filter((benchmark) => only.length === 0 || only.includes(benchmark.name));
  const before = machine();
  console.log(
    `Machine: ${String(before.cpus)} CPUs (${String(before.cpuModel)}), ${String(before.memoryGiB)} GiB, Node ${process.version}; load average ${(before.loadAverage as number[]).join(', ')}`,
  );
  const started = performance.now();
  const results: BenchResult[] = [];
  const failures: { name: string; error: string }[] = [];
  for (const benchmark of selected) {
    const benchStart = performance.now();
    console.log(`\n## ${benchmark.name}`);
    try {
      const result = await benchmark.run();
      results.push(result);
      print(result);
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push({ name: benchmark.name, error: message });
      console.error(`${benchmark.name} failed: ${message}`);
    }
    console.log(`\n(${benchmark.name}: ${((performance.now() - benchStart) / 1000).toFixed(1)} s)`);
  }

  const summary = results.flatMap((result) => result.summary);
  console.log('\n## Summary\n');
  console.log(
    formatTable({
      columns: ['Figure', 'Value', 'Target', 'Met'],
      rows: summary.map((row) => [row.figure, row.value, row.target, yesNo(row.met)]),
    }),
  );
  const totalSeconds = (performance.now() - started) / 1000;
  console.log(
    `\n${summary.filter((row) => row.met).length} of ${summary.length} targets met; ${failures.length} benchmark(s) failed; ${totalSeconds.toFixed(1)} s.`,
  );

  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: { ...before, loadAverageAfter: os.loadavg().map((value) => Math.round(value * 100) / 100) },
        totalSeconds,
        summary,
        failures,
        results,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`Results written to ${path.relative(process.cwd(), RESULTS_FILE)}`);
  // A target not met is a finding, not a failure of the run; a benchmark that could not run is.
  return failures.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
  },
);
