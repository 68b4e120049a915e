/**
 * Listing through pagination: every job of acme/monorepo and every project the administrator sees,
 * `per_page` 100, from the fake forge (large seed, in a process of its own) with 25 ms of latency
 * injected into every request. Our client against `@gitbeaker/rest` on the same server in the same
 * run, against the lower bound: round trips needed ÷ concurrency × latency + server time, where the
 * concurrency is our client's default page window (`DEFAULT_PAGE_CONCURRENCY`), and against a client
 * that only reads, the floor any client reaches on this server.
 */
import { Gitlab } from '@gitbeaker/rest';
import { Agent, request } from 'undici';
import { HostingClient } from '../src/api/hosting';
import { DEFAULT_PAGE_CONCURRENCY } from '../src/api/http';
import { type ForgeHandle, forkForge } from './forgeProcess';
import {
  type BenchResult,
  type SummaryRow,
  type Table,
  Deadline,
  cpuMsSince,
  median,
  ms,
  ratio,
  yesNo,
} from './report';

const LATENCY_MS = 25;
const PER_PAGE = 100;
/** Measured runs of each client on each list (after one warm-up run that is not counted). */
const RUNS = 9;
/** Informational: our client with a larger page window, through its public `concurrency` option. */
const WIDER_CONCURRENCY = 2 * DEFAULT_PAGE_CONCURRENCY;
const BUDGET_MS = 90_000;
const TARGET_VS_GITBEAKER = 3;
const TARGET_VS_BOUND = 1.3;
/** What our client's own work may add to the floor of the server it lists from. */
const TARGET_VS_FLOOR = 1.1;

type Side =
  | 'ours'
  | 'ours, first listing'
  | `ours, concurrency ${number}`
  | '@gitbeaker/rest'
  | 'a client that only reads';
/** Our client reading a list for the first time: a new client each run, so it has no page-count hint. */
const FIRST_LISTING: Side = 'ours, first listing';
/**
 * The floor any client reaches on this server: our window of pages over the page count it already
 * knows, each body read as bytes and dropped (no decoding, parsing or checking).
 */
const READS_ONLY: Side = 'a client that only reads';
type ListName = 'jobs' | 'projects' | 'todos';

interface Run {
  side: Side;
  /** Which round of the measured runs (runs of one round are back to back); -1 for the warm-up. */
  round: number;
  list: ListName;
  wallMs: number;
  requests: number;
  /** Sum of the server's per-request service times (latency excluded). */
  serverMs: number;
  /** CPU of the server process over the run. */
  serverCpuMs: number;
  /** Time the server's event loop was busy over the run. */
  serverBusyMs: number;
  /** The server's garbage collection over the run. */
  serverGcMs: number;
  /** CPU of this (the client's) process over the run. */
  clientCpuMs: number;
  /** From the start to the first item in hand (ours only; what a view can show first). */
  firstItemMs: number;
  ids: number[];
}

interface ListSpec {
  name: ListName;
  label: string;
  ours: (client: HostingClient, concurrency: number | undefined) => AsyncIterable<{ id: number }>;
  gitbeaker: (api: InstanceType<typeof Gitlab>) => Promise<{ id: number }[]>;
  /** The list's path and query, without `page` (for the client that only reads). */
  path: string;
}

export async function runPaginationBench(): Promise<BenchResult> {
  const deadline = new Deadline('pagination', BUDGET_MS);
  const forge = await forkForge(LATENCY_MS);
  const { url, adminToken, monorepoId } = forge.info;
  const client = HostingClient.create({
    baseUrl: url,
    credentials: { kind: 'private-token', token: adminToken },
  });
  const readsOnlyAgent = new Agent({ connections: DEFAULT_PAGE_CONCURRENCY });
  try {
    const lists: ListSpec[] = [
      {
        name: 'jobs',
        label: 'jobs of acme/monorepo',
        ours: (ours, concurrency) => ours.listJobs(monorepoId).all({ perPage: PER_PAGE, concurrency }),
        gitbeaker: (api) => api.Jobs.all(monorepoId, { perPage: PER_PAGE, pagination: 'offset' }),
        path: `/api/v4/projects/${monorepoId}/jobs?per_page=${PER_PAGE}`,
      },
      {
        name: 'projects',
        label: 'projects (administrator)',
        ours: (ours, concurrency) => ours.listProjects().all({ perPage: PER_PAGE, concurrency }),
        gitbeaker: (api) => api.Projects.all({ perPage: PER_PAGE, pagination: 'offset' }),
        path: `/api/v4/projects?per_page=${PER_PAGE}`,
      },
    ];
    // Informational only, one run: a list over 10,000 rows, for which servers send no totals.
    const todos: ListSpec = {
      name: 'todos',
      label: 'todos (administrator), no X-Total',
      ours: (ours, concurrency) => ours.listTodos().all({ perPage: PER_PAGE, concurrency }),
      gitbeaker: (api) => api.TodoLists.all({ perPage: PER_PAGE, pagination: 'offset' }),
      path: `/api/v4/todos?per_page=${PER_PAGE}`,
    };
    const readOnly = async (list: ListSpec): Promise<void> => {
      const pages = headers.get(list.name)?.totalPages ?? 1;
      let next = 1;
      const worker = async (): Promise<void> => {
        while (next <= pages) {
          const page = next++;
          const response = await request(`${url}${list.path}&page=${page}`, {
            headers: { 'private-token': adminToken },
            dispatcher: readsOnlyAgent,
          });
          for await (const _chunk of response.body) {
            // Read and dropped.
          }
          if (response.statusCode !== 200)
            throw new Error(`${list.path} page ${page}: ${response.statusCode}`);
        }
      };
      await Promise.all(Array.from({ length: DEFAULT_PAGE_CONCURRENCY }, worker));
    };

    const measure = async (side: Side, list: ListSpec, round: number, concurrency?: number): Promise<Run> => {
      // A fresh instance per run: gitbeaker's rate limiters (600 job list requests a minute) start empty.
      const api = new Gitlab({ host: url, token: adminToken });
      await forge.reset();
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      let ids: number[];
      let firstItemMs = Number.NaN;
      if (side === '@gitbeaker/rest') {
        ids = (await list.gitbeaker(api)).map((item) => item.id);
      } else if (side === READS_ONLY) {
        await readOnly(list);
        ids = [];
      } else {
        ids = [];
        const fresh =
          side === FIRST_LISTING
            ? HostingClient.create({
                baseUrl: url,
                credentials: { kind: 'private-token', token: adminToken },
              })
            : undefined;
        try {
          for await (const item of list.ours(fresh ?? client, concurrency)) {
            if (ids.length === 0) firstItemMs = performance.now() - start;
            ids.push(item.id);
          }
        } finally {
          await fresh?.close();
        }
      }
      const wallMs = performance.now() - start;
      const clientCpuMs = cpuMsSince(cpuStart);
      const stats = await forge.stats();
      return {
        side,
        round,
        list: list.name,
        wallMs,
        requests: stats.requests,
        serverMs: stats.serverMs,
        serverCpuMs: stats.serverCpuMs,
        serverBusyMs: stats.serverBusyMs,
        serverGcMs: stats.serverGcMs,
        clientCpuMs,
        firstItemMs,
        ids,
      };
    };

    // What the server says about these lists on their first page.
    const headers = new Map<ListName, { total: number | undefined; totalPages: number | undefined }>();
    headers.set('jobs', await firstPageTotals(() => client.listJobs(monorepoId).page({ perPage: PER_PAGE })));
    headers.set('projects', await firstPageTotals(() => client.listProjects().page({ perPage: PER_PAGE })));
    headers.set('todos', await firstPageTotals(() => client.listTodos().page({ perPage: PER_PAGE })));

    // Warm-up (JIT, connections) on both sides of the wire; not counted.
    for (const list of lists) {
      await measure('ours', list, -1);
      await measure('@gitbeaker/rest', list, -1);
      await measure(READS_ONLY, list, -1);
    }

    const runs: Run[] = [];
    const wider: Side = `ours, concurrency ${WIDER_CONCURRENCY}`;
    let rounds = 0;
    for (let index = 0; index < RUNS; index++) {
      // Out of time (a busy machine): report the rounds done rather than run on.
      if (index > 0 && deadline.expired) break;
      rounds++;
      for (const list of lists) {
        // Alternate who goes first, so that neither side always runs on a warmer or quieter machine;
        // ours and the client that only reads back to back, as their ratio is the closest one.
        const order: Side[] =
          index % 2 === 0 ? ['ours', READS_ONLY, '@gitbeaker/rest'] : ['@gitbeaker/rest', READS_ONLY, 'ours'];
        for (const side of order) runs.push(await measure(side, list, index));
        runs.push(await measure(wider, list, index, WIDER_CONCURRENCY));
        runs.push(await measure(FIRST_LISTING, list, index));
      }
    }
    const reported = [...lists];
    if (!deadline.expired) {
      runs.push(await measure('ours', todos, 0));
      runs.push(await measure('@gitbeaker/rest', todos, 0));
      reported.push(todos);
    }
    return report(reported, runs, rounds, headers, forge);
  } finally {
    await client.close();
    await readsOnlyAgent.close();
    await forge.close();
  }
}

async function firstPageTotals(
  load: () => Promise<{ total: number | undefined; totalPages: number | undefined }>,
): Promise<{ total: number | undefined; totalPages: number | undefined }> {
  const page = await load();
  return { total: page.total, totalPages: page.totalPages };
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}

function report(
  lists: ListSpec[],
  runs: Run[],
  rounds: number,
  headers: Map<ListName, { total: number | undefined; totalPages: number | undefined }>,
  forge: ForgeHandle,
): BenchResult {
  const summary: SummaryRow[] = [];
  const tables: Table[] = [];
  const data: Record<string, unknown> = {
    latencyMs: LATENCY_MS,
    perPage: PER_PAGE,
    rounds,
    concurrency: DEFAULT_PAGE_CONCURRENCY,
    server: forge.info.url,
    lists: {},
  };
  const rows: string[][] = [];
  const notes: string[] = [];

  for (const list of lists) {
    const listRuns = runs.filter((run) => run.list === list.name);
    const reference = listRuns.find((run) => run.side === 'ours')?.ids ?? [];
    const totals = headers.get(list.name);
    const expectedCount = totals?.total;
    const pagesNeeded = Math.max(1, Math.ceil(reference.length / PER_PAGE));
    const sameOrder = listRuns
      .filter((run) => run.side !== READS_ONLY)
      .every((run) => sameIds(run.ids, reference));
    const unique = new Set(reference).size === reference.length;
    const complete = expectedCount === undefined || expectedCount === reference.length;
    const itemsOk = sameOrder && unique && complete && reference.length > 0;

    const bySide = (side: Side): Run[] => listRuns.filter((run) => run.side === side);
    const sides = [...new Set(listRuns.map((run) => run.side))];
    // Server time from the sequential client's runs: its requests never overlap, so the per-request
    // service times add up without counting queueing.
    const sequential = bySide('@gitbeaker/rest');
    const roundTrips = Math.ceil(pagesNeeded / DEFAULT_PAGE_CONCURRENCY);
    const boundOf = (run: Run): number => roundTrips * LATENCY_MS + run.serverMs;
    const serverMs = median(sequential.map((run) => run.serverMs));
    const boundMs = median(sequential.map(boundOf));
    // Ratios are taken within a round (runs back to back, under the same load on a shared machine),
    // then the median over the rounds.
    const paired = (side: Side, figure: (run: Run, gitbeaker: Run) => number): number =>
      median(
        bySide(side).flatMap((run) => {
          const gitbeaker = sequential.find((other) => other.round === run.round);
          return gitbeaker ? [figure(run, gitbeaker)] : [];
        }),
      );
    const vsGitbeakerOf = (side: Side): number =>
      paired(side, (run, gitbeaker) => gitbeaker.wallMs / run.wallMs);
    const vsBoundOf = (side: Side): number =>
      paired(side, (run, gitbeaker) => run.wallMs / boundOf(gitbeaker));
    const oursMs = median(bySide('ours').map((run) => run.wallMs));
    const gitbeakerMs = median(sequential.map((run) => run.wallMs));
    const vsGitbeaker = vsGitbeakerOf('ours');
    const vsBound = vsBoundOf('ours');
    const floorOf = (run: Run): Run | undefined =>
      bySide(READS_ONLY).find((other) => other.round === run.round);
    const vsFloor = median(
      bySide('ours').flatMap((run) => {
        const floor = floorOf(run);
        return floor ? [run.wallMs / floor.wallMs] : [];
      }),
    );
    const hasFloor = bySide(READS_ONLY).length > 0;
    const counted = list.name !== 'todos';

    for (const side of sides) {
      const sideRuns = bySide(side);
      const wall = median(sideRuns.map((run) => run.wallMs));
      rows.push([
        list.label,
        side,
        side === READS_ONLY ? '(not read)' : String(sideRuns[0]?.ids.length ?? 0),
        `${median(sideRuns.map((run) => run.requests))}`,
        `${ms(wall)}${sideRuns.length > 1 ? ` (${sideRuns.map((run) => run.wallMs.toFixed(0)).join(', ')})` : ''}`,
        ms(median(sideRuns.map((run) => run.clientCpuMs))),
        ms(median(sideRuns.map((run) => run.serverMs))),
        ms(median(sideRuns.map((run) => run.serverCpuMs))),
        ms(median(sideRuns.map((run) => run.serverBusyMs))),
        ms(median(sideRuns.map((run) => run.serverGcMs))),
        ratio(vsGitbeakerOf(side)),
        ratio(vsBoundOf(side)),
      ]);
    }
    rows.push([
      list.label,
      `bound: ⌈${pagesNeeded} pages ÷ ${DEFAULT_PAGE_CONCURRENCY}⌉ × ${LATENCY_MS} ms + server time`,
      String(reference.length),
      String(pagesNeeded),
      ms(boundMs),
      '',
      ms(serverMs),
      '',
      '',
      '',
      ratio(paired('@gitbeaker/rest', (gitbeaker) => gitbeaker.wallMs / boundOf(gitbeaker))),
      ratio(1),
    ]);
    notes.push(
      `${list.label}: X-Total ${totals?.total ?? 'not sent'}, X-Total-Pages ${totals?.totalPages ?? 'not sent'}; ` +
        `same ids in the same order on every run of every client: ${yesNo(sameOrder)}` +
        `${unique ? '' : ' (duplicates!)'}${complete ? '' : ` (expected ${expectedCount})`}.` +
        ` Ours: the first item after ${ms(median(bySide('ours').map((run) => run.firstItemMs)))}.` +
        ` Ours ÷ (${LATENCY_MS} ms + the server's busy time in the same run): ` +
        `${ratio(median(bySide('ours').map((run) => run.wallMs / (LATENCY_MS + run.serverBusyMs))))}.` +
        (hasFloor ? ` Ours ÷ the client that only reads: ${ratio(vsFloor)}.` : ''),
    );

    if (counted) {
      summary.push(
        {
          figure: `${list.label}: @gitbeaker/rest time ÷ ours`,
          value: ratio(vsGitbeaker),
          target: `≥ ${TARGET_VS_GITBEAKER}×`,
          met: vsGitbeaker >= TARGET_VS_GITBEAKER,
        },
        {
          figure: `${list.label}: ours ÷ lower bound`,
          value: ratio(vsBound),
          target: `≤ ${TARGET_VS_BOUND}×`,
          met: vsBound <= TARGET_VS_BOUND,
        },
        {
          figure: `${list.label}: ours ÷ a client that only reads`,
          value: ratio(vsFloor),
          target: `≤ ${TARGET_VS_FLOOR}×`,
          met: vsFloor <= TARGET_VS_FLOOR,
        },
        {
          figure: `${list.label}: same items in the same order`,
          value: yesNo(itemsOk),
          target: 'yes',
          met: itemsOk,
        },
      );
    }
    (data.lists as Record<string, unknown>)[list.name] = {
      label: list.label,
      items: reference.length,
      xTotal: totals?.total ?? null,
      xTotalPages: totals?.totalPages ?? null,
      pagesNeeded,
      roundTripsAtConcurrency: roundTrips,
      serverMs,
      boundMs,
      oursOverReadsOnly: hasFloor ? vsFloor : null,
      oursMs,
      gitbeakerMs,
      gitbeakerOverOurs: vsGitbeaker,
      oursOverBound: vsBound,
      sameItemsSameOrder: itemsOk,
      counted,
      runs: listRuns.map(({ ids: _ids, ...run }) => run),
    };
  }

  tables.push({
    title: `Listing through pagination (per_page ${PER_PAGE}, ${LATENCY_MS} ms latency per request; median of ${rounds} rounds, each run in brackets)`,
    columns: [
      'List',
      'Client',
      'Items',
      'Requests',
      'Time',
      'Client CPU',
      'Server time',
      'Server CPU',
      'Server busy',
      'Server GC',
      'gitbeaker ÷ this',
      'this ÷ bound',
    ],
    rows,
    notes: [
      ...notes,
      `Ratios are per round (the clients' runs of one round are back to back), then the median over the rounds; the bound of a round uses that round's server time.`,
      `"Server time" adds up the server's per-request service times, from the end of the injected latency to the response's last byte; with several requests in flight it also counts their queueing.`,
      `The bound takes its server time from the sequential client's runs (their requests never overlap, so none of it is queueing).`,
      `"Server busy" is the time the server's event loop was busy over the run: the service times above, and reading requests, timers and the garbage collection ("Server GC") that V8 runs as tasks between the handlers, which the bound does not count: a sequential client never waits for it, a client with pages in flight does. The server cannot answer the last page sooner than one latency plus its busy time after the first request, whatever the client does: "ours ÷ (latency + the server's busy time)" compares against that.`,
      `"A client that only reads" keeps our window of ${DEFAULT_PAGE_CONCURRENCY} pages in flight over the page count it already knows, reads each body and drops it (no decoding, parsing or checking): the floor any client reaches on this server. "Ours ÷ the client that only reads" is what our client's own work adds.`,
      `"ours" is one client listing the same list run after run, as the views do when they refresh: from the second time on it asks for the first ${DEFAULT_PAGE_CONCURRENCY} pages at once, having seen the list was that long. "ours, first listing" is a new client each run (nothing remembered): its first page goes alone, then the rest ${DEFAULT_PAGE_CONCURRENCY} at a time, one round trip more than the bound counts.`,
      `Our client's default page window is ${DEFAULT_PAGE_CONCURRENCY}; "concurrency ${WIDER_CONCURRENCY}" passes the public \`concurrency\` option, for comparison only. The todos row is one run, for information: above 10,000 rows servers send no totals.`,
    ],
  });
  return { name: 'pagination', title: 'Listing through pagination', tables, summary, data };
}
