// Saving a reply body to a file: complete bytes get the final name, anything short leaves nothing.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ForgeError, saveStreamToFile } from '../../../src/api/http';
import type { StreamResponse } from '../../../src/api/http/transport';

function response(chunks: string[], contentLength: number | undefined): StreamResponse {
  return {
    status: 200,
    headers: {},
    url: new URL('http://127.0.0.1/api/v4/projects/1/jobs/2/artifacts'),
    notModified: false,
    body: Readable.from(chunks.map((chunk) => Buffer.from(chunk))),
    contentLength,
    idleTimeoutMs: 5_000,
  };
}

describe('saveStreamToFile', () => {
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'forge-save-'));
  });

  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('gives a complete body its final name', async () => {
    const destination = join(folder, 'artifacts.zip');
    const saved = await saveStreamToFile(response(['hello ', 'world'], 11), destination);
    assert.deepEqual(saved, { path: destination, bytes: 11 });
    assert.equal(readFileSync(destination, 'utf8'), 'hello world');
    assert.ok(!existsSync(`${destination}.part`));
  });

  it('leaves nothing when a body ends cleanly but short of its Content-Length', async () => {
    const destination = join(folder, 'artifacts.zip');
    await assert.rejects(
      saveStreamToFile(response(['hello'], 11), destination, {}, 'GET /projects/1/jobs/2/artifacts'),
      (error: unknown) =>
        error instanceof ForgeError && /received 5 of 11 bytes; the file was discarded/.test(error.message),
    );
    assert.ok(!existsSync(destination), 'no truncated file under the final name');
    assert.ok(!existsSync(`${destination}.part`), 'no partial file left');
  });

  it('names a download without a label as such', async () => {
    await assert.rejects(
      saveStreamToFile(response(['abc'], 4), join(folder, 'x.bin')),
      (error: unknown) =>
        error instanceof ForgeError && error.message.startsWith('download: received 3 of 4 bytes'),
    );
  });

  it('gives up on a body that stops arriving, says why, and leaves nothing', async () => {
    const destination = join(folder, 'stalled.zip');
    const stalled = new Readable({ read: () => undefined });
    stalled.push(Buffer.from('part'));
    const reply: StreamResponse = { ...response([], 100), body: stalled, idleTimeoutMs: 30 };
    await assert.rejects(
      saveStreamToFile(reply, destination, {}, 'GET /projects/1/jobs/2/artifacts'),
      (error: unknown) =>
        error instanceof ForgeError &&
        error.message ===
          'GET /projects/1/jobs/2/artifacts broke off after 4 bytes (Body Timeout Error: nothing for 30 ms); nothing was saved',
    );
    assert.ok(!existsSync(destination));
    assert.ok(!existsSync(`${destination}.part`));
  });

  it('accepts a body of unknown length as it comes', async () => {
    const destination = join(folder, 'trace.log');
    const saved = await saveStreamToFile(response(['a', 'b', 'c'], undefined), destination);
    assert.equal(saved.bytes, 3);
  });
});
