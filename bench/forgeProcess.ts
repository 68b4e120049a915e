/**
 * The fake forge (large seed) in a child process of its own, so that the server's CPU does not share
 * a thread with the client being measured, as with a real server on another machine. The parent talks
 * to it over the IPC channel: `forkForge()` starts it and returns a handle; run directly (by `fork`),
 * this file starts the server and answers the parent's messages.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { startFakeForge } from '../test/server/index';

export interface ForgeInfo {
  url: string;
  adminToken: string;
  monorepoId: number;
}

/** What the server saw since the last `reset`. */
export interface ForgeStats {
  requests: number;
  /** `GET /api/v4/...` paths with their query, in arrival order. */
  paths: string[];
  /** Time spent serving requests (routing, handler, serialising, writing), injected latency excluded. */
  serverMs: number;
  /** CPU time of the server process (user + system, all threads, timers and GC included). */
  serverCpuMs: number;
  /** Time its event loop was busy (not waiting for I/O or timers): all of its one thread's work. */
  serverBusyMs: number;
  /** Garbage collection in the server (V8 runs most of it as tasks between handlers, not inside them). */
  serverGcMs: number;
}

type Question = { kind: 'latency'; ms: number } | { kind: 'reset' } | { kind: 'stats' } | { kind: 'close' };
type ParentMessage = Question & { id: number };

type ChildMessage =
  | { kind: 'ready'; info: ForgeInfo }
  | { kind: 'reply'; id: number; stats?: ForgeStats }
  | { kind: 'failed'; message: string };

export interface ForgeHandle {
  info: ForgeInfo;
  setLatency(ms: number): Promise<void>;
  /** Forgets requests and server time seen so far. */
  reset(): Promise<void>;
  stats(): Promise<ForgeStats>;
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;
const REPLY_TIMEOUT_MS = 30_000;

export async function forkForge(
  latencyMs: number,
  options: { issuesAssignedToAdmin?: number } = {},
): Promise<ForgeHandle> {
  // The parent runs under tsx; its exec arguments carry the loader, so the child can load TypeScript.
  const extra = options.issuesAssignedToAdmin ? ['--issues', String(options.issuesAssignedToAdmin)] : [];
  const child = fork(__filename, ['--child', String(latencyMs), ...extra], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const info = await new Promise<ForgeInfo>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('the fake forge did not start in time'));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the fake forge exited with ${code ?? 'a signal'} before it was ready`));
    });
    child.once('message', (message: ChildMessage) => {
      clearTimeout(timer);
      if (message.kind === 'ready') resolve(message.info);
      else reject(new Error(message.kind === 'failed' ? message.message : 'unexpected message'));
    });
  });
  child.removeAllListeners('exit');
  return new ForgeProcessHandle(child, info);
}

class ForgeProcessHandle implements ForgeHandle {
  private nextId = 1;
  private readonly waiting = new Map<number, (stats: ForgeStats | undefined) => void>();

  constructor(
    private readonly child: ChildProcess,
    readonly info: ForgeInfo,
  ) {
    child.on('message', (message: ChildMessage) => {
      if (message.kind !== 'reply') return;
      const resolve = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      resolve?.(message.stats);
    });
  }

  private ask(message: Question): Promise<ForgeStats | undefined> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`the fake forge did not answer "${message.kind}"`));
      }, REPLY_TIMEOUT_MS);
      this.waiting.set(id, (stats) => {
        clearTimeout(timer);
        resolve(stats);
      });
      this.child.send({ ...message, id });
    });
  }

  async setLatency(ms: number): Promise<void> {
    await this.ask({ kind: 'latency', ms });
  }

  async reset(): Promise<void> {
    await this.ask({ kind: 'reset' });
  }

  async stats(): Promise<ForgeStats> {
    const stats = await this.ask({ kind: 'stats' });
    if (!stats) throw new Error('the fake forge sent no statistics');
    return stats;
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => {
      if (this.child.exitCode !== null) resolve();
      else this.child.once('exit', () => resolve());
    });
    try {
      await this.ask({ kind: 'close' });
    } catch {
      this.child.kill();
    }
    await exited;
  }
}

// ---- the child ----------------------------------------------------------------------------------

/** `count` issues across the seed's projects, assigned to the administrator, one in ten closed. */
function plantIssues(forge: Awaited<ReturnType<typeof startFakeForge>>, count: number): void {
  const { state } = forge;
  const projects = [...state.projects.values()];
  const admin = forge.users.admin.id;
  // Each project's next iid, counted here: asking the state for each would read every issue each time.
  const nextIids = new Map<number, number>();
  for (let index = 0; index < count; index++) {
    const project = projects[index % projects.length];
    if (!project) break;
    const id = state.nextId('issue');
    const iid = nextIids.get(project.id) ?? state.nextIid(project.id, state.issues.values());
    nextIids.set(project.id, iid + 1);
    const at = new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString();
    state.issues.set(id, {
      id,
      iid,
      projectId: project.id,
      title: `Issue ${index + 1}: something to do`,
      description: `- [ ] first step\n- [x] second step\n\nIssue number ${index + 1}.`,
      state: index % 10 === 9 ? 'closed' : 'opened',
      authorId: admin,
      assigneeId: admin,
      labels: index % 3 === 0 ? ['bug'] : ['feature'],
      milestoneId: null,
      confidential: false,
      createdAt: at,
      updatedAt: at,
    });
  }
}

async function runChild(latencyMs: number, issues: number): Promise<void> {
  const forge = await startFakeForge({ seed: 'large', latencyMs });
  const monorepoId = forge.fixtures.projects.monorepo;
  if (monorepoId === undefined) throw new Error('the large seed has no monorepo');
  if (issues > 0) plantIssues(forge, issues);
  let serverMs = 0;
  let cpuStart = process.cpuUsage();
  let loopStart = performance.eventLoopUtilization();
  let gcMs = 0;
  new PerformanceObserver((entries) => {
    for (const entry of entries.getEntries()) gcMs += entry.duration;
  }).observe({ entryTypes: ['gc'] });
  forge.onRequest((_req, res) => {
    // Called after the injected latency, before routing: from here to the last byte is server time.
    const start = performance.now();
    res.once('finish', () => {
      serverMs += performance.now() - start;
    });
    return false;
  });
  const send = (message: ChildMessage): void => {
    process.send?.(message);
  };
  process.on('message', (message: ParentMessage) => {
    switch (message.kind) {
      case 'latency':
        forge.setLatency(message.ms);
        send({ kind: 'reply', id: message.id });
        break;
      case 'reset':
        forge.clearRequests();
        serverMs = 0;
        gcMs = 0;
        cpuStart = process.cpuUsage();
        loopStart = performance.eventLoopUtilization();
        send({ kind: 'reply', id: message.id });
        break;
      case 'stats': {
        // Read before the paths are built, so that building them is not counted.
        const serverBusyMs = performance.eventLoopUtilization(loopStart).active;
        const serverCpuMs = cpuMs(process.cpuUsage(cpuStart));
        send({
          kind: 'reply',
          id: message.id,
          stats: {
            requests: forge.requests.length,
            paths: forge.requests.map((request) => {
              const query = new URLSearchParams();
              for (const [key, value] of Object.entries(request.query)) {
                for (const item of Array.isArray(value) ? value : [value]) query.append(key, item);
              }
              return `${request.method} ${request.path}?${query.toString()}`;
            }),
            serverMs,
            serverCpuMs,
            serverBusyMs,
            serverGcMs: gcMs,
          },
        });
        break;
      }
      case 'close':
        void forge.close().then(() => {
          send({ kind: 'reply', id: message.id });
          process.disconnect();
        });
        break;
    }
  });
  // Never outlive the parent.
  process.on('disconnect', () => {
    void forge.close().finally(() => process.exit(0));
  });
  send({ kind: 'ready', info: { url: forge.url, adminToken: forge.adminToken, monorepoId } });
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

if (process.argv[2] === '--child') {
  const issues = process.argv[4] === '--issues' ? Number(process.argv[5] ?? 0) : 0;
  runChild(Number(process.argv[3] ?? 0), issues).catch((error: unknown) => {
    process.send?.({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  });
}
