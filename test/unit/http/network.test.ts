import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { type Server as HttpsServer, createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForgeError, HttpTransport, NetworkError, createDispatcher } from '../../../src/api/http';
import { type ConnectProxy, listen, makeCertificate, startConnectProxy } from '../../support/tlsFront';

describe('network settings: certificates and proxy', function () {
  this.timeout(20_000);
  let dir: string;
  let certFile: string;
  let https: HttpsServer;
  let httpsUrl: string;
  let proxy: ConnectProxy;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'forge-tls-'));
    const certificate = makeCertificate(dir);
    certFile = certificate.certFile;
    https = createHttpsServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ path: request.url }));
    });
    httpsUrl = `https://127.0.0.1:${await listen(https)}`;
    proxy = await startConnectProxy();
  });

  after(async () => {
    await new Promise((resolve) => https.close(resolve));
    await proxy.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function get(dispatcherSettings: Parameters<typeof createDispatcher>[0]): Promise<unknown> {
    const transport = new HttpTransport({
      baseUrl: httpsUrl,
      apiPrefix: '/api/v4',
      credentials: { kind: 'private-token', token: 'glpat-network-test-token' },
      dispatcher: await createDispatcher(dispatcherSettings),
      retry: { maxRetries: 0 },
    });
    try {
      return (await transport.requestJson({ method: 'GET', path: '/version' })).data;
    } finally {
      await transport.close();
    }
  }

  it('refuses a self-signed certificate by default, explaining the settings', async () => {
    const error = await get({}).catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError, String(error));
    assert.match(error.message, /certificate is not trusted.*CA file.*self-signed/s);
  });

  it('accepts it with the CA file', async () => {
    assert.deepEqual(await get({ caFile: certFile }), { path: '/api/v4/version' });
  });

  it('accepts it with the explicit self-signed opt-in', async () => {
    assert.deepEqual(await get({ allowSelfSigned: true }), { path: '/api/v4/version' });
  });

  it('says when the CA file cannot be read', async () => {
    await assert.rejects(createDispatcher({ caFile: join(dir, 'missing.pem') }), (error: unknown) => {
      assert.ok(error instanceof ForgeError);
      assert.match(error.message, /Cannot read the CA file .*missing\.pem/);
      return true;
    });
  });

  it('goes through the proxy from http.proxy, with the custom CA', async () => {
    proxy.tunnels.length = 0;
    assert.deepEqual(await get({ caFile: certFile, proxyUrl: proxy.url }), { path: '/api/v4/version' });
    assert.deepEqual(proxy.tunnels, [new URL(httpsUrl).host]);
  });
});
