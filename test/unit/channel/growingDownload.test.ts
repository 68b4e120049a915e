// A chunked channel download whose file keeps growing or changing on the server ends with an
// error after a bound, and leaves nothing that looks complete.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChannelDownloadError, type FetchChunk, downloadInChunks } from '../../../src/api/channel';

describe('channel downloads of a file that never holds still', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'forge-growing-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function growingFile(change: 'size' | 'edited'): { fetch: FetchChunk; calls: () => number } {
    let calls = 0;
    const fetch: FetchChunk = (start, length) => {
      calls++;
      if (calls > 1_000) throw new Error('the test bound: the download did not stop');
      const filesize = change === 'size' ? 1_000 + calls * 10 : 1_000;
      const bytes = Buffer.alloc(Math.min(length, filesize - start), 0x61);
      return Promise.resolve({
        attach: {
          id: 1,
          hash: 'abc123',
          filename: 'log.txt',
          filetype: 'text/plain',
          filesize,
          edited:
            change === 'edited'
              ? `2026-11-26 10:00:${String(calls).padStart(2, '0')}`
              : '2026-11-26 10:00:00',
          start,
          length: bytes.length,
          content: bytes.toString('base64'),
        },
        bytes,
      });
    };
    return { fetch, calls: () => calls };
  }

  for (const change of ['size', 'edited'] as const) {
    it(`stops with an error when the file's ${change} changes with every chunk`, async () => {
      const destination = join(dir, 'log.txt');
      const { fetch, calls } = growingFile(change);
      await assert.rejects(
        downloadInChunks('abc123', destination, fetch, { chunkSize: 100 }),
        (error: unknown) => {
          assert.ok(error instanceof ChannelDownloadError, String(error));
          assert.match(error.message, /kept changing on the server/);
          return true;
        },
      );
      assert.ok(calls() < 20, `${calls()} chunks asked`);
      assert.equal(existsSync(destination), false, 'no file with the final name');
      assert.equal(existsSync(`${destination}.part`), false, 'no partial file');
    });
  }
});
