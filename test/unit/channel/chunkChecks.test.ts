// Each chunk of a channel download is checked against what was asked, and a cancelled download
// keeps or drops its bytes as told.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChannelDownloadError, type FetchChunk, downloadInChunks } from '../../../src/api/channel';
import { CancelledError } from '../../../src/api/http';

const FILE = Buffer.from('0123456789'.repeat(25)); // 250 bytes

/** A server of `file` (FILE unless given) whose chunks `tamper` may change. */
function server(
  tamper: (
    chunk: { start: number; length: number; bytes: Buffer },
    call: number,
  ) => {
    start?: number;
    length?: number;
    bytes: Buffer;
  } = (chunk) => chunk,
  file: { bytes: Buffer; hash: string } = { bytes: FILE, hash: 'abc123' },
): { fetch: FetchChunk; asked: [number, number][] } {
  const asked: [number, number][] = [];
  const fetch: FetchChunk = (start, length) => {
    asked.push([start, length]);
    const bytes = file.bytes.subarray(start, Math.min(file.bytes.length, start + length));
    const sent = tamper({ start, length: bytes.length, bytes }, asked.length);
    return Promise.resolve({
      attach: {
        id: 1,
        hash: file.hash,
        filename: 'data.bin',
        filetype: 'application/octet-stream',
        filesize: file.bytes.length,
        edited: '2026-11-27 10:00:00',
        ...(sent.start === undefined ? {} : { start: sent.start }),
        ...(sent.length === undefined ? {} : { length: sent.length }),
        content: sent.bytes.toString('base64'),
      },
      bytes: sent.bytes,
    });
  };
  return { fetch, asked };
}

describe('channel download chunk checks', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'forge-chunks-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('asks for 512 KiB at a time by default and stops at the reported size', async () => {
    const { fetch, asked } = server();
    const destination = join(dir, 'data.bin');
    const result = await downloadInChunks('abc123', destination, fetch);
    assert.deepEqual(asked, [[0, 512 * 1024]]);
    assert.equal(result.bytes, FILE.length);
    assert.deepEqual(readFileSync(destination), FILE);
  });

  it('stops at the reported size even when the last chunk is full', async () => {
    const { fetch, asked } = server();
    await downloadInChunks('abc123', join(dir, 'data.bin'), fetch, { chunkSize: 125 });
    assert.deepEqual(asked, [
      [0, 125],
      [125, 125],
    ]);
  });

  it('takes chunks without a start or a length as they come', async () => {
    const { fetch } = server((chunk) => ({ bytes: chunk.bytes }));
    const result = await downloadInChunks('abc123', join(dir, 'data.bin'), fetch, { chunkSize: 100 });
    assert.equal(result.bytes, FILE.length);
  });

  for (const [what, tamper, message] of [
    [
      'a chunk from another place',
      (chunk: { start: number; length: number; bytes: Buffer }, call: number) =>
        call === 2 ? { ...chunk, start: chunk.start + 1 } : chunk,
      /the server sent the chunk at byte 101 instead of 100/,
    ],
    [
      'a chunk whose length is not what it carries',
      (chunk: { start: number; length: number; bytes: Buffer }, call: number) =>
        call === 2 ? { ...chunk, length: chunk.length - 1 } : chunk,
      /the chunk at byte 100 says 99 bytes but carries 100/,
    ],
  ] as const) {
    it(`refuses ${what}, keeping the bytes before it to resume`, async () => {
      const { fetch } = server(tamper);
      const destination = join(dir, 'data.bin');
      await assert.rejects(
        downloadInChunks('abc123', destination, fetch, { chunkSize: 100 }),
        (error: unknown) => {
          assert.ok(error instanceof ChannelDownloadError, String(error));
          assert.match(error.message, message);
          assert.equal(error.partialBytes, 100);
          return true;
        },
      );
      assert.equal(existsSync(destination), false, 'nothing under the final name');
      assert.equal(existsSync(`${destination}.part`), true, 'the first chunk is kept to resume');
    });
  }

  it('a download cancelled after some chunks drops them unless told to keep them', async () => {
    for (const keep of [false, true]) {
      const controller = new AbortController();
      const { fetch } = server((chunk, call) => {
        if (call === 2) controller.abort();
        return chunk;
      });
      const destination = join(dir, `data-${String(keep)}.bin`);
      await assert.rejects(
        downloadInChunks('abc123', destination, fetch, {
          chunkSize: 100,
          signal: controller.signal,
          keepPartialOnCancel: keep,
        }),
        (error: unknown) => {
          assert.ok(error instanceof CancelledError, String(error));
          assert.match(error.message, /filedata/);
          return true;
        },
      );
      assert.equal(existsSync(`${destination}.part`), keep, `keep: ${String(keep)}`);
      assert.equal(existsSync(destination), false);
    }
  });

  it('a download cancelled before its first byte leaves nothing, even when told to keep what it has', async () => {
    const controller = new AbortController();
    controller.abort();
    const destination = join(dir, 'data.bin');
    await assert.rejects(
      downloadInChunks('abc123', destination, server().fetch, {
        signal: controller.signal,
        keepPartialOnCancel: true,
      }),
      CancelledError,
    );
    assert.equal(existsSync(`${destination}.part`), false);
    assert.equal(existsSync(`${destination}.part.json`), false);
  });

  it('a fetch that fails because the caller gave up is a cancel, named by the request without its method twice', async () => {
    const controller = new AbortController();
    const fetch: FetchChunk = () => {
      controller.abort();
      return Promise.reject(new Error('This operation was aborted'));
    };
    await assert.rejects(
      downloadInChunks(
        'abc123',
        join(dir, 'data.bin'),
        fetch,
        { signal: controller.signal },
        'GET /filedata/abc',
      ),
      (error: unknown) =>
        error instanceof CancelledError && error.message === 'GET /filedata/abc was cancelled',
    );
  });

  it('starts again when the kept bytes belong to another file the short id also names', async () => {
    // Kept bytes of abc123 (the first chunks), then the server answers the same short id with abc999:
    // same size and edit time, other bytes.
    const controller = new AbortController();
    const first = server((chunk, call) => {
      if (call === 2) controller.abort();
      return chunk;
    });
    const destination = join(dir, 'data.bin');
    await assert.rejects(
      downloadInChunks('abc', destination, first.fetch, {
        chunkSize: 100,
        signal: controller.signal,
        keepPartialOnCancel: true,
      }),
      CancelledError,
    );
    const other = Buffer.from('abcdefghij'.repeat(25));
    const { fetch, asked: ranges } = server(undefined, { bytes: other, hash: 'abc999' });
    const result = await downloadInChunks('abc', destination, fetch, { chunkSize: 100 });
    const asked = ranges.map(([start]) => start);
    assert.equal(result.hash, 'abc999');
    assert.deepEqual(readFileSync(destination), other, 'no bytes of the other file');
    assert.ok(
      (asked[0] ?? 0) > 0,
      `it asked where the kept bytes ended, then saw another file: ${asked.join(',')}`,
    );
    assert.ok(asked.includes(0), 'and started again from the first byte');
  });

  it('a download cancelled before it starts sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const { fetch, asked } = server();
    await assert.rejects(
      downloadInChunks(
        'abc123',
        join(dir, 'data.bin'),
        fetch,
        { signal: controller.signal },
        'GET /filedata/abc',
      ),
      (error: unknown) => error instanceof CancelledError && /\/filedata\/abc/.test(error.message),
    );
    assert.deepEqual(asked, []);
  });
});
