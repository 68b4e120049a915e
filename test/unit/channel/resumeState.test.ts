// A chunked channel download resumes only from a sidecar it can trust: its own file, a sane record,
// the bytes still on disk. Anything else starts over from byte 0, and a foreign chunk is refused.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ChannelDownloadError,
  DEFAULT_CHUNK_SIZE,
  type FetchChunk,
  downloadInChunks,
} from '../../../src/api/channel';

const FILE = Buffer.from('abcdefghijklmnopqrstuvwxyz0123456789'); // 36 bytes
const HASH = 'cafe1234deadbeef';

describe('channel download resume state', () => {
  let dir: string;
  let destination: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'forge-resume-'));
    destination = join(dir, 'notes.txt');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function server(hash = HASH): { fetch: FetchChunk; starts: number[] } {
    const starts: number[] = [];
    const fetch: FetchChunk = (start, length) => {
      starts.push(start);
      const bytes = FILE.subarray(start, start + length);
      return Promise.resolve({
        attach: {
          id: 1,
          hash,
          filename: 'notes.txt',
          filetype: 'text/plain',
          filesize: FILE.length,
          edited: '2026-11-26 10:00:00',
          start,
          length: bytes.length,
          content: bytes.toString('base64'),
        },
        bytes,
      });
    };
    return { fetch, starts };
  }

  /** A previous attempt's leftovers: the first `bytes` of the file and its sidecar. */
  function leftovers(bytes: number, sidecar: Record<string, unknown>): void {
    writeFileSync(`${destination}.part`, FILE.subarray(0, bytes));
    writeFileSync(
      `${destination}.part.json`,
      JSON.stringify({
        version: 1,
        hash: HASH,
        filesize: FILE.length,
        edited: '2026-11-26 10:00:00',
        completedBytes: bytes,
        ...sidecar,
      }),
    );
  }

  it('resumes from the recorded chunk when the sidecar is its own and sane', async () => {
    leftovers(10, {});
    const { fetch, starts } = server();
    const result = await downloadInChunks('cafe12', destination, fetch, { chunkSize: 10 });
    assert.deepEqual(starts, [10, 20, 30]);
    assert.equal(result.resumedFromBytes, 10);
    assert.deepEqual(readFileSync(destination), FILE);
  });

  const untrusted: [string, Record<string, unknown>][] = [
    ['another version', { version: 2 }],
    ['a hash of another file', { hash: 'beef00000000' }],
    ['no hash', { hash: 7 }],
    ['a size that is not a number', { filesize: '36' }],
    ['negative progress', { completedBytes: -10 }],
    ['fractional progress', { completedBytes: 10.5 }],
  ];
  for (const [what, sidecar] of untrusted) {
    it(`starts over from byte 0 when the sidecar has ${what}`, async () => {
      leftovers(10, sidecar);
      const { fetch, starts } = server();
      const result = await downloadInChunks('cafe12', destination, fetch, { chunkSize: 10 });
      assert.equal(starts[0], 0);
      assert.equal(result.resumedFromBytes, 0);
      assert.deepEqual(readFileSync(destination), FILE);
    });
  }

  it('starts over when told not to resume, and when the partial file is gone', async () => {
    leftovers(10, {});
    const first = server();
    await downloadInChunks('cafe12', destination, first.fetch, { chunkSize: 10, resume: false });
    assert.equal(first.starts[0], 0);
    rmSync(destination);
    leftovers(10, {});
    rmSync(`${destination}.part`);
    const second = server();
    const result = await downloadInChunks('cafe12', destination, second.fetch, { chunkSize: 10 });
    assert.equal(second.starts[0], 0);
    assert.equal(result.resumedFromBytes, 0);
  });

  it('refuses a chunk of another file, naming both, and saves nothing', async () => {
    const { fetch } = server('0000ffff');
    await assert.rejects(
      downloadInChunks('cafe12', destination, fetch, { chunkSize: 10 }),
      (error: unknown) => {
        assert.ok(error instanceof ChannelDownloadError);
        assert.match(error.message, /asked for file cafe12 but the server sent 0000ffff; nothing was saved/);
        return true;
      },
    );
  });

  it('asks for 512 KiB chunks by default', async () => {
    const { fetch } = server();
    const lengths: number[] = [];
    await downloadInChunks('cafe12', destination, (start, length, signal) => {
      lengths.push(length);
      return fetch(start, length, signal);
    });
    assert.equal(DEFAULT_CHUNK_SIZE, 512 * 1024);
    assert.deepEqual(lengths, [512 * 1024]);
  });
});
