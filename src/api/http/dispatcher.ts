import { readFile } from 'node:fs/promises';
import { type PinnedCertificate, tlsOptionsFor } from './certificates';
import { type Dispatcher, loadUndici } from './undici';
import { ForgeError } from './errors';
import * as l10n from '@vscode/l10n';

export interface NetworkSettings {
  /** The server the connections are for: pinned certificates count for its host only. */
  serverUrl: string;
  /** PEM file with extra certificate authorities to trust for this server. */
  caFile?: string | undefined;
  /** Certificates the user chose to trust, by fingerprint (see certificates.ts). */
  pinnedCertificates?: readonly PinnedCertificate[] | undefined;
  /** The proxy chosen by `selectProxy` (http.proxy, the environment, minus noProxy). */
  proxyUrl?: string | undefined;
  /** `http.proxyStrictSSL` = false stops verification towards the proxy only, never the server. */
  proxyStrictSsl?: boolean | undefined;
}

/** Builds the connection pool for one account: custom CA, pinned certificates, proxy. */
export async function createDispatcher(settings: NetworkSettings): Promise<Dispatcher> {
  let ca: string | undefined;
  if (settings.caFile) {
    try {
      ca = await readFile(settings.caFile, 'utf8');
    } catch (error) {
      throw new ForgeError(
        l10n.t(
          "Cannot read the CA file {0}: {1}. Check the path in the account's network settings.",
          settings.caFile,
          error instanceof Error ? error.message : String(error),
        ),
      );
    }
  }
  const tls = tlsOptionsFor(settings.serverUrl, { ca, pinned: settings.pinnedCertificates });
  const { Agent, ProxyAgent } = await loadUndici();
  if (settings.proxyUrl) {
    return new ProxyAgent({
      uri: settings.proxyUrl,
      requestTls: tls,
      proxyTls: { rejectUnauthorized: settings.proxyStrictSsl !== false },
      keepAliveTimeout: 30_000,
    });
  }
  return new Agent({ connect: tls, keepAliveTimeout: 30_000, connections: 16 });
}
