import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Server, createServer as createHttpServer } from 'node:http';
import { type Server as HttpsServer, createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForgeError, HttpTransport, NetworkError, createDispatcher } from '../../../src/api/http';

/** A certificate for 127.0.0.1 made at test time, so nothing secret is committed. */
function makeCertificate(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
    ].concat(['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1']),
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

function listen(server: Server | HttpsServer): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

describe('network settings: certificates and proxy', function () {
  this.timeout(20_000);
  let dir: string;
  let certFile: string;
  let https: HttpsServer;
  let httpsUrl: string;
  let proxy: Server;
  let proxyUrl: string;
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'forge-tls-'));
    const certificate = makeCertificate(dir);
    certFile = certificate.certFile;
    https = createHttpsServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ path: request.url }));
    });
    httpsUrl = `https://127.0.0.1:${await listen(https)}`;
    // A minimal CONNECT proxy, as corporate proxies are.
    proxy = createHttpServer((_request, response) => response.writeHead(405).end());
    proxy.on('connect', (request: { url?: string }, client: Socket, head: Buffer) => {
      const target = request.url ?? '';
      tunnels.push(target);
      const [host, port] = target.split(':');
      const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => sockets.delete(socket));
      }
    });
    proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;
  });

  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => https.close(resolve));
    await new Promise((resolve) => proxy.close(resolve));
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
    tunnels.length = 0;
    assert.deepEqual(await get({ caFile: certFile, proxyUrl }), { path: '/api/v4/version' });
    assert.deepEqual(tunnels, [new URL(httpsUrl).host]);
  });
});
