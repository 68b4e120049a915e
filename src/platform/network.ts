/*
 * Network settings shared by forge and channel accounts: the connection pool an account's client
 * uses (its CA file, the certificates the user pinned for its host, the proxy VS Code and the
 * environment name), the dialog that shows a certificate before it is trusted, and the one-time
 * confirmation before a token or password goes over plain http to another machine.
 */
import * as vscode from 'vscode';
import * as z from 'zod';
import {
  type CertificateInfo,
  NetworkError,
  type PinnedCertificate,
  createDispatcher,
  describeCertificate,
  hostOf,
  inspectCertificate,
  pinOf,
  pinsFor,
  selectProxy,
} from '../api/http';
import type { Dispatcher } from '../api/http/undici';
import { pickOne, showError, showInformation, showWarning } from './userMessages';

/** What an account keeps about its connections (global state; nothing secret). */
export interface AccountNetwork {
  /** PEM file with extra certificate authorities to trust for this server. */
  caFile?: string | undefined;
  /** Certificates the user saw and chose to trust for this account's host. */
  pinnedCertificates?: PinnedCertificate[] | undefined;
  /** The user agreed, once, that this account's secret goes over plain http. */
  plainHttpConfirmed?: boolean | undefined;
}

/** The connection pool for one account, with VS Code's proxy settings and the environment's. */
export function dispatcherFor(serverUrl: string, network: AccountNetwork): Promise<Dispatcher> {
  const http = vscode.workspace.getConfiguration('http');
  return createDispatcher({
    serverUrl,
    caFile: network.caFile,
    pinnedCertificates: network.pinnedCertificates,
    proxyUrl: selectProxy(serverUrl, {
      httpProxy: http.get<string>('proxy'),
      noProxy: http.get<string[]>('noProxy', []),
      env: process.env,
    }),
    proxyStrictSsl: http.get<boolean>('proxyStrictSSL', true),
  });
}

/** Settings that change every account's connections. */
export function affectsConnections(event: vscode.ConfigurationChangeEvent): boolean {
  return ['http.proxy', 'http.noProxy', 'http.proxyStrictSSL'].some((key) => event.affectsConfiguration(key));
}

/** Whether a request failed because the server's certificate is not trusted. */
export function isCertificateError(error: unknown): boolean {
  // Sign-in errors wrap the request's error: look through their causes.
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof NetworkError && /certificate is not trusted/.test(cause.message)) return true;
  }
  return false;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || host.startsWith('127.') || host.endsWith('.localhost');
}

/** Whether signing in to `serverUrl` sends the secret unencrypted to another machine. */
export function isPlainHttpToAnotherMachine(serverUrl: string): boolean {
  const url = new URL(serverUrl);
  return url.protocol === 'http:' && !isLoopback(url.hostname);
}

/**
 * Before a token or password first goes over plain http to another machine: a modal that says so.
 * Resolves with the settings to keep (the answer remembered), or undefined when the user declined.
 */
export async function confirmPlainHttp(
  serverUrl: string,
  network: AccountNetwork,
  secret: 'token' | 'password',
  /** Answers for tests and automation instead of the modal. */
  ask?: () => boolean,
): Promise<AccountNetwork | undefined> {
  if (!isPlainHttpToAnotherMachine(serverUrl) || network.plainHttpConfirmed) return network;
  if (ask) return ask() ? { ...network, plainHttpConfirmed: true } : undefined;
  const proceed = vscode.l10n.t('Send It Unencrypted');
  const answer = await showWarning(
    vscode.l10n.t(
      '{0} is reached over plain http: your {1} would cross the network unencrypted.',
      new URL(serverUrl).host,
      secret,
    ),
    {
      modal: true,
      detail: vscode.l10n.t(
        "Anyone on the way (the Wi-Fi, a proxy, the network's operators) could read the {0} and act as you. Use an https:// address if the server has one.",
        secret,
      ),
    },
    proceed,
  );
  return answer === proceed ? { ...network, plainHttpConfirmed: true } : undefined;
}

export type TrustOutcome =
  | { trusted: true; network: AccountNetwork; certificate: CertificateInfo }
  | { trusted: false; reason: 'declined' | 'unreadable' | 'already-trusted'; message?: string };

/**
 * Shows the server's certificate (host, subject, issuer, validity, SHA-256, whether the name
 * matches) in a modal and pins it for the account's host if the user says so. A certificate that
 * replaced one pinned before is announced as changed. `decide` answers for tests and automation.
 */
export async function offerToTrustCertificate(
  serverUrl: string,
  network: AccountNetwork,
  decide?: (certificate: CertificateInfo, changed: boolean) => boolean,
): Promise<TrustOutcome> {
  let certificate: CertificateInfo;
  try {
    certificate = await inspectCertificate(serverUrl);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    void showError(vscode.l10n.t("{0}. Check the address, or choose the server's CA file instead.", message));
    return { trusted: false, reason: 'unreadable', message };
  }
  const pinned = pinsFor(network.pinnedCertificates, serverUrl);
  if (pinned.some((pin) => pin.fingerprint256 === certificate.fingerprint256)) {
    return { trusted: false, reason: 'already-trusted' };
  }
  const changed = pinned.length > 0;
  const trust = changed
    ? vscode.l10n.t('Trust the New Certificate')
    : vscode.l10n.t('Trust This Certificate');
  const accepted = decide
    ? decide(certificate, changed)
    : (await showWarning(
        changed
          ? vscode.l10n.t(
              'The certificate of {0} has CHANGED since you trusted it. This happens when the server gets a new certificate, and when someone intercepts the connection.',
              certificate.host,
            )
          : vscode.l10n.t(
              "The certificate of {0} is not trusted{1}. Trust it only if its fingerprint is the one the server's administrator gave you.",
              certificate.host,
              certificate.problem ? ` (${certificate.problem})` : '',
            ),
        { modal: true, detail: describeCertificate(certificate) },
        trust,
      )) === trust;
  if (!accepted) return { trusted: false, reason: 'declined' };
  const host = hostOf(serverUrl);
  return {
    trusted: true,
    certificate,
    network: {
      ...network,
      // One pin per host: the new certificate replaces the old one.
      pinnedCertificates: [
        ...(network.pinnedCertificates ?? []).filter((pin) => pin.host !== host),
        pinOf(certificate),
      ],
    },
  };
}

/** A line for an account's description or tooltip: how its connections are protected. */
export function connectionNote(serverUrl: string, network: AccountNetwork): string | undefined {
  if (isPlainHttpToAnotherMachine(serverUrl)) return vscode.l10n.t('unencrypted (http)');
  const pins = pinsFor(network.pinnedCertificates, serverUrl);
  if (pins.length > 0)
    return vscode.l10n.t('trusted certificate {0}…', pins[0]?.fingerprint256.slice(0, 11) ?? '');
  return undefined;
}

/** Network answers for tests and automation (menus never pass them). */
/** Network answers a command takes instead of asking (tests and automation). */
export const NetworkOptionsSchema = z.strictObject({
  /** A CA file to trust for this server; an empty string removes it. */
  caFile: z.string().optional(),
  /** Trust the server's certificate if, and only if, its SHA-256 fingerprint is this one. */
  trustCertificateFingerprint: z.string().optional(),
  /** Forget every certificate trusted for this account. */
  forgetCertificates: z.boolean().optional(),
  /** Agree that the secret goes over plain http to another machine. */
  confirmPlainHttp: z.boolean().optional(),
  /** Start from no settings at all. */
  reset: z.boolean().optional(),
});
export type NetworkOptions = z.output<typeof NetworkOptionsSchema>;

function sameFingerprint(a: string, b: string): boolean {
  const plain = (text: string): string => text.replace(/[^0-9a-f]/gi, '').toUpperCase();
  return plain(a) === plain(b);
}

/** Applies given answers; a fingerprint that is not the server's is refused with the one it has. */
export async function applyNetworkOptions(
  serverUrl: string,
  current: AccountNetwork,
  options: NetworkOptions,
): Promise<{ network: AccountNetwork } | { problem: string }> {
  let network: AccountNetwork = options.reset ? {} : { ...current };
  if (options.caFile !== undefined) network.caFile = options.caFile || undefined;
  if (options.forgetCertificates) network.pinnedCertificates = undefined;
  if (options.confirmPlainHttp && isPlainHttpToAnotherMachine(serverUrl)) network.plainHttpConfirmed = true;
  const wanted = options.trustCertificateFingerprint;
  if (wanted !== undefined) {
    let seen = '';
    let replaced = false;
    const outcome = await offerToTrustCertificate(serverUrl, network, (certificate, changed) => {
      seen = certificate.fingerprint256;
      replaced = changed;
      return sameFingerprint(certificate.fingerprint256, wanted);
    });
    if (outcome.trusted) network = outcome.network;
    else if (outcome.reason === 'declined') {
      return {
        problem: replaced
          ? vscode.l10n.t(
              'The certificate of {0} has CHANGED since you trusted it: its SHA-256 fingerprint is {1}, not {2}; it was not trusted.',
              hostOf(serverUrl),
              seen,
              wanted,
            )
          : vscode.l10n.t(
              'The certificate of {0} is not the one given: its SHA-256 fingerprint is {1}, not {2}; it was not trusted.',
              hostOf(serverUrl),
              seen,
              wanted,
            ),
      };
    } else if (outcome.reason === 'unreadable')
      return { problem: outcome.message ?? vscode.l10n.t('The certificate could not be read.') };
  }
  return { network };
}

/**
 * The network settings of an account being added with given answers (tests and automation): plain
 * http to another machine needs `confirmPlainHttp`, and a fingerprint must be the server's.
 */
export function networkForNewAccount(
  serverUrl: string,
  options: NetworkOptions,
  secret: 'token' | 'password',
): Promise<{ network: AccountNetwork } | { problem: string }> {
  if (isPlainHttpToAnotherMachine(serverUrl) && !options.confirmPlainHttp) {
    return Promise.resolve({
      problem: vscode.l10n.t(
        '{0} is reached over plain http and the {1} would cross the network unencrypted. Use https, or confirm plain http.',
        new URL(serverUrl).host,
        secret,
      ),
    });
  }
  return applyNetworkOptions(serverUrl, {}, options);
}

/** Asks for a PEM file of certificate authorities; undefined when none was chosen. */
export async function chooseCaFile(): Promise<string | undefined> {
  const files = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: vscode.l10n.t('Use as CA'),
    filters: { Certificates: ['pem', 'crt', 'cer'] },
  });
  return files?.[0]?.fsPath;
}

/** "Configure … Network Settings", asked: CA file, trust the server's certificate, forget, reset. */
export async function configureNetworkInteractively(
  label: string,
  serverUrl: string,
  current: AccountNetwork,
): Promise<AccountNetwork | undefined> {
  const pins = pinsFor(current.pinnedCertificates, serverUrl);
  const choice = await pickOne(
    [
      {
        label: vscode.l10n.t('Choose CA file…'),
        description: current.caFile ?? vscode.l10n.t('none'),
        id: 'ca' as const,
      },
      {
        label: vscode.l10n.t("Check and trust the server's certificate…"),
        description: pins[0]
          ? vscode.l10n.t('trusted: {0}…', pins[0].fingerprint256.slice(0, 23))
          : vscode.l10n.t('none trusted'),
        id: 'trust' as const,
      },
      ...(pins.length > 0
        ? [{ label: vscode.l10n.t('Forget the trusted certificate'), id: 'forget' as const }]
        : []),
      { label: vscode.l10n.t('Reset network settings'), id: 'reset' as const },
    ],
    {
      title: vscode.l10n.t('Network settings for {0}', label),
      placeHolder: vscode.l10n.t(
        'The proxy comes from "http.proxy", "http.noProxy" and the HTTPS_PROXY/NO_PROXY variables',
      ),
    },
  );
  if (!choice) return undefined;
  if (choice.id === 'reset') return {};
  if (choice.id === 'forget') return { ...current, pinnedCertificates: undefined };
  if (choice.id === 'trust') {
    const outcome = await offerToTrustCertificate(serverUrl, current);
    if (!outcome.trusted && outcome.reason === 'already-trusted') {
      void showInformation(vscode.l10n.t('The certificate {0} shows now is the one you trusted.', serverUrl));
    }
    return outcome.trusted ? outcome.network : undefined;
  }
  const caFile = await chooseCaFile();
  return caFile ? { ...current, caFile } : undefined;
}
