/**
 * Issues at scale (issue 40): 10,000 issues across the large seed's projects, assigned to the
 * caller, one in ten closed, from the fake forge in a process of its own with 25 ms of latency on
 * every request. What the Issues view's "Assigned to me" asks: its first rows (one page of 50, a
 * new client each run, as after a window reload) and the whole list (`per_page` 100, every page),
 * as ratios of the round-trip bound the listing benchmark uses: round trips needed × latency +
 * the server's time.
 */
import { HostingClient } from '../src/api/hosting';
import { DEFAULT_PAGE_CONCURRENCY } from '../src/api/http';
import { forkForge } from './forgeProcess';
import { type BenchResult, Deadline, median, ms, ratio } from './report';

const ISSUES = 10_000;
const LATENCY_MS = 25;
const RUNS = 7;
const FIRST_PAGE = 50;
const PER_PAGE = 100;
const BUDGET_MS = 120_000;
const TARGET_FIRST_ROWS = 1.3;
const TARGET_WHOLE_LIST = 1.3;

const ASSIGNED = { scope: 'assigned_to_me', state: 'opened', orderBy: 'updated_at' } as const;

interface Run {
  wallMs: number;
  serverMs: number;
  requests: number;
  items: number;
}

export async function runIssuesBench(): Promise<BenchResult> {
  const forge = await forkForge(LATENCY_MS, { issuesAssignedToAdmin: ISSUES });
  const deadline = new Deadline('issues', BUDGET_MS);
  const clientOf = () =>
    HostingClient.create({
      baseUrl: forge.info.url,
      credentials: { kind: 'private-token', token: forge.info.adminToken },
    });
  const measure = async (read: (client: HostingClient) => Promise<number>): Promise<Run> => {
    const client = clientOf();
    try {
      await forge.reset();
      const start = performance.now();
      const items = await read(client);
      const wallMs = performance.now() - start;
      const stats = await forge.stats();
      return { wallMs, serverMs: stats.serverMs, requests: stats.requests, items };
    } finally {
      await client.close();
    }
  };
  const firstRows = (client: HostingClient) =>
    client
      .listIssues(ASSIGNED)
      .page({ perPage: FIRST_PAGE })
      .then((page) => page.items.length);
  const wholeList = async (client: HostingClient) => {
    let count = 0;
    for await (const issue of client.listIssues(ASSIGNED).all({ perPage: PER_PAGE }))
      if (issue.iid > 0) count++;
    return count;
  };
  const first: Run[] = [];
  const whole: Run[] = [];
  try {
    // One warm-up of each, not counted.
    await measure(firstRows);
    await measure(wholeList);
    for (let round = 0; round < RUNS && !deadline.expired; round++) {
      first.push(await measure(firstRows));
      whole.push(await measure(wholeList));
    }
  } finally {
    await forge.close();
  }
  const listed = median(whole.map((run) => run.items));
  const pages = Math.ceil(listed / PER_PAGE);
  // The first page goes alone (its answer says how many there are), then the rest a window at a time.
  const wholeRoundTrips = 1 + Math.ceil((pages - 1) / DEFAULT_PAGE_CONCURRENCY);
  const firstRatio = median(first.map((run) => run.wallMs / (LATENCY_MS + run.serverMs)));
  const wholeRatio = median(whole.map((run) => run.wallMs / (wholeRoundTrips * LATENCY_MS + run.serverMs)));
  const row = (what: string, runs: Run[], roundTrips: number, value: number): string[] => [
    what,
    String(median(runs.map((run) => run.items))),
    String(median(runs.map((run) => run.requests))),
    ms(median(runs.map((run) => run.wallMs))),
    `${roundTrips} × ${LATENCY_MS} ms + ${ms(median(runs.map((run) => run.serverMs)))}`,
    ratio(value),
  ];
  return {
    name: 'issues',
    title: `Issues: "Assigned to me" over ${ISSUES.toLocaleString('en')} issues across projects`,
    tables: [
      {
        title: `Fake forge in its own process, ${LATENCY_MS} ms latency per request, median of ${first.length} runs`,
        columns: [
          'What',
          'Issues',
          'Requests',
          'Ours',
          'Bound (round trips × latency + server)',
          'Ours ÷ bound',
        ],
        rows: [
          row(`First rows (one page of ${FIRST_PAGE})`, first, 1, firstRatio),
          row(`The whole list (per_page ${PER_PAGE})`, whole, wholeRoundTrips, wholeRatio),
        ],
        notes: [
          `Every planted issue is assigned to the caller; ${ISSUES / 10} are closed and left out (state opened); ${listed.toLocaleString('en')} listed with the seed's own.`,
          `The whole list: the first page alone, then ${DEFAULT_PAGE_CONCURRENCY} pages at a time (the client's window); the bound counts those round trips.`,
          'The rows the view then builds (one tree item per issue) are not in these figures.',
        ],
      },
    ],
    summary: [
      {
        figure: '"Assigned to me", first rows ÷ bound',
        value: ratio(firstRatio),
        target: `≤ ${TARGET_FIRST_ROWS}x`,
        met: firstRatio <= TARGET_FIRST_ROWS,
      },
      {
        figure: `"Assigned to me", all ${listed.toLocaleString('en')} ÷ bound`,
        value: ratio(wholeRatio),
        target: `≤ ${TARGET_WHOLE_LIST}x`,
        met: wholeRatio <= TARGET_WHOLE_LIST,
      },
    ],
    data: { issues: ISSUES, latencyMs: LATENCY_MS, first, whole, wholeRoundTrips },
  };
}
