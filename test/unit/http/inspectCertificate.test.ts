// The look-only TLS connection that shows a server's certificate before the user trusts it, against
// real TLS servers on 127.0.0.1 with certificates made at test time.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server as TlsServer } from 'node:tls';
import { ForgeError, inspectCertificate } from '../../../src/api/http';
import { type TestCertificate, makeCertificate } from '../../support/tlsFront';

const sockets = new Set<Socket>();

function listen(server: Server | TlsServer): Promise<number> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

describe('inspectCertificate', function () {
  this.timeout(20_000);
  let dir: string;
  let own: TestCertificate;
  let misnamed: TestCertificate;
  const servers: (Server | TlsServer)[] = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'forge-inspect-'));
    own = makeCertificate(dir);
    misnamed = makeCertificate(dir, { name: 'other.example', tag: '-other' });
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  async function tlsServer(certificate: TestCertificate): Promise<string> {
    const server = createServer({ key: certificate.key, cert: certificate.cert }, (socket) => socket.end());
    server.on('tlsClientError', () => undefined);
    servers.push(server);
    return `https://127.0.0.1:${await listen(server)}`;
  }

  it('reads a self-signed certificate for the address: subject, issuer, dates, fingerprint, PEM', async () => {
    const url = await tlsServer(own);
    const info = await inspectCertificate(url);
    const expected = new X509Certificate(own.cert);
    assert.equal(info.host, url.replace('https://', ''));
    assert.equal(info.subject, 'CN=127.0.0.1');
    assert.equal(info.issuer, 'CN=127.0.0.1');
    assert.equal(info.selfSigned, true);
    assert.equal(info.nameMatches, true);
    assert.equal(info.problem, 'DEPTH_ZERO_SELF_SIGNED_CERT');
    assert.equal(info.fingerprint256, expected.fingerprint256);
    assert.equal(info.validTo, expected.validTo);
    assert.equal(info.validFrom, expected.validFrom);
    assert.equal(new X509Certificate(info.pem).fingerprint256, expected.fingerprint256);
    const body = info.pem.split('\n').slice(1, -2);
    assert.ok(
      body.length > 1 && body.slice(0, -1).every((line) => line.length === 64),
      'base64 in lines of 64',
    );
    assert.match(info.pem, /^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+\n-----END CERTIFICATE-----\n$/);
  });

  it('has no problem with a certificate the given CA vouches for', async () => {
    const url = await tlsServer(own);
    const info = await inspectCertificate(url, { ca: own.cert });
    assert.equal(info.problem, undefined);
  });

  it('says when the name does not match, even when the CA vouches for it', async () => {
    const url = await tlsServer(misnamed);
    const info = await inspectCertificate(url, { ca: misnamed.cert });
    assert.equal(info.nameMatches, false);
    assert.equal(info.subject, 'CN=other.example');
    assert.equal(info.problem, 'ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('says why it could not read a certificate: nothing listening, or no answer in time', async () => {
    const closed = createNetServer();
    const port = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    await assert.rejects(inspectCertificate(`https://127.0.0.1:${port}`), (error: unknown) => {
      assert.ok(error instanceof ForgeError);
      assert.match(
        error.message,
        new RegExp(`^Could not read the certificate of 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
      );
      return true;
    });
    const silent = createNetServer(() => undefined);
    servers.push(silent);
    const silentPort = await listen(silent);
    await assert.rejects(inspectCertificate(`https://127.0.0.1:${silentPort}`, { timeoutMs: 200 }), {
      message: `Could not read the certificate of 127.0.0.1:${silentPort}: no answer within 200 ms`,
    });
  });
});
