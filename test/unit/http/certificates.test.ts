// The pure parts of certificate trust: which pins apply to which server, the TLS options they give,
// and the lines a person reads before trusting a certificate.
import assert from 'node:assert/strict';
import { type PeerCertificate, rootCertificates } from 'node:tls';
import {
  type CertificateInfo,
  type PinnedCertificate,
  describeCertificate,
  hostOf,
  pinOf,
  pinsFor,
  tlsOptionsFor,
} from '../../../src/api/http/certificates';

const pin = (host: string, fingerprint256: string): PinnedCertificate => ({
  host,
  fingerprint256,
  pem: `-----BEGIN CERTIFICATE-----\n${fingerprint256}\n-----END CERTIFICATE-----\n`,
  subject: 'CN=forge',
  validTo: 'Dec 31 2030',
});

const info: CertificateInfo = {
  host: 'forge.example:8443',
  subject: 'CN=forge.example',
  issuer: 'CN=forge.example',
  validFrom: 'Jan 1 2026',
  validTo: 'Dec 31 2030',
  fingerprint256: 'AA:BB',
  pem: 'PEM',
  nameMatches: true,
  selfSigned: true,
  problem: 'DEPTH_ZERO_SELF_SIGNED_CERT',
};

describe('certificate trust', () => {
  it('names a server by host and port, the port made explicit', () => {
    assert.equal(hostOf('https://forge.example'), 'forge.example:443');
    assert.equal(hostOf('http://forge.example/gitlab'), 'forge.example:80');
    assert.equal(hostOf('https://forge.example:8443/x'), 'forge.example:8443');
  });

  it("applies a server's own pins only, never another host's or port's", () => {
    const pins = [
      pin('forge.example:443', 'A'),
      pin('forge.example:8443', 'B'),
      pin('other.example:443', 'C'),
    ];
    assert.deepEqual(
      pinsFor(pins, 'https://forge.example').map((each) => each.fingerprint256),
      ['A'],
    );
    assert.deepEqual(pinsFor(undefined, 'https://forge.example'), []);
  });

  it('keeps certificate checking on without pins, with the account CA file when there is one', () => {
    assert.deepEqual(tlsOptionsFor('https://forge.example', {}), { rejectUnauthorized: true });
    assert.deepEqual(tlsOptionsFor('https://forge.example', { ca: 'CA' }), {
      ca: 'CA',
      rejectUnauthorized: true,
    });
  });

  it("trusts a pinned certificate whatever its name, and checks every other certificate's name", () => {
    const options = tlsOptionsFor('https://forge.example', {
      ca: 'CA',
      pinned: [pin('forge.example:443', 'AA:BB')],
    });
    assert.equal(options.rejectUnauthorized, true);
    const ca = options.ca as string[];
    assert.equal(ca.length, rootCertificates.length + 2);
    assert.deepEqual(ca.slice(-2), ['CA', pin('forge.example:443', 'AA:BB').pem]);
    const check = options.checkServerIdentity;
    assert.ok(check);
    const pinned = { fingerprint256: 'AA:BB', subject: { CN: 'elsewhere' } } as unknown as PeerCertificate;
    assert.equal(check('forge.example', pinned), undefined);
    const other = { fingerprint256: 'CC:DD', subject: { CN: 'elsewhere' }, subjectaltname: 'DNS:elsewhere' };
    assert.ok(check('forge.example', other as unknown as PeerCertificate) instanceof Error);
  });

  it('keeps what it trusts of a certificate: host, fingerprint, PEM, subject, expiry', () => {
    assert.deepEqual(pinOf(info), {
      host: 'forge.example:8443',
      fingerprint256: 'AA:BB',
      pem: 'PEM',
      subject: 'CN=forge.example',
      validTo: 'Dec 31 2030',
    });
  });

  it('describes a certificate line by line, saying self-signed and whether the name matches', () => {
    assert.equal(
      describeCertificate(info),
      [
        'Host: forge.example:8443',
        'Subject: CN=forge.example',
        'Issuer: CN=forge.example (self-signed)',
        'Valid: Jan 1 2026 to Dec 31 2030',
        'SHA-256: AA:BB',
        'Name: matches forge.example',
      ].join('\n'),
    );
    const stranger = describeCertificate({
      ...info,
      subject: '',
      issuer: 'CN=CA',
      selfSigned: false,
      nameMatches: false,
    });
    assert.match(stranger, /^Subject: \(none\)$/m);
    assert.match(stranger, /^Issuer: CN=CA$/m);
    assert.match(stranger, /^Name: does NOT match forge\.example$/m);
  });
});
