// Network helpers for tests: a certificate for 127.0.0.1 made at test time (nothing secret is
// committed), an HTTPS front that passes every request on to a plain HTTP server (so the fake forge
// can be reached over TLS), and a minimal CONNECT proxy that records the tunnels it opened.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { type Server, createServer as createHttpServer, request as httpRequest } from 'node:http';
import { type Server as HttpsServer, createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { join } from 'node:path';

export interface TestCertificate {
  key: string;
  cert: string;
  certFile: string;
}

/**
 * A self-signed certificate for 127.0.0.1 (or for `name`, which then does not match the address),
 * written into `dir` under `tag` so several can live side by side.
 */
export function makeCertificate(dir: string, options: { name?: string; tag?: string } = {}): TestCertificate {
  const tag = options.tag ?? '';
  const keyFile = join(dir, `key${tag}.pem`);
  const certFile = join(dir, `cert${tag}.pem`);
  const name = options.name ?? '127.0.0.1';
  const altName = /^[\d.]+$/.test(name) ? `IP:${name}` : `DNS:${name}`;
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
    ].concat(['-subj', `/CN=${name}`, '-addext', `subjectAltName=${altName}`]),
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

/**
 * A certificate for 127.0.0.1 signed by a CA made alongside (so issuer and subject differ), with a
 * subject of several attributes, one of them given twice (`OU=a/OU=b`).
 */
export function makeCaSignedCertificate(dir: string): { leaf: TestCertificate; ca: TestCertificate } {
  const file = (name: string): string => join(dir, name);
  const run = (args: string[]): void => {
    execFileSync('openssl', args, { stdio: 'ignore' });
  };
  run(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
    ].concat(['-days', '1', '-subj', '/CN=Forge Test CA/O=Forge Tests']),
  );
  run(
    ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('leaf.key'), '-out', file('leaf.csr')].concat([
      '-subj',
      '/CN=127.0.0.1/O=Forge/OU=a/OU=b',
    ]),
  );
  writeFileSync(file('leaf.ext'), 'subjectAltName=IP:127.0.0.1\n');
  run(
    ['x509', '-req', '-in', file('leaf.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key')].concat([
      '-CAcreateserial',
      '-out',
      file('leaf.pem'),
      '-days',
      '1',
      '-extfile',
      file('leaf.ext'),
    ]),
  );
  const read = (name: string): string => readFileSync(file(name), 'utf8');
  return {
    leaf: { key: read('leaf.key'), cert: read('leaf.pem'), certFile: file('leaf.pem') },
    ca: { key: read('ca.key'), cert: read('ca.pem'), certFile: file('ca.pem') },
  };
}

export function listen(server: Server | HttpsServer): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

/** Closes a server and every connection still open to it. */
export function closeServer(server: Server | HttpsServer, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

function trackSockets(server: Server | HttpsServer): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return sockets;
}

export interface TlsFront {
  url: string;
  /** Requests that completed a TLS handshake and reached the front. */
  readonly requests: string[];
  /** From now on, new connections see this certificate (a renewed one, or a man in the middle's). */
  useCertificate(certificate: TestCertificate): void;
  close(): Promise<void>;
}

/** `https://127.0.0.1:<port>` in front of `target` (an http:// origin), with `certificate`. */
export async function startTlsFront(target: string, certificate: TestCertificate): Promise<TlsFront> {
  const upstream = new URL(target);
  const requests: string[] = [];
  const server = createHttpsServer({ key: certificate.key, cert: certificate.cert }, (incoming, outgoing) => {
    requests.push(`${incoming.method ?? 'GET'} ${incoming.url ?? '/'}`);
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (reply) => {
        outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  const sockets = trackSockets(server);
  const port = await listen(server);
  return {
    url: `https://127.0.0.1:${port}`,
    requests,
    useCertificate: (next) => {
      server.setSecureContext({ key: next.key, cert: next.cert });
      // Connections kept alive would go on with the old certificate.
      for (const socket of sockets) socket.destroy();
    },
    close: () => closeServer(server, sockets),
  };
}

export interface ConnectProxy {
  url: string;
  /** `host:port` of every tunnel asked for. */
  readonly tunnels: string[];
  close(): Promise<void>;
}

/**
 * A minimal CONNECT proxy, as corporate proxies are; anything but CONNECT is refused. With a
 * certificate it is an `https://` proxy (TLS to the proxy itself), as some companies run.
 */
export async function startConnectProxy(certificate?: TestCertificate): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const refuse = (_request: unknown, response: { writeHead(status: number): { end(): void } }): void =>
    response.writeHead(405).end();
  const server = certificate
    ? createHttpsServer({ key: certificate.key, cert: certificate.cert }, refuse)
    : createHttpServer(refuse);
  server.on('tlsClientError', () => undefined);
  server.on('connect', (request: { url?: string }, client: Socket, head: Buffer) => {
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
  const port = await listen(server);
  const scheme = certificate ? 'https' : 'http';
  return { url: `${scheme}://127.0.0.1:${port}`, tunnels, close: () => closeServer(server, sockets) };
}
