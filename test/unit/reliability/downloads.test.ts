import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChannelClient, ChannelDownloadError } from '../../../src/api/channel';
import type { HostingClient } from '../../../src/api/hosting';
import { CancelledError, ForgeError, ServerError } from '../../../src/api/http';
import { type FakeForge, type Fault, startFakeForge } from '../../server';
import { describeFault } from '../../server/faults';
import {
  Clients,
  LogSink,
  exists,
  failureOf,
  forbidUnhandledRejections,
  inject,
  resetForge,
  timed,
  warmUp,
  cleanUp,
} from './harness';

/*
 * Downloads interrupted mid-way. Artifacts (v4, one streamed reply) are retried while no byte has arrived
 * and discarded cleanly once the body broke: never a file with the final name, never a stray `.part`.
 * Channel files (`filedata`, chunk by chunk) keep the complete chunks in `.part` plus a sidecar and resume
 * with only the missing chunks; a failure before the first chunk leaves nothing.
 */

const WEB = 'acme/web';
const TIMEOUT_MS = 250;
const CHUNK = 64 * 1024;
const ARTIFACTS = '/projects/:id/jobs/:job_id/artifacts';

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

describe('reliability: interrupted downloads resume or are discarded', function () {
  this.timeout(10_000);
  let forge: FakeForge;
  let clients: Clients;
  let alice: HostingClient;
  let channel: ChannelClient;
  /** Short timeouts, for the bodies that stall or trickle. */
  let impatient: HostingClient;
  let impatientChannel: ChannelClient;
  let tmp: string;
  let artifactBytes: number;
  const sink = new LogSink();

  forbidUnhandledRejections();

  /** Names in the temporary folder starting with `prefix` (the file, its `.part`, the sidecar). */
  async function leftovers(prefix: string): Promise<string[]> {
    return (await readdir(tmp)).filter((name) => name.startsWith(prefix)).sort();
  }

  before(async () => {
    forge = await startFakeForge();
    await warmUp(forge);
    clients = new Clients(() => forge, sink);
    alice = clients.hosting({ kind: 'private-token', token: forge.userToken });
    channel = clients.channel();
    impatient = clients.hosting({ kind: 'private-token', token: forge.userToken }, { timeoutMs: TIMEOUT_MS });
    impatientChannel = clients.channel({ timeoutMs: TIMEOUT_MS });
    tmp = await mkdtemp(join(tmpdir(), 'forge-reliability-'));
    const job = forge.state.jobs.get(forge.fixtures.jobs.build);
    assert.ok(job);
    const size = forge.state.artifactsSize(job);
    assert.ok(size !== undefined && size > 0);
    artifactBytes = size;
  });

  after(async () => {
    await cleanUp(
      () => clients?.closeAll(),
      () => forge?.close(),
      () => rm(tmp, { recursive: true, force: true }),
    );
  });

  afterEach(() => {
    resetForge(forge);
    sink.clear();
  });

  describe('artifacts (v4, streamed)', () => {
    const retried: Fault[] = [
      { kind: 'reset-before' },
      { kind: 'reset-after' },
      { kind: 'status', status: 503 },
      { kind: 'rate-limited', retryAfter: { seconds: 0 } },
    ];
    for (const fault of retried) {
      it(`${describeFault(fault)} before the body: retried, and the whole file arrives`, async () => {
        const name = `retried-${fault.kind}.zip`;
        inject(forge, { path: ARTIFACTS, times: 1, fault });
        const result = await alice.downloadArtifacts(WEB, forge.fixtures.jobs.build, join(tmp, name));
        assert.equal(result.bytes, artifactBytes);
        assert.equal((await stat(join(tmp, name))).size, artifactBytes);
        assert.deepEqual(await leftovers(name), [name]);
        assert.equal(forge.requests.length, 2);
      });
    }

    it('a body cut mid-way is discarded: no final file, no .part, not retried', async () => {
      inject(forge, { path: ARTIFACTS, fault: { kind: 'truncated', contentLength: 'full', keep: 0.6 } });
      const error = await failureOf(
        alice.downloadArtifacts(WEB, forge.fixtures.jobs.build, join(tmp, 'cut.zip')),
      );
      assert.ok(error instanceof ForgeError, String(error));
      assert.match(
        error.message,
        /^GET \/projects\/:id\/jobs\/:job_id\/artifacts broke off after \d+ bytes \(.+\); nothing was saved$/,
      );
      assert.deepEqual(await leftovers('cut.zip'), []);
      assert.equal(forge.requests.length, 1);
    });

    it('a body that stalls is discarded after the idle timeout', async () => {
      inject(forge, { path: ARTIFACTS, fault: { kind: 'never-ending' } });
      const { ms, result: error } = await timed(() =>
        failureOf(impatient.downloadArtifacts(WEB, forge.fixtures.jobs.build, join(tmp, 'stalled.zip'))),
      );
      assert.ok(error instanceof ForgeError, String(error));
      assert.match(error.message, /broke off after 1 bytes .*nothing was saved/);
      // The client's idle timeout (250 ms here), not the default one: a bound loose enough for a busy machine.
      assert.ok(ms < 5_000, `gave up after ${Math.round(ms)} ms`);
      assert.deepEqual(await leftovers('stalled.zip'), []);
    });

    it('a body that trickles is not cut short (downloads may be long) but can be cancelled, leaving nothing', async () => {
      inject(forge, {
        path: ARTIFACTS,
        fault: { kind: 'never-ending', trickle: { bytes: 16, everyMs: 50 } },
      });
      const controller = new AbortController();
      const progress: number[] = [];
      const started = performance.now();
      // Cancelled once the body is still coming twice the request timeout after the start.
      const onProgress = (step: { receivedBytes: number }): void => {
        progress.push(step.receivedBytes);
        if (performance.now() - started > TIMEOUT_MS * 2 && progress.length > 5) controller.abort();
      };
      const error = await failureOf(
        impatient.downloadArtifacts(WEB, forge.fixtures.jobs.build, join(tmp, 'trickle.zip'), {
          signal: controller.signal,
          onProgress,
        }),
      );
      assert.ok(error instanceof CancelledError, String(error));
      assert.ok(controller.signal.aborted, 'alive past the request timeout until cancelled');
      assert.deepEqual(await leftovers('trickle.zip'), []);
    });

    it('a failed download leaves an earlier file of the same name as it was', async () => {
      const destination = join(tmp, 'existing.zip');
      await writeFile(destination, 'the earlier download');
      inject(forge, { path: ARTIFACTS, fault: { kind: 'truncated', contentLength: 'full' } });
      await failureOf(alice.downloadArtifacts(WEB, forge.fixtures.jobs.build, destination));
      assert.equal(await readFile(destination, 'utf8'), 'the earlier download');
      assert.deepEqual(await leftovers('existing.zip'), ['existing.zip']);
    });

    it('a 5xx that outlasts the retries leaves nothing', async () => {
      inject(forge, { path: ARTIFACTS, fault: { kind: 'status', status: 502 } });
      const error = await failureOf(
        alice.downloadArtifacts(WEB, forge.fixtures.jobs.build, join(tmp, 'bad.zip')),
      );
      assert.ok(error instanceof ServerError);
      assert.match(error.message, /502 Bad Gateway \(an HTML error page\) \(tried 4 times\)$/);
      assert.deepEqual(await leftovers('bad.zip'), []);
    });
  });

  describe('channel files (filedata, chunked)', () => {
    const brokenFrom = 2 * CHUNK;
    const faults: Fault[] = [
      { kind: 'reset-after' },
      { kind: 'truncated', contentLength: 'full' },
      { kind: 'truncated', contentLength: 'none' },
      { kind: 'invalid-json' },
      { kind: 'html' },
      { kind: 'status', status: 503 },
      { kind: 'never-ending' },
    ];

    function filedataStarts(): number[] {
      return forge.requests
        .filter((request) => request.path === '/api/z/1.0/filedata')
        .map((request) => Number(request.query['start']));
    }

    for (const fault of faults) {
      it(`${describeFault(fault)} from the third chunk on: keeps two chunks, then resumes with the rest`, async () => {
        const file = forge.channel.fixtures.binaryFile;
        const name = `resume-${fault.kind}-${'contentLength' in fault ? fault.contentLength : ''}.bin`;
        const destination = join(tmp, name);
        const handle = inject(forge, {
          path: '/filedata',
          when: (request) => Number(request.query['start']) >= brokenFrom,
          fault,
        });
        const client = fault.kind === 'never-ending' ? impatientChannel : channel;
        const error = await failureOf(client.downloadFile(file.hash, destination, { chunkSize: CHUNK }));
        assert.ok(error instanceof ChannelDownloadError, `${error.name}: ${error.message}`);
        assert.equal(error.partialBytes, brokenFrom);
        assert.match(
          error.message,
          /broke off after 131072 of 307977 bytes .*the next download of this file resumes there/,
        );
        assert.deepEqual(await leftovers(name), [`${name}.part`, `${name}.part.json`]);
        assert.equal((await stat(`${destination}.part`)).size, brokenFrom);

        handle.remove();
        forge.clearRequests();
        const result = await channel.downloadFile(file.hash, destination, { chunkSize: CHUNK });
        assert.equal(result.resumedFromBytes, brokenFrom);
        assert.deepEqual(filedataStarts(), [2 * CHUNK, 3 * CHUNK, 4 * CHUNK], 'only the missing chunks');
        assert.equal(sha256(await readFile(destination)), file.sha256);
        assert.deepEqual(await leftovers(name), [name]);
      });
    }

    it('a failure before the first chunk leaves nothing at all', async () => {
      inject(forge, { path: '/filedata', fault: { kind: 'truncated', contentLength: 'full' } });
      const error = await failureOf(
        channel.downloadFile(forge.channel.fixtures.binaryFile.hash, join(tmp, 'first.bin'), {
          chunkSize: CHUNK,
        }),
      );
      assert.ok(error instanceof ChannelDownloadError);
      assert.equal(error.partialBytes, 0);
      assert.match(error.message, /failed before any byte was saved/);
      assert.deepEqual(await leftovers('first.bin'), []);
    });

    it('a chunk that fails once is fetched again by the transport: one call, complete file', async () => {
      const file = forge.channel.fixtures.binaryFile;
      const destination = join(tmp, 'once.bin');
      inject(forge, {
        path: '/filedata',
        when: (request) => Number(request.query['start']) === 3 * CHUNK,
        times: 1,
        fault: { kind: 'reset-after' },
      });
      const result = await channel.downloadFile(file.hash, destination, { chunkSize: CHUNK });
      assert.equal(result.bytes, file.size);
      assert.equal(sha256(await readFile(destination)), file.sha256);
      assert.deepEqual(filedataStarts(), [0, CHUNK, 2 * CHUNK, 3 * CHUNK, 3 * CHUNK, 4 * CHUNK]);
      assert.deepEqual(await leftovers('once.bin'), ['once.bin']);
      assert.equal(await exists(`${destination}.part`), false);
    });
  });
});
