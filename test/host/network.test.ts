// Certificates and proxies inside a real VS Code: the fake forge behind an HTTPS front whose
// certificate is made at test time, signed in through "Add Account" as a person's options would give
// it. Refused by default with a message that says how to trust it; accepted with the CA file; accepted
// once its fingerprint is pinned, and refused again, as changed, when the front shows another
// certificate; plain http to another machine needs a confirmation, once; with `http.proxy` set,
// requests go through a CONNECT proxy, except to the hosts `http.noProxy` names.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AddAccountResult } from '../../src/features/accounts';
import { inspectCertificate } from '../../src/api/http';
import type { ForgeWorkbenchApi } from '../../src/extension';
import { confirmPlainHttp, connectionNote } from '../../src/platform/network';
import { type FakeForge, startFakeForge } from '../server';
import {
  type ConnectProxy,
  type TestCertificate,
  type TlsFront,
  makeCertificate,
  startConnectProxy,
  startTlsFront,
} from '../support/tlsFront';
import { childrenOf, label, workbenchApi } from './support';

describe('network: certificates and proxy', function () {
  this.timeout(60_000);
  let forge: FakeForge;
  let front: TlsFront;
  let proxy: ConnectProxy;
  let api: ForgeWorkbenchApi;
  let dir: string;
  let certFile: string;
  let certificate: TestCertificate;
  let other: TestCertificate;

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    dir = mkdtempSync(join(tmpdir(), 'forge-host-tls-'));
    certificate = makeCertificate(dir);
    other = makeCertificate(dir, { tag: '-other' });
    certFile = certificate.certFile;
    front = await startTlsFront(forge.url, certificate);
    proxy = await startConnectProxy();
    api = await workbenchApi();
  });

  afterEach(async () => {
    front.useCertificate(certificate);
    for (const key of ['proxy', 'noProxy']) {
      await vscode.workspace
        .getConfiguration('http')
        .update(key, undefined, vscode.ConfigurationTarget.Global);
    }
    for (const account of api.channelAccounts
      .list()
      .filter((candidate) => candidate.serverUrl === front.url)) {
      await api.channelAccounts.remove(account.id);
    }
    for (const account of api.accounts.list().filter((candidate) => candidate.serverUrl === front.url)) {
      await api.accounts.remove(account.id);
    }
  });

  after(async () => {
    await front.close();
    await proxy.close();
    await forge.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function addAccount(network: {
    caFile?: string;
    trustCertificateFingerprint?: string;
  }): Promise<AddAccountResult> {
    const result = await vscode.commands.executeCommand<AddAccountResult>('forge.account.add', {
      serverUrl: front.url,
      token: forge.userToken,
      ...network,
    });
    assert.ok(result, 'the command answered');
    return result;
  }

  /** The projects of the account, through its client (so through the account's network settings). */
  async function projectNames(accountId: string): Promise<string[]> {
    const root = (await childrenOf(api.projects)).find(({ item }) => item.id === `account/${accountId}`);
    const rows = await childrenOf(api.projects, api.accounts.list().length > 1 ? root?.node : undefined);
    return rows.map(({ item }) => label(item));
  }

  it('refuses the self-signed certificate by default and says how to trust it', async () => {
    front.requests.length = 0;
    const result = await addAccount({});
    assert.equal(result.added, false);
    assert.match(result.message ?? '', /certificate is not trusted/);
    assert.match(result.message ?? '', /fingerprint/);
    assert.match(result.message ?? '', /CA file/);
    assert.ok(!(result.message ?? '').includes(forge.userToken), 'the token is not in the message');
    assert.equal(front.requests.length, 0, 'no request got past the TLS handshake');
    assert.ok(!api.accounts.list().some((account) => account.serverUrl === front.url), 'nothing saved');
  });

  it('accepts the certificate with the CA file', async () => {
    const result = await addAccount({ caFile: certFile });
    assert.equal(result.added, true, result.message);
    const account = api.accounts.get(result.accountId ?? '');
    assert.equal(account?.network.caFile, certFile);
    assert.ok(front.requests.length > 0, 'the sign-in check went over TLS');
    assert.ok((await projectNames(account?.id ?? '')).length > 0, 'the projects load over TLS');
  });

  it('trusts the certificate whose fingerprint was checked, and refuses it as changed when it is replaced', async () => {
    const seen = await inspectCertificate(front.url);
    const wrong = await addAccount({ trustCertificateFingerprint: 'AB'.repeat(32) });
    assert.equal(wrong.added, false);
    assert.ok((wrong.message ?? '').includes(seen.fingerprint256), wrong.message);

    const result = await addAccount({ trustCertificateFingerprint: seen.fingerprint256.toLowerCase() });
    assert.equal(result.added, true, result.message);
    const accountId = result.accountId ?? '';
    const pins = api.accounts.get(accountId)?.network.pinnedCertificates ?? [];
    assert.deepEqual(
      pins.map((pin) => [pin.host, pin.fingerprint256]),
      [[new URL(front.url).host, seen.fingerprint256]],
    );
    assert.ok((await projectNames(accountId)).length > 0, 'the projects load with the pinned certificate');

    // Another certificate on the same host: a man in the middle, or a renewal. Refused either way.
    front.useCertificate(other);
    front.requests.length = 0;
    const client = await api.accounts.client(accountId);
    await assert.rejects(client.getProject(forge.fixtures.projects.web), /certificate is not trusted/);
    assert.equal(front.requests.length, 0, 'nothing was sent to the other certificate');
    const again = await vscode.commands.executeCommand<{ invalidInput?: boolean; message?: string }>(
      'forge.account.configureNetwork',
      accountId,
      { trustCertificateFingerprint: seen.fingerprint256 },
    );
    assert.equal(again?.invalidInput, true);
    assert.match(again?.message ?? '', /CHANGED since you trusted it/);
    const renewed = await inspectCertificate(front.url);
    await vscode.commands.executeCommand('forge.account.configureNetwork', accountId, {
      trustCertificateFingerprint: renewed.fingerprint256,
    });
    assert.equal(
      api.accounts.get(accountId)?.network.pinnedCertificates?.length,
      1,
      'the new pin replaced the old',
    );
    assert.ok((await projectNames(accountId)).length > 0, 'the projects load with the new pin');
  });

  it('pins a certificate for a channel account too', async () => {
    const seen = await inspectCertificate(front.url);
    const refused = await vscode.commands.executeCommand<{ added: boolean } | { invalidInput: true }>(
      'forge.channel.addAccount',
      { serverUrl: front.url, login: forge.channel.nickname, password: forge.channel.password },
    );
    assert.ok(refused === undefined || !('added' in refused) || !refused.added, 'refused without a pin');
    const added = await vscode.commands.executeCommand<{ added: boolean; accountId?: string }>(
      'forge.channel.addAccount',
      {
        serverUrl: front.url,
        login: forge.channel.nickname,
        password: forge.channel.password,
        trustCertificateFingerprint: seen.fingerprint256,
      },
    );
    assert.equal(added?.added, true);
    const accountId = added.accountId ?? '';
    const account = api.channelAccounts.get(accountId);
    assert.equal(account?.network?.pinnedCertificates?.[0]?.fingerprint256, seen.fingerprint256);

    // The hub's certificate changes: refused, and "Configure Network" pins the new one after a check.
    front.useCertificate(other);
    await assert.rejects(
      (await api.channelAccounts.client(accountId)).listGroups(),
      /certificate is not trusted/,
    );
    const again = await vscode.commands.executeCommand<{ invalidInput?: boolean; message?: string }>(
      'forge.channel.configureNetwork',
      accountId,
      { trustCertificateFingerprint: seen.fingerprint256 },
    );
    assert.equal(again?.invalidInput, true);
    assert.match(again?.message ?? '', /CHANGED since you trusted it/);
    const renewed = await inspectCertificate(front.url);
    await vscode.commands.executeCommand('forge.channel.configureNetwork', accountId, {
      trustCertificateFingerprint: renewed.fingerprint256,
    });
    assert.deepEqual(
      api.channelAccounts.get(accountId)?.network?.pinnedCertificates?.map((pin) => pin.fingerprint256),
      [renewed.fingerprint256],
      'the new pin replaced the old',
    );
    assert.ok(Array.isArray(await (await api.channelAccounts.client(accountId)).listGroups()));
  });

  it('asks once before a token goes over plain http to another machine, and the account says it is unencrypted', async () => {
    let asked = 0;
    const ask = (): boolean => {
      asked++;
      return true;
    };
    assert.deepEqual(await confirmPlainHttp(forge.url, {}, 'token', ask), {}, 'loopback is not asked about');
    const confirmed = await confirmPlainHttp('http://forge.example', {}, 'token', ask);
    assert.deepEqual(confirmed, { plainHttpConfirmed: true });
    assert.deepEqual(
      await confirmPlainHttp('http://forge.example', confirmed ?? {}, 'token', ask),
      confirmed,
    );
    assert.equal(asked, 1, 'asked once per account');
    assert.equal(await confirmPlainHttp('http://forge.example', {}, 'token', () => false), undefined);
    assert.equal(connectionNote('http://forge.example', { plainHttpConfirmed: true }), 'unencrypted (http)');

    forge.clearRequests();
    const result = await vscode.commands.executeCommand<AddAccountResult>('forge.account.add', {
      serverUrl: 'http://forge.example.invalid',
      token: forge.userToken,
    });
    assert.equal(result?.added, false);
    assert.match(result?.message ?? '', /plain http.*unencrypted/);
  });

  it('sends requests through the proxy of http.proxy, with the custom CA', async () => {
    await vscode.workspace
      .getConfiguration('http')
      .update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
    proxy.tunnels.length = 0;
    const result = await addAccount({ caFile: certFile });
    assert.equal(result.added, true, result.message);
    assert.ok(proxy.tunnels.includes(new URL(front.url).host), `tunnels: ${proxy.tunnels.join(', ')}`);
    const before = proxy.tunnels.length;
    front.requests.length = 0;
    assert.ok((await projectNames(result.accountId ?? '')).length > 0);
    assert.ok(front.requests.length > 0);
    // Kept-alive tunnels may be reused; at least the sign-in opened one, and nothing went around it.
    assert.ok(proxy.tunnels.length >= before);
    assert.ok(proxy.tunnels.every((tunnel) => tunnel === new URL(front.url).host));
  });

  it('goes direct to the hosts http.noProxy names', async () => {
    const http = vscode.workspace.getConfiguration('http');
    await http.update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
    await http.update('noProxy', ['127.0.0.1'], vscode.ConfigurationTarget.Global);
    proxy.tunnels.length = 0;
    const result = await addAccount({ caFile: certFile });
    assert.equal(result.added, true, result.message);
    assert.deepEqual(proxy.tunnels, [], 'no tunnel through the proxy');
  });
});
