// Certificates and proxies inside a real VS Code (issue 8): the fake forge behind an HTTPS front whose
// certificate is made at test time, signed in through "Add Account" as a person's options would give
// it. Refused by default with a message that names the CA setting; accepted with the CA file; accepted
// with the self-signed opt-in; and with `http.proxy` set, requests go through a CONNECT proxy.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AddAccountResult } from '../../src/commands/accounts';
import type { ForgeWorkbenchApi } from '../../src/extension';
import { type FakeForge, startFakeForge } from '../server';
import {
  type ConnectProxy,
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

  before(async () => {
    forge = await startFakeForge({ seed: 'small' });
    dir = mkdtempSync(join(tmpdir(), 'forge-host-tls-'));
    const certificate = makeCertificate(dir);
    certFile = certificate.certFile;
    front = await startTlsFront(forge.url, certificate);
    proxy = await startConnectProxy();
    api = await workbenchApi();
  });

  afterEach(async () => {
    await vscode.workspace
      .getConfiguration('http')
      .update('proxy', undefined, vscode.ConfigurationTarget.Global);
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
    allowSelfSigned?: boolean;
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
    assert.match(result.message ?? '', /CA file/);
    assert.match(result.message ?? '', /self-signed/);
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

  it('accepts the certificate with the explicit self-signed opt-in', async () => {
    const result = await addAccount({ allowSelfSigned: true });
    assert.equal(result.added, true, result.message);
    assert.equal(api.accounts.get(result.accountId ?? '')?.network.allowSelfSigned, true);
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
});
