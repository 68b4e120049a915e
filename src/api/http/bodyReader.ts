/** Reads a reply's body within its size limit, naming what went wrong as the transport's errors. */
import type { Readable } from 'node:stream';
import {
  CancelledError,
  ForgeError,
  NetworkError,
  ReplyTooLargeError,
  TimeoutError,
  UncertainWriteError,
} from './errors';
import { BodyCollector } from './bodyCollector';

import { errorCode, headerValue } from './requestRules';
import type { BodyRead, HttpResponseInfo } from './transportTypes';
import * as l10n from '@vscode/l10n';

export async function readBody(
  body: Readable,
  info: HttpResponseInfo,
  read: BodyRead,
  path: () => string,
): Promise<{ bytes: Buffer; offset: number }> {
  const declared = Number(headerValue(info.headers, 'content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > read.limit) {
    body.destroy();
    throw new ReplyTooLargeError(read.method, path(), read.limit, read.kind, declared);
  }
  // A body declared shorter than what the caller has is not the one it has: keep all of it.
  const keepFrom = Number.isFinite(declared) && declared < (read.keepFrom ?? 0) ? 0 : read.keepFrom;
  const collector = new BodyCollector(keepFrom);
  // The caller's own failure in `onChunk`: passed on as it is, neither a cut-off reply nor retried.
  let callerFailure: { error: unknown } | undefined;
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      if (collector.size + buffer.length > read.limit) {
        body.destroy();
        throw new ReplyTooLargeError(read.method, path(), read.limit, read.kind);
      }
      collector.add(buffer);
      try {
        const paused = read.onChunk?.(buffer, collector.size - buffer.length);
        if (paused) await paused;
      } catch (error) {
        callerFailure = { error };
        break;
      }
    }
  } catch (error) {
    if (error instanceof ForgeError) throw error;
    if (read.signal?.aborted) throw new CancelledError(read.method, path());
    const code = errorCode(error) ?? 'UNKNOWN';
    // The request's own timer (a body that trickles forever) or undici's idle timer (a stall).
    const write = read.method !== 'GET' && read.method !== 'HEAD';
    if (read.timedOut() || code === 'UND_ERR_BODY_TIMEOUT') {
      if (write) throw new UncertainWriteError(read.method, path(), 'TIMEOUT', read.timeoutMs);
      throw new TimeoutError(read.method, path(), read.timeoutMs);
    }
    if (write) {
      // The server answered, so it acted; what it said is lost.
      throw new UncertainWriteError(read.method, path(), code);
    }
    throw new NetworkError(
      read.method,
      path(),
      code,
      l10n.t('the reply was cut off after {0} bytes', collector.size),
      read.attempts,
      'reply',
    );
  }
  if (callerFailure) throw callerFailure.error;
  return collector.finish();
}
