import assert from 'node:assert/strict';
import type { ChannelClient } from '../../../src/api/channel';
import type { HostingClient } from '../../../src/api/hosting';
import { MalformedReplyError, ServerError, UncertainWriteError } from '../../../src/api/http';
import { type FakeForge, type Fault, startFakeForge } from '../../server';
import {
  Clients,
  LogSink,
  failureOf,
  forbidUnhandledRejections,
  inject,
  resetForge,
  warmUp,
  cleanUp,
} from './harness';

/*
 * Writes are never repeated. A write whose connection broke, or that got no answer in time, is reported as
 * UncertainWriteError ("the server may have acted, check before trying again"), and the fake forge's request
 * log shows exactly one request, whether the server acted (reset after the handler, a cut answer, an answer
 * that came too late) or not (reset before it, a stalled proxy). A 5xx is a plain error, also sent once.
 * Four writes: retry a job, merge a merge request, create a note, post to the channel (item/update).
 */

const WEB = 'acme/web';
/** The client gives up on an answer after this long in these tests. */
const WRITE_TIMEOUT_MS = 300;

interface Pair {
  alice: HostingClient;
  channel: ChannelClient;
}

interface WriteCase {
  name: string;
  method: 'POST' | 'PUT';
  /** Fault rule path. */
  path: string;
  /** Sets up a fresh target (without faults); returns a token for `send` and `acted`. */
  prepare: () => Promise<string>;
  send: (token: string, clients: Pair) => Promise<unknown>;
  /** Whether the server carried the write out. */
  acted: (token: string) => boolean;
}

interface FaultCase {
  fault: Fault;
  error: abstract new (...args: never[]) => Error;
  message: RegExp;
  /** Whether the server acts: at once, later (after the client gave up), or not at all. */
  acts: 'yes' | 'later' | 'no';
}

const FAULTS: FaultCase[] = [
  {
    fault: { kind: 'reset-after' },
    error: UncertainWriteError,
    message: /the connection broke \(\w+\) after the request was sent, so the server may have acted/,
    acts: 'yes',
  },
  { fault: { kind: 'reset-before' }, error: UncertainWriteError, message: /may have acted/, acts: 'no' },
  {
    fault: { kind: 'truncated', contentLength: 'full' },
    error: UncertainWriteError,
    message: /may have acted. Check before trying again/,
    acts: 'yes',
  },
  {
    fault: { kind: 'truncated', contentLength: 'none' },
    error: MalformedReplyError,
    message: /JSON that stops part-way .* The server did accept the request: refresh/,
    acts: 'yes',
  },
  {
    fault: { kind: 'latency', ms: WRITE_TIMEOUT_MS + 300 },
    error: UncertainWriteError,
    message: /no answer within 300 ms after the request was sent, so the server may have acted/,
    acts: 'later',
  },
  { fault: { kind: 'never-ending' }, error: UncertainWriteError, message: /no answer within/, acts: 'no' },
  { fault: { kind: 'status', status: 503 }, error: ServerError, message: /failed with 503/, acts: 'no' },
];

async function eventually(check: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe('reliability: writes interrupted are uncertain and sent once', function () {
  this.timeout(10_000);
  let forge: FakeForge;
  let clients: Clients;
  /** Clients that wait for answers (1.5 s), and impatient ones for the faults that are about time. */
  let patient: Pair;
  let impatient: Pair;
  let counter = 0;
  const sink = new LogSink();

  forbidUnhandledRejections();

  before(async () => {
    forge = await startFakeForge();
    await warmUp(forge);
    clients = new Clients(() => forge, sink);
    const credentials = { kind: 'private-token', token: forge.userToken } as const;
    patient = { alice: clients.hosting(credentials), channel: clients.channel() };
    impatient = {
      alice: clients.hosting(credentials, { timeoutMs: WRITE_TIMEOUT_MS }),
      channel: clients.channel({ timeoutMs: WRITE_TIMEOUT_MS }),
    };
  });

  after(async () => {
    await cleanUp(
      () => clients?.closeAll(),
      () => forge?.close(),
    );
  });

  afterEach(() => {
    resetForge(forge);
    sink.clear();
  });

  const WRITES: WriteCase[] = [
    {
      name: 'retry a job',
      method: 'POST',
      path: '/projects/:id/jobs/:job_id/retry',
      prepare: () => {
        const id = forge.fixtures.jobs.failed;
        forge.state.setJobStatus(id, 'failed');
        forge.state.jobs.get(id)!.retried = false;
        return Promise.resolve(String(id));
      },
      send: (id, { alice }) => alice.retryJob(WEB, Number(id)),
      // Real servers run a new job and mark the old one as retried.
      acted: (id) => forge.state.jobs.get(Number(id))?.retried === true,
    },
    {
      name: 'merge a merge request',
      method: 'PUT',
      path: '/projects/:id/merge_requests/:merge_request_iid/merge',
      prepare: async () => {
        const branch = `reliability-${++counter}`;
        await patient.alice.createBranch(WEB, branch, 'master');
        const created = await patient.alice.createMergeRequest(WEB, {
          source_branch: branch,
          target_branch: 'master',
          title: `Merge ${branch}`,
        });
        return String(created.iid);
      },
      send: (iid, { alice }) => alice.mergeMergeRequest(WEB, Number(iid)),
      acted: (iid) =>
        forge.state.findMergeRequest(forge.fixtures.projects.web, Number(iid))?.state === 'merged',
    },
    {
      name: 'create a note',
      method: 'POST',
      path: '/projects/:id/merge_requests/:merge_request_iid/notes',
      prepare: () => Promise.resolve(`A comment that must not be posted twice #${++counter}`),
      send: (body, { alice }) =>
        alice.createNote(
          { kind: 'mergeRequest', project: WEB, iid: forge.fixtures.mergeRequests.opened },
          body,
        ),
      acted: (body) => [...forge.state.notes.values()].some((note) => note.body === body),
    },
    {
      name: 'post to the channel (item/update)',
      method: 'POST',
      path: '/item/update',
      prepare: () => Promise.resolve(`A channel post that must not be posted twice #${++counter}`),
      send: (body, { channel }) => channel.updateItem({ body, contact_allow: [] }),
      acted: (body) => forge.channel.state.items.some((item) => item.body === body),
    },
  ];

  for (const write of WRITES) {
    describe(write.name, () => {
      for (const { fault, error: expected, message, acts } of FAULTS) {
        it(`${fault.kind}${'contentLength' in fault ? ` (${fault.contentLength})` : ''}${'status' in fault ? ` ${fault.status}` : ''}: ${expected.name}, sent once, server ${acts === 'no' ? 'did nothing' : 'acted'}`, async () => {
          const token = await write.prepare();
          forge.clearRequests();
          inject(forge, { method: write.method, path: write.path, fault });
          const quick = fault.kind === 'latency' || fault.kind === 'never-ending';
          const error = await failureOf(write.send(token, quick ? impatient : patient));
          assert.ok(error instanceof expected, `${error.name}: ${error.message}`);
          assert.match(error.message, message);
          assert.match(error.message, new RegExp(`^${write.method} /`));
          if (acts === 'later') {
            assert.equal(write.acted(token), false, 'the client gave up before the server acted');
            assert.ok(await eventually(() => write.acted(token), 2_000), 'the server acted after all');
          } else {
            assert.equal(write.acted(token), acts === 'yes');
          }
          assert.deepEqual(
            forge.requests.map((request) => [request.method, request.fault !== undefined]),
            [[write.method, true]],
            'exactly one request, never repeated',
          );
          assert.equal(sink.retries(), 0);
        });
      }
    });
  }
});
