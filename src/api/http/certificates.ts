/*
 * Trusting one certificate, never every certificate (design.md section 6). A server whose
 * certificate no authority vouches for (self-signed, a private CA, a wrong name) is trusted only
 * after the user has seen that certificate and pinned its SHA-256 fingerprint for the account's
 * host: the pinned certificate joins the trusted roots, and its fingerprint excuses a name that
 * does not match. Any other certificate is still refused, and one that replaced a pinned one is
 * reported as changed.
 */
import {
  type ConnectionOptions,
  type PeerCertificate,
  checkServerIdentity,
  connect,
  rootCertificates,
} from 'node:tls';
import { ForgeError } from './errors';
import { isIpAddress } from './hostNames';
import * as l10n from '@vscode/l10n';

/** A certificate the user chose to trust for one host. */
export interface PinnedCertificate {
  /** `host:port` the certificate was seen on. */
  host: string;
  /** SHA-256 of the DER certificate, upper-case hex pairs joined by `:` (as Node reports it). */
  fingerprint256: string;
  /** The certificate itself (PEM): added to the trusted roots for this account. */
  pem: string;
  subject: string;
  validTo: string;
}

/** What the user is shown before trusting a certificate. */
export interface CertificateInfo {
  host: string;
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
  fingerprint256: string;
  pem: string;
  /** Whether the certificate names the host the account connects to. */
  nameMatches: boolean;
  selfSigned: boolean;
  /** Why it is not trusted as it is (Node's code, e.g. `DEPTH_ZERO_SELF_SIGNED_CERT`); undefined when it is. */
  problem: string | undefined;
}

/** `host:port` of a server address, the port made explicit. */
export function hostOf(serverUrl: string): string {
  const url = new URL(serverUrl);
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

function distinguishedName(name: PeerCertificate['subject'] | undefined): string {
  if (!name) return '';
  return Object.entries(name)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : String(value)}`)
    .join(', ');
}

function pemOf(raw: Buffer): string {
  const lines = raw.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** The pins of this host only: a pin never vouches for another server. */
export function pinsFor(
  pins: readonly PinnedCertificate[] | undefined,
  serverUrl: string,
): PinnedCertificate[] {
  const host = hostOf(serverUrl);
  return (pins ?? []).filter((pin) => pin.host === host);
}

/**
 * TLS options for connections to `serverUrl`: the system's roots, the account's CA file, and the
 * certificates pinned for its host; a pinned certificate is accepted whatever name it carries.
 * Certificate checking stays on in every case.
 */
export function tlsOptionsFor(
  serverUrl: string,
  settings: { ca?: string | undefined; pinned?: readonly PinnedCertificate[] | undefined },
): ConnectionOptions {
  const pins = pinsFor(settings.pinned, serverUrl);
  if (pins.length === 0)
    return { ...(settings.ca !== undefined ? { ca: settings.ca } : {}), rejectUnauthorized: true };
  const fingerprints = new Set(pins.map((pin) => pin.fingerprint256));
  return {
    ca: [
      ...rootCertificates,
      ...(settings.ca !== undefined ? [settings.ca] : []),
      ...pins.map((pin) => pin.pem),
    ],
    rejectUnauthorized: true,
    checkServerIdentity: (hostname, certificate) =>
      fingerprints.has(certificate.fingerprint256) ? undefined : checkServerIdentity(hostname, certificate),
  };
}

/**
 * Connects to the server without trusting anything and reads its certificate, for the user to
 * decide on. Nothing is sent over the connection; it is closed at once.
 */
export function inspectCertificate(
  serverUrl: string,
  options: { ca?: string; timeoutMs?: number } = {},
): Promise<CertificateInfo> {
  const url = new URL(serverUrl);
  const host = hostOf(serverUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: url.hostname,
      port: Number(url.port || 443),
      ...(isIpAddress(url.hostname) ? {} : { servername: url.hostname }),
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
      rejectUnauthorized: false,
      // The name is checked below and reported, not enforced, on this look-only connection.
      checkServerIdentity: () => undefined,
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new ForgeError(
          l10n.t(
            'Could not read the certificate of {0}: no answer within {1} ms',
            host,
            options.timeoutMs ?? 10_000,
          ),
        ),
      );
    }, options.timeoutMs ?? 10_000);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const certificate = socket.getPeerCertificate(false);
      const problem = socket.authorizationError ? String(socket.authorizationError) : undefined;
      socket.destroy();
      const nameMatches = checkServerIdentity(url.hostname, certificate) === undefined;
      resolve({
        host,
        subject: distinguishedName(certificate.subject),
        issuer: distinguishedName(certificate.issuer),
        validFrom: certificate.valid_from,
        validTo: certificate.valid_to,
        fingerprint256: certificate.fingerprint256,
        pem: pemOf(certificate.raw),
        nameMatches,
        selfSigned: distinguishedName(certificate.subject) === distinguishedName(certificate.issuer),
        problem: problem ?? (nameMatches ? undefined : 'ERR_TLS_CERT_ALTNAME_INVALID'),
      });
    });
    socket.once('error', (error: Error) => {
      clearTimeout(timer);
      reject(new ForgeError(l10n.t('Could not read the certificate of {0}: {1}', host, error.message)));
    });
  });
}

/** The certificate as the user trusts it: its fingerprint, for its host. */
export function pinOf(info: CertificateInfo): PinnedCertificate {
  return {
    host: info.host,
    fingerprint256: info.fingerprint256,
    pem: info.pem,
    subject: info.subject,
    validTo: info.validTo,
  };
}

/** The lines shown before the user decides: host, subject, issuer, validity, fingerprint, name. */
export function describeCertificate(info: CertificateInfo): string {
  return [
    l10n.t('Host: {0}', info.host),
    l10n.t('Subject: {0}', info.subject || l10n.t('(none)')),
    info.selfSigned
      ? l10n.t('Issuer: {0} (self-signed)', info.issuer || l10n.t('(none)'))
      : l10n.t('Issuer: {0}', info.issuer || l10n.t('(none)')),
    l10n.t('Valid: {0} to {1}', info.validFrom, info.validTo),
    l10n.t('SHA-256: {0}', info.fingerprint256),
    info.nameMatches
      ? l10n.t('Name: matches {0}', info.host.replace(/:\d+$/, ''))
      : l10n.t('Name: does NOT match {0}', info.host.replace(/:\d+$/, '')),
  ].join('\n');
}
