// Certificates and proxies at the transport: a certificate no authority vouches for is refused
// unless its CA file is given or it was pinned for this host; a pin trusts that certificate only;
// a name that does not match is refused; proxies come from http.proxy or the environment, minus
// the hosts noProxy names.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { type Server as HttpsServer, createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, rootCertificates } from 'node:tls';
import {
  type CertificateInfo,
  ForgeError,
  HttpTransport,
  NetworkError,
  type NetworkSettings,
  createDispatcher,
  describeCertificate,
  hostOf,
  inspectCertificate,
  pinOf,
  selectProxy,
  tlsOptionsFor,
} from '../../../src/api/http';
import {
  type ConnectProxy,
  type TestCertificate,
  listen,
  makeCaSignedCertificate,
  makeCertificate,
  startConnectProxy,
} from '../../support/tlsFront';

describe('network settings: certificates and proxy', function () {
  this.timeout(30_000);
  let dir: string;
  let certificate: TestCertificate;
  let other: TestCertificate;
  let misnamed: TestCertificate;
  const servers: HttpsServer[] = [];
  let httpsUrl: string;
  let otherUrl: string;
  let misnamedUrl: string;
  let proxy: ConnectProxy;

  async function serve(cert: TestCertificate): Promise<string> {
    const server = createHttpsServer({ key: cert.key, cert: cert.cert }, (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      response.end(JSON.stringify({ path: request.url }));
    });
    servers.push(server);
    return `https://127.0.0.1:${await listen(server)}`;
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'forge-tls-'));
    certificate = makeCertificate(dir);
    other = makeCertificate(dir, { tag: '-other' });
    misnamed = makeCertificate(dir, { tag: '-misnamed', name: 'forge.example' });
    httpsUrl = await serve(certificate);
    otherUrl = await serve(other);
    misnamedUrl = await serve(misnamed);
    proxy = await startConnectProxy();
  });

  after(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await proxy.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function get(url: string, settings: Omit<NetworkSettings, 'serverUrl'>): Promise<unknown> {
    const transport = new HttpTransport({
      baseUrl: url,
      apiPrefix: '/api/v4',
      credentials: { kind: 'private-token', token: 'glpat-network-test-token' },
      dispatcher: await createDispatcher({ serverUrl: url, ...settings }),
      retry: { maxRetries: 0 },
    });
    try {
      return (await transport.requestJson({ method: 'GET', path: '/version' })).data;
    } finally {
      await transport.close();
    }
  }

  async function refused(url: string, settings: Omit<NetworkSettings, 'serverUrl'>): Promise<NetworkError> {
    const error = await get(url, settings).catch((caught: unknown) => caught);
    assert.ok(error instanceof NetworkError, String(error));
    assert.match(error.message, /certificate is not trusted.*fingerprint.*CA file/s);
    return error;
  }

  it('refuses a self-signed certificate by default, saying how to trust it', async () => {
    await refused(httpsUrl, {});
  });

  it('accepts it with the CA file', async () => {
    assert.deepEqual(await get(httpsUrl, { caFile: certificate.certFile }), { path: '/api/v4/version' });
  });

  it('reads the certificate for the user to decide: subject, issuer, validity, fingerprint, name', async () => {
    const info = await inspectCertificate(httpsUrl);
    assert.equal(info.host, hostOf(httpsUrl));
    assert.match(info.subject, /CN=127\.0\.0\.1/);
    assert.equal(info.selfSigned, true);
    assert.equal(info.nameMatches, true);
    assert.equal(info.problem, 'DEPTH_ZERO_SELF_SIGNED_CERT');
    assert.match(info.fingerprint256, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const text = describeCertificate(info);
    for (const part of ['Host:', 'Subject:', 'Issuer:', 'Valid:', 'SHA-256:', 'Name: matches']) {
      assert.ok(text.includes(part), text);
    }
    const wrong = await inspectCertificate(misnamedUrl);
    assert.equal(wrong.nameMatches, false);
    assert.match(describeCertificate(wrong), /Name: does NOT match 127\.0\.0\.1/);
  });

  it('accepts the pinned certificate, and only for the host it was pinned for', async () => {
    const pin = pinOf(await inspectCertificate(httpsUrl));
    assert.deepEqual(await get(httpsUrl, { pinnedCertificates: [pin] }), { path: '/api/v4/version' });
    // The same pin says nothing about another host, even one serving the very same certificate.
    await refused(otherUrl, { pinnedCertificates: [pin] });
  });

  it('refuses another self-signed certificate on a host whose certificate was pinned', async () => {
    const pin = pinOf(await inspectCertificate(httpsUrl));
    // As if `other` now answered on the pinned host: same host, different certificate.
    const forOther = { ...pin, host: hostOf(otherUrl) };
    await refused(otherUrl, { pinnedCertificates: [forOther] });
  });

  it('refuses a certificate whose name does not match, even from a trusted CA file', async () => {
    await refused(misnamedUrl, { caFile: misnamed.certFile });
    // Pinned after the user saw "Name: does NOT match", it is accepted.
    const pin = pinOf(await inspectCertificate(misnamedUrl));
    assert.deepEqual(await get(misnamedUrl, { pinnedCertificates: [pin] }), { path: '/api/v4/version' });
  });

  it('says when the CA file cannot be read', async () => {
    await assert.rejects(
      createDispatcher({ serverUrl: httpsUrl, caFile: join(dir, 'missing.pem') }),
      (error: unknown) => {
        assert.ok(error instanceof ForgeError);
        assert.match(error.message, /Cannot read the CA file .*missing\.pem/);
        return true;
      },
    );
  });

  it('goes through the proxy, with the custom CA, and with a pin', async () => {
    proxy.tunnels.length = 0;
    assert.deepEqual(await get(httpsUrl, { caFile: certificate.certFile, proxyUrl: proxy.url }), {
      path: '/api/v4/version',
    });
    const pin = pinOf(await inspectCertificate(httpsUrl));
    assert.deepEqual(await get(httpsUrl, { pinnedCertificates: [pin], proxyUrl: proxy.url }), {
      path: '/api/v4/version',
    });
    await refused(otherUrl, {
      pinnedCertificates: [{ ...pin, host: hostOf(otherUrl) }],
      proxyUrl: proxy.url,
    });
    assert.ok(proxy.tunnels.includes(new URL(httpsUrl).host));
  });

  it("checks an https proxy's own certificate unless proxyStrictSsl is off", async () => {
    const tlsProxy = await startConnectProxy(other);
    try {
      for (const strict of [undefined, true]) {
        const error = await get(httpsUrl, {
          caFile: certificate.certFile,
          proxyUrl: tlsProxy.url,
          ...(strict === undefined ? {} : { proxyStrictSsl: strict }),
        }).catch((caught: unknown) => caught);
        assert.ok(error instanceof NetworkError, `proxyStrictSsl ${String(strict)}: ${String(error)}`);
      }
      assert.deepEqual(tlsProxy.tunnels, [], 'no tunnel through a proxy whose certificate is not trusted');
      assert.deepEqual(
        await get(httpsUrl, { caFile: certificate.certFile, proxyUrl: tlsProxy.url, proxyStrictSsl: false }),
        { path: '/api/v4/version' },
      );
      assert.deepEqual(tlsProxy.tunnels, [new URL(httpsUrl).host]);
    } finally {
      await tlsProxy.close();
    }
  });

  it('reads a certificate a CA signed: issuer and subject of several attributes, not self-signed', async () => {
    const { leaf, ca } = makeCaSignedCertificate(dir);
    const url = await serve(leaf);
    const info = await inspectCertificate(url, { ca: ca.cert });
    assert.equal(info.subject, 'CN=127.0.0.1, O=Forge, OU=a+b');
    assert.equal(info.issuer, 'CN=Forge Test CA, O=Forge Tests');
    assert.equal(info.selfSigned, false);
    assert.equal(info.problem, undefined);
    assert.doesNotMatch(describeCertificate(info), /self-signed/);
    assert.deepEqual(await get(url, { caFile: ca.certFile }), { path: '/api/v4/version' });
  });

  it('names the server to TLS (SNI) for a host name, never for an address', async () => {
    // Called during the client's hello, only when it names a server.
    const names: string[] = [];
    const server = createTlsServer({
      key: certificate.key,
      cert: certificate.cert,
      SNICallback: (name, done) => {
        names.push(name);
        done(null, undefined);
      },
    });
    server.on('secureConnection', (socket) => socket.end());
    server.on('tlsClientError', () => undefined);
    const port = await listen(server as unknown as HttpsServer);
    try {
      await inspectCertificate(`https://127.0.0.1:${port}`);
      await inspectCertificate(`https://localhost:${port}`);
      assert.deepEqual(names, ['localhost']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('certificate details and TLS options', () => {
  const info: CertificateInfo = {
    host: '[::1]:8443',
    subject: '',
    issuer: '',
    validFrom: 'Nov 27 00:00:00 2026 GMT',
    validTo: 'Nov 28 00:00:00 2026 GMT',
    fingerprint256: 'AB:CD',
    pem: '',
    nameMatches: true,
    selfSigned: true,
    problem: undefined,
  };

  it('says (none) for an empty subject or issuer, and names an IPv6 host without its port', () => {
    assert.equal(
      describeCertificate(info),
      [
        'Host: [::1]:8443',
        'Subject: (none)',
        'Issuer: (none) (self-signed)',
        'Valid: Nov 27 00:00:00 2026 GMT to Nov 28 00:00:00 2026 GMT',
        'SHA-256: AB:CD',
        'Name: matches [::1]',
      ].join('\n'),
    );
    assert.match(describeCertificate({ ...info, nameMatches: false }), /Name: does NOT match \[::1\]$/);
  });

  it("trusts the system's roots, the CA file and the host's pins together, and only the host's", () => {
    const pin = { host: 'forge.example:443', fingerprint256: 'AB', pem: 'PIN', subject: 'CN=x', validTo: '' };
    const elsewhere = { ...pin, host: 'other.example:443', pem: 'OTHER' };
    const pinned = tlsOptionsFor('https://forge.example', { pinned: [pin, elsewhere] });
    assert.deepEqual(pinned.ca, [...rootCertificates, 'PIN']);
    const both = tlsOptionsFor('https://forge.example', { ca: 'CA', pinned: [pin] });
    assert.deepEqual(both.ca, [...rootCertificates, 'CA', 'PIN']);
    assert.deepEqual(tlsOptionsFor('https://forge.example', { ca: 'CA', pinned: [elsewhere] }), {
      ca: 'CA',
      rejectUnauthorized: true,
    });
  });
});

describe('proxy selection', () => {
  const env = {
    HTTPS_PROXY: 'http://corp:3128',
    HTTP_PROXY: 'http://plain:8080',
    NO_PROXY: 'internal.example,.lan',
  };

  it('takes http.proxy first, then the environment by scheme', () => {
    assert.equal(selectProxy('https://forge.example', { httpProxy: 'http://vs:1', env }), 'http://vs:1');
    assert.equal(selectProxy('https://forge.example', { env }), 'http://corp:3128');
    assert.equal(selectProxy('http://forge.example', { env }), 'http://plain:8080');
    assert.equal(
      selectProxy('https://forge.example', { env: { https_proxy: 'http://lower:1' } }),
      'http://lower:1',
    );
    assert.equal(
      selectProxy('https://forge.example', { env: { ALL_PROXY: 'http://all:1' } }),
      'http://all:1',
    );
    assert.equal(selectProxy('https://forge.example', {}), undefined);
  });

  it('goes direct to the hosts NO_PROXY or http.noProxy name', () => {
    assert.equal(selectProxy('https://internal.example/x', { env }), undefined);
    assert.equal(selectProxy('https://git.internal.example', { env }), undefined);
    assert.equal(selectProxy('https://box.lan', { env }), undefined);
    assert.equal(selectProxy('https://notinternal.example', { env }), 'http://corp:3128');
    assert.equal(
      selectProxy('https://forge.example', { httpProxy: 'http://vs:1', noProxy: ['forge.example'], env }),
      undefined,
    );
    assert.equal(
      selectProxy('https://forge.example:8443', { env, noProxy: ['forge.example:443'] }),
      'http://corp:3128',
    );
    assert.equal(
      selectProxy('https://forge.example:8443', { env, noProxy: ['forge.example:8443'] }),
      undefined,
    );
    assert.equal(selectProxy('https://anything.example', { env: { ...env, NO_PROXY: '*' } }), undefined);
    assert.equal(selectProxy('https://a.example', { env, noProxy: ['*.example'] }), undefined);
  });
});
