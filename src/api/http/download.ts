import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CancelledError, ForgeError } from './errors';
import type { StreamResponse } from './transport';
import * as l10n from '@vscode/l10n';

export interface DownloadProgress {
  receivedBytes: number;
  /** From `Content-Length`, when the server sends it. */
  totalBytes: number | undefined;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
}

export interface DownloadResult {
  path: string;
  bytes: number;
}

/**
 * Streams a reply body to `destination`. The bytes go to `destination.part` first and get the
 * final name only when complete, so a failed or cancelled download never looks finished.
 */
export async function saveStreamToFile(
  response: StreamResponse,
  destination: string,
  options: DownloadOptions = {},
  label = 'download',
): Promise<DownloadResult> {
  const partial = `${destination}.part`;
  let receivedBytes = 0;
  const totalBytes = response.contentLength;
  // undici's own idle timer ticks about every half second and fires up to a second late; this one
  // gives up on a stalled body when the idle timeout says.
  const idle = setTimeout(
    () =>
      response.body.destroy(
        new Error(l10n.t('Body Timeout Error: nothing for {0} ms', response.idleTimeoutMs)),
      ),
    response.idleTimeoutMs,
  );
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      idle.refresh();
      receivedBytes += chunk.length;
      options.onProgress?.({ receivedBytes, totalBytes });
      callback(null, chunk);
    },
  });
  try {
    await pipeline(response.body, counter, createWriteStream(partial), { signal: options.signal });
    if (totalBytes !== undefined && receivedBytes !== totalBytes) {
      throw new ForgeError(
        l10n.t('{0}: received {1} of {2} bytes; the file was discarded', label, receivedBytes, totalBytes),
      );
    }
    await rename(partial, destination);
    return { path: destination, bytes: receivedBytes };
  } catch (error) {
    response.body.destroy();
    await rm(partial, { force: true });
    // The label may already name the method (`GET /projects/:id/...`): do not say it twice.
    if (options.signal?.aborted) throw new CancelledError('GET', label.replace(/^GET /, ''));
    if (error instanceof ForgeError) throw error;
    throw new ForgeError(
      l10n.t(
        '{0} broke off after {1} bytes ({2}); nothing was saved',
        label,
        receivedBytes,
        error instanceof Error ? error.message : String(error),
      ),
    );
  } finally {
    clearTimeout(idle);
  }
}
