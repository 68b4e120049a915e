import { readFile } from 'node:fs/promises';
import { type Dispatcher, loadUndici } from './undici';
import { ForgeError } from './errors';

export interface NetworkSettings {
  /** PEM file with extra certificate authorities to trust for this server. */
  caFile?: string;
  /** Explicit opt-in: accept a self-signed or otherwise unverifiable certificate. */
  allowSelfSigned?: boolean;
  /** `http.proxy` from VS Code, e.g. `http://proxy:3128`. */
  proxyUrl?: string;
  /** `http.proxyStrictSSL` = false also disables verification towards the proxy. */
  proxyStrictSsl?: boolean;
}

/** Builds the connection pool for one account: custom CA, self-signed opt-in, proxy. */
export async function createDispatcher(settings: NetworkSettings): Promise<Dispatcher> {
  let ca: string | undefined;
  if (settings.caFile) {
    try {
      ca = await readFile(settings.caFile, 'utf8');
    } catch (error) {
      throw new ForgeError(
        `Cannot read the CA file ${settings.caFile}: ${error instanceof Error ? error.message : String(error)}. Check the path in the account's network settings.`,
      );
    }
  }
  const tls = {
    ...(ca !== undefined ? { ca } : {}),
    rejectUnauthorized: settings.allowSelfSigned !== true,
  };
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
