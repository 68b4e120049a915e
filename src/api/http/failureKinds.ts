/** What a request that got no reply failed of: cancelled, timed out, reset, untrusted, unreachable. */
import { CancelledError, NetworkError, TimeoutError, UncertainWriteError } from './errors';
import { redact } from './redact';

import { CONNECTION_RESET_CODES, CERTIFICATE_CODES, NEVER_CONNECTED_CODES, errorCode } from './requestRules';
import type { RequestOptions } from './transportTypes';
import * as l10n from '@vscode/l10n';

export function classifyFailure(
  error: unknown,
  options: Pick<RequestOptions, 'method' | 'signal'>,
  path: string,
  timedOut: boolean,
  timeoutMs: number,
  attempts: number,
  secrets: readonly string[],
): { error: Error; retryable: boolean } {
  const { method } = options;
  if (options.signal?.aborted) return { error: new CancelledError(method, path), retryable: false };
  const code = errorCode(error) ?? 'UNKNOWN';
  const idempotent = method === 'GET' || method === 'HEAD';
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    // A write that got no answer in time may still have been carried out.
    if (!idempotent) {
      return { error: new UncertainWriteError(method, path, 'TIMEOUT', timeoutMs), retryable: false };
    }
    return { error: new TimeoutError(method, path, timeoutMs), retryable: false };
  }
  if (CONNECTION_RESET_CODES.has(code)) {
    if (!idempotent) return { error: new UncertainWriteError(method, path, code), retryable: false };
    return {
      error: new NetworkError(method, path, code, l10n.t('the connection was reset'), attempts),
      retryable: true,
    };
  }
  if (CERTIFICATE_CODES.has(code)) {
    return {
      error: new NetworkError(
        method,
        path,
        code,
        l10n.t(
          "the server's certificate is not trusted. Check its fingerprint and trust that certificate, or add its CA file, in the account's network settings",
        ),
      ),
      retryable: false,
    };
  }
  const detail = redact(error instanceof Error ? error.message : String(error), secrets);
  return {
    error: new NetworkError(
      method,
      path,
      code,
      NEVER_CONNECTED_CODES.has(code) ? l10n.t('the server is unreachable') : detail,
      attempts,
    ),
    retryable: false,
  };
}
