import { type FileHandle, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { CancelledError, type DownloadProgress } from '../http';
import { ChannelDownloadError } from './errors';
import type { Attach } from './schemas';
import * as l10n from '@vscode/l10n';

/** One chunk as `filedata` returned it, bytes decoded. */
export interface FileChunk {
  attach: Attach;
  bytes: Buffer;
}

export type FetchChunk = (
  start: number,
  length: number,
  signal: AbortSignal | undefined,
) => Promise<FileChunk>;

export interface ChunkedDownloadProgress extends DownloadProgress {
  /** Chunks fetched by this call. */
  chunks: number;
  /** Where this call started: the bytes a previous attempt left in the `.part` file. */
  resumedFromBytes: number;
}

export interface ChunkedDownloadOptions {
  /** Bytes asked for per request, before base64 (default 512 KiB). */
  chunkSize?: number;
  /** The size the finished file must have; defaults to the `filesize` the server reports. */
  expectedSize?: number;
  signal?: AbortSignal;
  onProgress?: (progress: ChunkedDownloadProgress) => void;
  /** Continue from a `.part` file a failed attempt left behind (default true). */
  resume?: boolean;
  /** Keep the `.part` file when cancelled, so a later call resumes (default false: cancel discards). */
  keepPartialOnCancel?: boolean;
}

export interface ChunkedDownloadResult {
  path: string;
  bytes: number;
  /** Chunks fetched by this call. */
  chunks: number;
  resumedFromBytes: number;
  /** The full hash of the file that was saved. */
  hash: string;
}

export const DEFAULT_CHUNK_SIZE = 512 * 1024;

/** What the sidecar next to the `.part` file records after every complete chunk. */
interface ResumeState {
  version: 1;
  hash: string;
  filesize: number;
  edited: string | undefined;
  completedBytes: number;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}

async function readResumeState(path: string): Promise<ResumeState | undefined> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<ResumeState>;
    if (
      value.version === 1 &&
      typeof value.hash === 'string' &&
      typeof value.filesize === 'number' &&
      typeof value.completedBytes === 'number' &&
      Number.isSafeInteger(value.completedBytes) &&
      value.completedBytes >= 0
    ) {
      return {
        version: 1,
        hash: value.hash,
        filesize: value.filesize,
        edited: typeof value.edited === 'string' ? value.edited : undefined,
        completedBytes: value.completedBytes,
      };
    }
  } catch {
    // No sidecar or an unreadable one: start over.
  }
  return undefined;
}

async function writeResumeState(path: string, state: ResumeState): Promise<void> {
  const temporary = `${path}.tmp`;
  await writeFile(temporary, JSON.stringify(state));
  await rename(temporary, path);
}

/** Where a kept download of `fileId` resumes: its sidecar and the bytes on disk agree. */
async function resumePoint(
  fileId: string,
  partial: string,
  sidecar: string,
): Promise<{ state: ResumeState; offset: number } | undefined> {
  const state = await readResumeState(sidecar);
  if (!state || !state.hash.startsWith(fileId)) return undefined;
  const partSize = await sizeOf(partial);
  if (partSize === undefined) return undefined;
  return { state, offset: Math.min(partSize, state.completedBytes) };
}

function refuseOtherFile(label: string, fileId: string, attach: FileChunk['attach']): void {
  if (!attach.hash.startsWith(fileId)) {
    throw new ChannelDownloadError(
      l10n.t(
        '{0}: asked for file {1} but the server sent {2}; nothing was saved',
        label,
        fileId,
        attach.hash,
      ),
      0,
    );
  }
}

function refuseFolder(label: string, attach: FileChunk['attach']): void {
  if (attach.is_dir === true) {
    throw new ChannelDownloadError(
      l10n.t('{0}: {1} is a folder, not a file; nothing was saved', label, attach.filename),
      0,
    );
  }
}

function wrongSize(label: string, hash: string, bytes: number, expected: number): ChannelDownloadError {
  return new ChannelDownloadError(
    l10n.t(
      '{0}: {1} came to {2} bytes but {3} were expected; the file was discarded',
      label,
      hash.slice(0, 12),
      bytes,
      expected,
    ),
    0,
  );
}

/** A chunk must start where the last ended and carry as many bytes as it says. */
function checkPlacement(attach: FileChunk['attach'], bytes: Uint8Array, offset: number): void {
  if (attach.start !== undefined && attach.start !== offset) {
    throw new Error(l10n.t('the server sent the chunk at byte {0} instead of {1}', attach.start, offset));
  }
  if (attach.length !== undefined && attach.length !== bytes.length) {
    throw new Error(
      l10n.t('the chunk at byte {0} says {1} bytes but carries {2}', offset, attach.length, bytes.length),
    );
  }
}

function changedSince(state: ResumeState, attach: FileChunk['attach'], edited: string | undefined): boolean {
  return state.hash !== attach.hash || state.filesize !== attach.filesize || state.edited !== edited;
}

function refuseEndlessRestarts(label: string, restarts: number): void {
  if (restarts > MAX_RESTARTS) {
    throw new ChannelDownloadError(
      l10n.t(
        '{0}: the file kept changing on the server while it was downloaded ({1} times); nothing was saved, try again when it is finished',
        label,
        restarts,
      ),
      0,
    );
  }
}

/**
 * The error a failed download ends with: a cancel stays a cancel (the kept bytes dropped unless
 * asked to keep them), a failure before any byte leaves nothing, a later one keeps the bytes to
 * resume from.
 */
async function failure(
  error: unknown,
  context: {
    label: string;
    partial: string;
    offset: number;
    filesize: number | undefined;
    discard: () => Promise<void>;
    options: ChunkedDownloadOptions;
  },
): Promise<Error> {
  const { label, partial, offset, discard, options } = context;
  if (error instanceof CancelledError || options.signal?.aborted) {
    if (options.keepPartialOnCancel !== true || offset === 0) await discard();
    return error instanceof CancelledError ? error : new CancelledError('GET', label.replace(/^GET /, ''));
  }
  if (error instanceof ChannelDownloadError) {
    if (error.partialBytes === 0) await discard();
    return error;
  }
  if (offset === 0) {
    await discard();
    return new ChannelDownloadError(
      l10n.t('{0} failed before any byte was saved: {1}', label, describe(error)),
      0,
      {
        cause: error,
      },
    );
  }
  return new ChannelDownloadError(
    l10n.t(
      '{0} broke off after {1} of {2} bytes ({3}); the bytes are kept in {4} and the next download of this file resumes there',
      label,
      offset,
      context.filesize ?? '?',
      describe(error),
      partial,
    ),
    offset,
    { cause: error },
  );
}

/** Starting again because the file changed on the server: at most this many times. */
const MAX_RESTARTS = 3;

/**
 * Downloads a file through `filedata` chunk by chunk into `destination.part`, recording after
 * every complete chunk how far it got in `destination.part.json`. A failed attempt keeps both, and
 * the next call with the same destination asks only for the chunks still missing. The finished
 * file must have the expected size before it gets its final name; otherwise it is discarded.
 */
export async function downloadInChunks(
  fileId: string,
  destination: string,
  fetchChunk: FetchChunk,
  options: ChunkedDownloadOptions = {},
  label = 'GET /filedata',
): Promise<ChunkedDownloadResult> {
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_CHUNK_SIZE));
  const partial = `${destination}.part`;
  const sidecar = `${destination}.part.json`;
  const discard = async (): Promise<void> => {
    await rm(partial, { force: true });
    await rm(sidecar, { force: true });
  };

  const resumed = options.resume === false ? undefined : await resumePoint(fileId, partial, sidecar);
  let state = resumed?.state;
  let offset = resumed?.offset ?? 0;
  if (!state) await discard();
  const resumedFromBytes = offset;

  let handle: FileHandle | undefined;
  let chunks = 0;
  let restarts = 0;
  try {
    handle = await open(partial, state ? 'r+' : 'w');
    // Bytes past the last recorded chunk may be half a chunk: drop them.
    await handle.truncate(offset);
    for (;;) {
      if (options.signal?.aborted) throw new CancelledError('GET', label.replace(/^GET /, ''));
      const requested = offset;
      const { attach, bytes } = await fetchChunk(requested, chunkSize, options.signal);
      refuseOtherFile(label, fileId, attach);
      const edited = attach.edited ?? undefined;
      if (state && changedSince(state, attach, edited)) {
        // The file changed on the server since the bytes on disk were fetched: start again, a few
        // times at most (a file that keeps growing or changing would otherwise never end).
        restarts++;
        refuseEndlessRestarts(label, restarts);
        state = undefined;
        offset = 0;
        await handle.truncate(0);
        if (requested !== 0) continue;
      }
      refuseFolder(label, attach);
      state ??= {
        version: 1,
        hash: attach.hash,
        filesize: attach.filesize,
        edited,
        completedBytes: 0,
      };
      checkPlacement(attach, bytes, offset);
      if (bytes.length > 0) {
        await handle.write(bytes, 0, bytes.length, offset);
        await handle.datasync();
      }
      offset += bytes.length;
      chunks++;
      state.completedBytes = offset;
      await writeResumeState(sidecar, state);
      options.onProgress?.({ receivedBytes: offset, totalBytes: state.filesize, chunks, resumedFromBytes });
      // A chunk shorter than asked is the end; so is reaching the size the server reported.
      if (bytes.length < chunkSize || offset >= state.filesize) break;
    }
    await handle.close();
    handle = undefined;

    const expected = options.expectedSize ?? state.filesize;
    if (offset !== expected) {
      await discard();
      throw wrongSize(label, state.hash, offset, expected);
    }
    await rename(partial, destination);
    await rm(sidecar, { force: true });
    return { path: destination, bytes: offset, chunks, resumedFromBytes, hash: state.hash };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    throw await failure(error, { label, partial, offset, filesize: state?.filesize, discard, options });
  }
}
