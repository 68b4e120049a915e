import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostingClient } from '../../../src/api/hosting';
import { CrossOriginError, type Credentials } from '../../../src/api/http';
import { type FakeForge, type Fault, startFakeForge } from '../../server';
import { describeFault } from '../../server/faults';
import { type ScriptedServer, sendJson, startScriptedServer } from '../../support/scriptedServer';
import {
  Clients,
  LogSink,
  assertNoSecrets,
  forbidUnhandledRejections,
  forgeSecrets,
  inject,
  resetForge,
  visibleText,
  warmUp,
  cleanUp,
} from './harness';

/*
 * Secrets under faults: for every fault, with each kind of credential (PRIVATE-TOKEN, OAuth bearer, the
 * channel's Basic password), on reads and writes, and with a server that echoes the credentials it received
 * back into its answer, no token or password appears in the error's message, stack, fields or causes, nor
 * in the transport's log lines. And credentials never leave the configured origin: not on a redirect to
 * another origin (reads, downloads, the channel), not to a `Link` pointing elsewhere, not on a redirected
 * write (which is not followed at all).
 */

const WEB = 'acme/web';
const TIMEOUT_MS = 200;

const FAULTS: Fault[] = [
  { kind: 'latency', ms: TIMEOUT_MS + 200 },
  { kind: 'reset-before' },
  { kind: 'reset-after' },
  { kind: 'status', status: 500, echoCredentials: true },
  { kind: 'status', status: 502, echoCredentials: true },
  { kind: 'status', status: 503, echoCredentials: true },
  { kind: 'status', status: 503, body: 'maintenance; you sent: ', echoCredentials: true },
  { kind: 'rate-limited', echoCredentials: true },
  { kind: 'rate-limited', retryAfter: { seconds: 3_600 }, echoCredentials: true },
  { kind: 'rate-limited', retryAfter: { date: new Date(Date.now() + 7_200_000) }, echoCredentials: true },
  { kind: 'truncated', contentLength: 'full' },
  { kind: 'truncated', contentLength: 'cut' },
  { kind: 'truncated', contentLength: 'none' },
  { kind: 'invalid-json', echoCredentials: true },
  { kind: 'html', echoCredentials: true },
  { kind: 'never-ending' },
  { kind: 'never-ending', trickle: { bytes: 1, everyMs: 40 } },
  { kind: 'enormous' },
];

type Kind = 'private-token' | 'oauth' | 'basic';

interface Caller {
  read: () => Promise<unknown>;
  write: () => Promise<unknown>;
  readPath: string;
  writePath: string;
  writeMethod: string;
}

describe('reliability: secrets stay secret under faults', function () {
  this.timeout(10_000);
  let forge: FakeForge;
  let other: ScriptedServer;
  let clients: Clients;
  let secrets: string[];
  let tmp: string;
  const sink = new LogSink();
  /** By kind, and `<kind> quick` for the impatient ones. */
  const callers = new Map<string, Caller>();
  const hosting = new Map<Kind, HostingClient>();

  forbidUnhandledRejections();

  before(async () => {
    forge = await startFakeForge();
    await warmUp(forge);
    other = await startScriptedServer();
    clients = new Clients(() => forge, sink);
    secrets = forgeSecrets(forge);
    tmp = await mkdtemp(join(tmpdir(), 'forge-secrets-'));
    const credentials: Record<'private-token' | 'oauth', Credentials> = {
      'private-token': { kind: 'private-token', token: forge.userToken },
      oauth: { kind: 'oauth', token: forge.oauthToken },
    };
    // Impatient clients for the faults that are about time, patient ones (1.5 s) for the rest.
    for (const quick of [false, true]) {
      const options = { maxJsonBytes: 256 * 1024, ...(quick ? { timeoutMs: TIMEOUT_MS } : {}) };
      for (const kind of ['private-token', 'oauth'] as const) {
        const client = clients.hosting(credentials[kind], options);
        if (!quick) hosting.set(kind, client);
        callers.set(`${kind}${quick ? ' quick' : ''}`, {
          read: () => client.getProject(WEB),
          write: () =>
            client.createNote(
              { kind: 'mergeRequest', project: WEB, iid: forge.fixtures.mergeRequests.opened },
              'hi',
            ),
          readPath: '/projects/:id',
          writePath: '/projects/:id/merge_requests/:merge_request_iid/notes',
          writeMethod: 'POST',
        });
      }
      const channel = clients.channel(options);
      callers.set(`basic${quick ? ' quick' : ''}`, {
        read: () => channel.listAlbums(),
        write: () => channel.updateItem({ body: 'hi', contact_allow: [] }),
        readPath: '/albums',
        writePath: '/item/update',
        writeMethod: 'POST',
      });
    }
  });

  after(async () => {
    await cleanUp(
      () => clients?.closeAll(),
      () => forge?.close(),
      () => other?.close(),
      () => rm(tmp, { recursive: true, force: true }),
    );
  });

  afterEach(() => {
    resetForge(forge);
    other.seen.length = 0;
  });

  it('checks real secrets that were really sent', () => {
    assert.equal(secrets.length, 6);
    assert.ok(secrets.every((secret) => secret.length >= 6));
  });

  for (const kind of ['private-token', 'oauth', 'basic'] as const) {
    describe(`${kind} credentials`, () => {
      for (const fault of FAULTS) {
        const title = `${describeFault(fault)}${'body' in fault ? ', plain-text body' : ''}${
          'echoCredentials' in fault ? ', echoing the credentials back' : ''
        }`;
        it(`${title}: not in errors or log lines, on a read and a write`, async () => {
          const quick = fault.kind === 'latency' || fault.kind === 'never-ending';
          const caller = callers.get(`${kind}${quick ? ' quick' : ''}`);
          assert.ok(caller);
          sink.clear();
          inject(forge, { method: 'GET', path: caller.readPath, fault });
          inject(forge, { method: caller.writeMethod, path: caller.writePath, fault });
          // Read and write at once: the timed faults then cost one timeout, not two.
          const outcomes = await Promise.allSettled([caller.read(), caller.write()]);
          const texts: string[] = [];
          for (const outcome of outcomes) {
            assert.equal(outcome.status, 'rejected', 'the fault should have made the call fail');
            const error: unknown = outcome.reason;
            assert.ok(error instanceof Error);
            texts.push(visibleText(error));
          }
          texts.push(...sink.lines);
          assertNoSecrets(texts, secrets, `${kind} ${fault.kind}`);
          // The credentials did reach the configured server: the check above is not vacuous.
          const sent = forge.requests[0]?.headers;
          assert.ok(sent?.['private-token'] ?? sent?.['authorization']);
        });
      }
    });
  }

  describe('credentials only to the configured origin', () => {
    function foreignHeaders(): string[] {
      return other.seen.flatMap((request) =>
        [request.headers['private-token'], request.headers['authorization'], request.headers['sudo']].filter(
          (value): value is string => typeof value === 'string',
        ),
      );
    }

    for (const kind of ['private-token', 'oauth', 'basic'] as const) {
      it(`a read redirected to another origin goes there without ${kind} credentials`, async () => {
        other.handle((_request, response) => sendJson(response, 200, { success: true, albums: [] }));
        const caller = callers.get(kind);
        assert.ok(caller);
        inject(forge, {
          method: 'GET',
          path: caller.readPath,
          fault: { kind: 'redirect', location: `${other.url}/elsewhere` },
        });
        await caller.read().catch(() => undefined);
        assert.equal(other.seen.length, 1, 'the redirect was followed');
        assert.deepEqual(foreignHeaders(), []);
        assertNoSecrets([JSON.stringify(other.seen)], secrets, 'the foreign server');
      });
    }

    it('an artifacts download redirected to object storage arrives, without the token', async () => {
      const archive = Buffer.from('PK\u0003\u0004 not really a zip');
      other.handle((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/zip', 'content-length': archive.length });
        response.end(archive);
      });
      inject(forge, {
        path: '/projects/:id/jobs/:job_id/artifacts',
        fault: { kind: 'redirect', location: `${other.url}/bucket/artifacts.zip?X-Amz-Signature=abc` },
      });
      const destination = join(tmp, 'stored.zip');
      const client = hosting.get('private-token');
      assert.ok(client);
      await client.downloadArtifacts(WEB, forge.fixtures.jobs.build, destination);
      assert.deepEqual(await readFile(destination), archive);
      assert.deepEqual(foreignHeaders(), []);
    });

    it('a redirect chain out and back: only the foreign hop goes without credentials', async () => {
      other.handle((_request, response) =>
        response.writeHead(302, { location: `${forge.url}/api/v4/projects/acme%2Fweb` }).end(),
      );
      inject(forge, {
        method: 'GET',
        path: '/projects/:id',
        times: 1,
        fault: { kind: 'redirect', location: `${other.url}/hop` },
      });
      const client = hosting.get('private-token');
      assert.ok(client);
      const project = await client.getProject(WEB);
      assert.equal(project.path_with_namespace, WEB);
      assert.deepEqual(foreignHeaders(), []);
      assert.equal(forge.requests.length, 2);
    });

    it('a redirected write is not followed at all', async () => {
      other.handle((_request, response) => sendJson(response, 201, { id: 1 }));
      const caller = callers.get('private-token');
      assert.ok(caller);
      inject(forge, {
        method: 'POST',
        path: caller.writePath,
        fault: { kind: 'redirect', status: 307, location: `${other.url}/steal` },
      });
      await caller.write().catch(() => undefined);
      assert.equal(other.seen.length, 0);
    });

    it('a Link header to another origin is not followed; X-Next-Page is, at home', async () => {
      const client = hosting.get('private-token');
      assert.ok(client);
      const expected = (await client.listJobs(WEB).toArray({ perPage: 3 })).map((job) => job.id);
      forge.linkOrigin = other.url;
      const jobs = await client.listJobs(WEB).toArray({ perPage: 3 });
      assert.deepEqual(
        jobs.map((job) => job.id),
        expected,
      );
      assert.equal(other.seen.length, 0);
      const first = await client.listJobs(WEB).page({ perPage: 3 });
      assert.ok(first.nextUrl?.startsWith(forge.url), first.nextUrl);
      const error = await client
        .listJobs(WEB)
        .next(`${other.url}/api/v4/projects/acme%2Fweb/jobs?page=2`)
        .catch((caught: unknown) => caught);
      assert.ok(error instanceof CrossOriginError, String(error));
      assert.equal(other.seen.length, 0);
    });
  });
});
