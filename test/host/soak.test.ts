// Soak run (issue 8): ten running jobs tailed in the output panel and the trees refreshed every few
// seconds for FORGE_SOAK_MINUTES minutes, while a seeded random sequence of faults hits the fake
// forge's read routes and the jobs' traces keep growing. Registered only when FORGE_SOAK_MINUTES is
// set (`npm run soak` sets 10), so the normal host run neither runs nor counts it.
// Proves: no unhandled rejection or uncaught exception in the extension host, the tails keep
// producing text, faults were hit and retried, and the heap does not grow beyond noise.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import * as vscode from 'vscode';
import type { Job, Project } from '../../src/api/hosting';
import type { ForgeWorkbenchApi } from '../../src/extension';
import type { AccountInfo } from '../../src/platform/accounts';
import type { TraceTail } from '../../src/features/jobs';
import type { TreeNode } from '../../src/platform/tree/treeNode';
import { type Fault, type FakeForge, startFakeForge } from '../server';
import { Prng } from '../server/prng';
import { recordMeasurement } from './index';
import { workbenchApi } from './support';

const soakMinutes = Number(process.env['FORGE_SOAK_MINUTES'] ?? '0');

const TAILED_JOBS = 10;
const TAIL_INTERVALS = { minIntervalMs: 200, maxIntervalMs: 1000 };
/** Each job's trace ends at this size; the job is then started again, so traces stay bounded. */
const PLANNED_TRACE_CHARS = 160 * 1024;
const REFRESH_EVERY_MS = 3_000;
const FAULT_EVERY_MS = 1_500;
const MEMORY_EVERY_MS = 30_000;
/** Heap growth from the first sample (after warm-up) to the last that still counts as noise. */
const HEAP_NOISE_BYTES = 24 * 1024 * 1024;
const REFRESH_COMMANDS = ['forge.projects.refresh', 'forge.todos.refresh', 'forge.mergeRequests.refresh'];

/** Read routes the tails and trees use; every fault lands on one of them (reads are the ones retried). */
const FAULT_ROUTES = [
  '/projects/:id/jobs/:job_id/trace',
  '/projects/:id/jobs/:job_id',
  '/projects/:id/jobs',
  '/projects/:id/pipelines',
  '/projects/:id/merge_requests',
  '/projects/:id/repository/branches',
  '/projects/:id/events',
  '/projects',
  '/merge_requests',
  '/todos',
  '/user',
];

function randomFault(random: Prng): Fault {
  switch (random.int(0, 6)) {
    case 0:
      return { kind: 'status', status: 503 };
    case 1:
      return { kind: 'reset-before' };
    case 2:
      return { kind: 'reset-after' };
    case 3:
      return { kind: 'truncated', contentLength: random.pick(['full', 'cut', 'none'] as const) };
    case 4:
      return { kind: 'invalid-json' };
    case 5:
      return { kind: 'latency', ms: random.int(100, 1500) };
    default:
      return random.chance(0.5)
        ? { kind: 'rate-limited' }
        : { kind: 'rate-limited', retryAfter: { seconds: 1 } };
  }
}

/** `gc()` when the host was started with it, or made available through V8's flags; undefined otherwise. */
function findGc(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

interface MemorySample {
  atSeconds: number;
  heapUsed: number;
  rss: number;
}

function megabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

if (soakMinutes > 0) {
  describe('soak', function () {
    this.timeout((soakMinutes * 60 + 180) * 1000);
    let forge: FakeForge;
    let api: ForgeWorkbenchApi;
    let account: AccountInfo;
    const unhandled: string[] = [];
    const onUnhandledRejection = (reason: unknown): void => {
      unhandled.push(`unhandledRejection: ${reason instanceof Error ? reason.stack : String(reason)}`);
    };
    const onUncaughtException = (error: Error): void => {
      unhandled.push(`uncaughtException: ${error.stack ?? error.message}`);
    };
    const restoreLog: (() => void)[] = [];

    before(async () => {
      process.on('unhandledRejection', onUnhandledRejection);
      process.on('uncaughtException', onUncaughtException);
      // Slow, steady growth: 10 jobs × 2 KB/s; each job ends at PLANNED_TRACE_CHARS and is restarted.
      forge = await startFakeForge({ seed: 'small', traceGrowth: { intervalMs: 500, bytesPerStep: 1024 } });
      api = await workbenchApi();
      account = await api.accounts.add({
        serverUrl: forge.url,
        token: forge.userToken,
        tokenKind: 'private-token',
      });
    });

    after(async () => {
      process.off('unhandledRejection', onUnhandledRejection);
      process.off('uncaughtException', onUncaughtException);
      for (const restore of restoreLog) restore();
      forge?.faults.clear();
      api?.traceTails.stopAll();
      for (const added of api?.accounts.list().filter((candidate) => candidate.serverUrl === forge.url) ??
        []) {
        await api.accounts.remove(added.id);
      }
      await forge?.close();
    });

    /** Counts the log lines matching `pattern` written through `level`, leaving the lines as they were. */
    function countLog(
      level: 'trace' | 'warn' | 'error',
      pattern: RegExp,
      counter: { count: number; sample: string[] },
    ): void {
      const log = api.log;
      const original = log[level].bind(log);
      log[level] = (message: string | Error, ...args: unknown[]): void => {
        const text = message instanceof Error ? message.message : message;
        if (pattern.test(text)) {
          counter.count += 1;
          if (counter.sample.length < 8) counter.sample.push(text.slice(0, 200));
        }
        original(message as string, ...args);
      };
      restoreLog.push(() => {
        log[level] = original;
      });
    }

    it(`tails ${TAILED_JOBS} running jobs and refreshes the trees for ${soakMinutes} min under random faults`, async () => {
      const random = new Prng(`soak/${soakMinutes}`);
      const retries = { count: 0, sample: [] as string[] };
      const errorsShown = { count: 0, sample: [] as string[] };
      const tailWarnings = { count: 0, sample: [] as string[] };
      countLog('trace', /; retry \d+ in \d+ ms/, retries);
      countLog('error', /./, errorsShown);
      countLog('warn', /^Tail of /, tailWarnings);

      const client = await api.accounts.client(account.id);
      const web = forge.fixtures.projects.web;
      const project: Project = await client.getProject(web);
      const jobIds = [...forge.state.jobs.values()]
        .filter((job) => job.projectId === web)
        .slice(0, TAILED_JOBS)
        .map((job) => job.id);
      assert.equal(jobIds.length, TAILED_JOBS);

      const tails = new Map<number, TraceTail>();
      let tailsStarted = 0;
      let tailsEndedByJob = 0;
      let tailsStoppedByError = 0;
      let charsTailed = 0;
      async function startTail(jobId: number): Promise<void> {
        forge.state.startRunningJob(jobId, { plannedChars: PLANNED_TRACE_CHARS });
        const job: Job = await client.getJob(project.id, jobId);
        const tail = await vscode.commands.executeCommand<TraceTail | undefined>(
          'forge.job.tailTrace',
          { kind: 'forge.jobRef', accountId: account.id, project, job },
          TAIL_INTERVALS,
        );
        assert.ok(tail, `tailing job ${jobId}`);
        tails.set(jobId, tail);
        tailsStarted += 1;
      }
      for (const jobId of jobIds) await startTail(jobId);

      // Trees: the refresh commands, then every provider walked as an expanded view would ask it.
      let treeWalks = 0;
      let treeItems = 0;
      let errorRowsSeen = 0;
      async function walk(
        provider: vscode.TreeDataProvider<TreeNode>,
        node: TreeNode | undefined,
        depth: number,
      ): Promise<void> {
        const children = (await provider.getChildren(node)) ?? [];
        for (const child of children.slice(0, 12)) {
          const item = await provider.getTreeItem(child);
          treeItems += 1;
          if (item.contextValue?.startsWith('error')) {
            errorRowsSeen += 1;
            // What a person does with an error row: click it to retry.
            if (item.command)
              await vscode.commands.executeCommand(
                item.command.command,
                ...((item.command.arguments ?? []) as unknown[]),
              );
            continue;
          }
          if (depth < 3 && item.collapsibleState !== vscode.TreeItemCollapsibleState.None)
            await walk(provider, child, depth + 1);
        }
      }
      async function refreshTrees(): Promise<void> {
        for (const command of REFRESH_COMMANDS) await vscode.commands.executeCommand(command);
        for (const id of ['forge.projects', 'forge.todos', 'forge.mergeRequests'] as const) {
          await walk(api.treeProviders[id], undefined, 0);
        }
        treeWalks += 1;
      }

      const gc = findGc();
      const samples: MemorySample[] = [];
      const started = Date.now();
      // FORGE_SOAK_SNAPSHOTS=<folder>: heap snapshots at the second sample and the last, to compare.
      const snapshotFolder = process.env['FORGE_SOAK_SNAPSHOTS'];
      function sampleMemory(last = false): void {
        gc?.();
        if (snapshotFolder && (samples.length === 1 || last)) {
          mkdirSync(snapshotFolder, { recursive: true });
          v8.writeHeapSnapshot(join(snapshotFolder, `soak-${samples.length}.heapsnapshot`));
          gc?.();
        }
        const usage = process.memoryUsage();
        samples.push({
          atSeconds: Math.round((Date.now() - started) / 1000),
          heapUsed: usage.heapUsed,
          rss: usage.rss,
        });
      }

      const faultsByKind = new Map<string, number>();
      let requests = 0;
      let faultedRequests = 0;
      function drainRequestLog(): void {
        requests += forge.requests.length;
        for (const request of forge.requests) {
          if (!request.fault) continue;
          faultedRequests += 1;
          const kind = request.fault.replace(/ \d+ ms$/, '');
          faultsByKind.set(kind, (faultsByKind.get(kind) ?? 0) + 1);
        }
        // The log would otherwise grow for the whole run and be counted as the extension's memory.
        forge.clearRequests();
      }

      const deadline = started + soakMinutes * 60_000;
      let nextRefresh = 0;
      let nextFault = 0;
      let nextMemory = Date.now() + Math.min(MEMORY_EVERY_MS, (soakMinutes * 60_000) / 4);
      let faultsAdded = 0;
      let refreshFailures = 0;
      while (Date.now() < deadline) {
        const now = Date.now();
        if (now >= nextFault) {
          nextFault = now + FAULT_EVERY_MS;
          if (faultsAdded % 20 === 0) forge.faults.clear(); // spent rules are dropped now and then
          forge.faults.add({
            method: 'GET',
            path: random.pick(FAULT_ROUTES),
            times: random.int(1, 3),
            fault: randomFault(random),
          });
          faultsAdded += 1;
        }
        if (now >= nextRefresh) {
          nextRefresh = now + REFRESH_EVERY_MS;
          // A failed walk is what the user would see as an error row; the soak counts it and goes on.
          await refreshTrees().catch(() => {
            refreshFailures += 1;
          });
        }
        for (const [jobId, tail] of tails) {
          if (tail.isActive) continue;
          charsTailed += tail.appendedChars;
          if (/ ended: /.test(tail.endedWith ?? '')) tailsEndedByJob += 1;
          else tailsStoppedByError += 1;
          tails.delete(jobId);
          await startTail(jobId).catch(() => undefined); // tried again on the next turn
        }
        for (const jobId of jobIds) if (!tails.has(jobId)) await startTail(jobId).catch(() => undefined);
        if (now >= nextMemory) {
          nextMemory = now + MEMORY_EVERY_MS;
          drainRequestLog();
          sampleMemory();
        }
        await new Promise((done) => setTimeout(done, 250));
      }
      forge.faults.clear();
      // Let retries in flight settle before the last sample.
      await new Promise((done) => setTimeout(done, 3_000));
      for (const tail of tails.values()) charsTailed += tail.appendedChars;
      drainRequestLog();
      sampleMemory(true);

      const first = samples[0];
      const last = samples[samples.length - 1];
      assert.ok(first && last && samples.length >= 2);
      const heapGrowth = last.heapUsed - first.heapUsed;
      const summary = {
        minutes: soakMinutes,
        gcForced: gc !== undefined,
        requests,
        faultedRequests,
        faultsAdded,
        faultsByKind: Object.fromEntries([...faultsByKind].sort()),
        retriesLogged: retries.count,
        errorsShown: errorsShown.count,
        errorSamples: errorsShown.sample,
        errorRowsSeen,
        refreshFailures,
        tailWarnings: tailWarnings.count,
        tailWarningSamples: tailWarnings.sample,
        tailsStarted,
        tailsEndedByJob,
        tailsStoppedByError,
        charsTailed,
        treeWalks,
        treeItems,
        unhandled: unhandled.length,
        heapStartMB: megabytes(first.heapUsed),
        heapEndMB: megabytes(last.heapUsed),
        heapMaxMB: megabytes(Math.max(...samples.map((sample) => sample.heapUsed))),
        rssStartMB: megabytes(first.rss),
        rssEndMB: megabytes(last.rss),
        samples: samples.map((sample) => `${sample.atSeconds}s:${megabytes(sample.heapUsed)}`).join(' '),
        // Each open document is mirrored in this heap, output channels' included.
        documentsAtEnd: vscode.workspace.textDocuments.map((document) => document.uri.toString()),
      };
      // out/host/soak.test.js -> test-results/soak.json, for docs/security.md.
      const resultsDir = join(__dirname, '..', '..', 'test-results');
      mkdirSync(resultsDir, { recursive: true });
      writeFileSync(join(resultsDir, 'soak.json'), `${JSON.stringify(summary, null, 2)}\n`);
      recordMeasurement('soak: requests', requests);
      recordMeasurement('soak: requests hit by a fault', faultedRequests);
      recordMeasurement('soak: retries logged', retries.count);
      recordMeasurement('soak: errors shown (notifications)', errorsShown.count);
      recordMeasurement('soak: error rows seen in the trees', errorRowsSeen);
      recordMeasurement('soak: tails started', tailsStarted);
      recordMeasurement('soak: tails ended with their job', tailsEndedByJob);
      recordMeasurement('soak: tails stopped by an error', tailsStoppedByError);
      recordMeasurement('soak: characters tailed', charsTailed);
      recordMeasurement('soak: tree walks', treeWalks);
      recordMeasurement('soak: unhandled errors', unhandled.length);
      recordMeasurement(
        `soak: heap at start, MB (gc forced: ${gc ? 'yes' : 'no'})`,
        first.heapUsed / 2 ** 20,
      );
      recordMeasurement('soak: heap at end, MB', last.heapUsed / 2 ** 20);
      recordMeasurement('soak: rss at start, MB', first.rss / 2 ** 20);
      recordMeasurement('soak: rss at end, MB', last.rss / 2 ** 20);

      assert.deepEqual(unhandled, [], 'no unhandled rejection or uncaught exception');
      assert.ok(faultedRequests > 0 && retries.count > 0, 'faults were hit and reads retried');
      assert.ok(charsTailed > 0 && treeWalks > 0, 'the tails and the trees kept working');
      assert.ok(
        heapGrowth < HEAP_NOISE_BYTES,
        `heap grew by ${megabytes(heapGrowth)} MB (${summary.samples})`,
      );
    });
  });
}
