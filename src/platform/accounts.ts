import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import { HostingClient, probeIdentity } from '../api/hosting';
import { fetchCurrentUser } from '../api/hosting/currentUser';
import { normalizeServerUrl } from '../domain/serverUrl';
import { type AccountKind, AccountStore } from './accountStore';
import type { AccountNetwork } from './network';
import { STORED_ACCOUNTS_KEY } from '../shell';
import * as l10n from '@vscode/l10n';

export type TokenKind = 'private-token' | 'oauth';

/** What is kept about an account outside secret storage. Never holds the token. */
export interface AccountInfo {
  id: string;
  label: string;
  serverUrl: string;
  tokenKind: TokenKind;
  isAdmin: boolean;
  network: AccountNetwork;
  /** Came from FORGE_SERVER_URL / FORGE_TOKEN for this session; not stored. */
  fromEnvironment?: boolean;
}

/** What to do when an account's token is missing from secret storage. */
const missingToken = (account: AccountInfo): string =>
  l10n.t('No token is stored for {0}. Run "Forge: Update Token".', account.label);

function environmentAccount(
  environment: NodeJS.ProcessEnv,
  log: vscode.LogOutputChannel,
): { account: AccountInfo; secret: string } | undefined {
  const serverUrl = environment['FORGE_SERVER_URL'];
  const token = environment['FORGE_TOKEN'];
  if (!serverUrl || !token) return undefined;
  const normalized = normalizeServerUrl(serverUrl);
  if ('problem' in normalized) {
    log.warn(`FORGE_SERVER_URL ignored: ${normalized.problem}`);
    return undefined;
  }
  const account: AccountInfo = {
    id: 'environment',
    label: l10n.t('{0} (from environment)', new URL(normalized.url).host),
    serverUrl: normalized.url,
    tokenKind: environment['FORGE_TOKEN_KIND'] === 'oauth' ? 'oauth' : 'private-token',
    isAdmin: false,
    network: environment['FORGE_CA_FILE'] ? { caFile: environment['FORGE_CA_FILE'] } : {},
    fromEnvironment: true,
  };
  return { account, secret: token };
}

/** A label that named the old host (`host`, `user@host`, either with ` (2)`) names the new one. */
function movedLabel(label: string, oldHost: string, newHost: string): string {
  const at = label.lastIndexOf(oldHost);
  if (at < 0 || (at > 0 && label[at - 1] !== '@')) return label;
  const rest = label.slice(at + oldHost.length);
  return /^(?: \(\d+\))?$/.test(rest) ? `${label.slice(0, at)}${newHost}${rest}` : label;
}

/**
 * The forge accounts the user signed in with (an `AccountStore`: metadata in global state, tokens in
 * SecretStorage, one client per account), plus what only forge accounts have: the token check,
 * acting as another user (sudo) and whether the account acts as an administrator.
 */
export class AccountManager implements vscode.Disposable {
  private readonly store: AccountStore<AccountInfo, HostingClient>;
  readonly onDidChange: vscode.Event<void>;
  private readonly sudoUsers = new Map<string, string>();
  /** Whether the user each account acts as (sudo) is an administrator. */
  private readonly sudoIsAdmin = new Map<string, boolean>();

  constructor(
    context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    environment: NodeJS.ProcessEnv = process.env,
  ) {
    const kind: AccountKind<AccountInfo, HostingClient> = {
      storageKey: STORED_ACCOUNTS_KEY,
      secretPrefix: 'forge.account.',
      secretSuffix: '.token',
      fromEnvironment: environmentAccount,
      createClient: (account, token, connection, use) =>
        HostingClient.create({
          ...connection,
          credentials: { kind: account.tokenKind, token },
          sudo: use === 'session' ? this.sudoUsers.get(account.id) : undefined,
        }),
      missingSecret: missingToken,
    };
    this.store = new AccountStore(context, log, kind, environment);
    this.onDidChange = this.store.onDidChange;
  }

  dispose(): void {
    this.store.dispose();
  }

  list(): AccountInfo[] {
    return this.store.list();
  }

  get(id: string): AccountInfo | undefined {
    return this.store.get(id);
  }

  /** The client for an account, built on first use. */
  client(id: string): Promise<HostingClient> {
    return this.store.client(id);
  }

  /** Asks the server who the token belongs to, with a client that is closed afterwards. */
  private async check(account: AccountInfo, token: string, signal?: AbortSignal) {
    const client = await this.store.checkingClient(account, token);
    try {
      const identity = await probeIdentity(client, signal);
      return { identity, client };
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  /** `label`, or `label (2)`, `(3)` … when another account has it (two tokens of one user). */
  private unusedLabel(label: string): string {
    const taken = new Set(this.list().map((account) => account.label));
    let candidate = label;
    for (let n = 2; taken.has(candidate); n++) candidate = `${label} (${n})`;
    return candidate;
  }

  /** Checks the token with the server first; saves nothing when the check fails. */
  async add(input: {
    serverUrl: string;
    token: string;
    tokenKind: TokenKind;
    label?: string;
    network?: AccountInfo['network'];
    signal?: AbortSignal;
  }): Promise<AccountInfo> {
    const normalized = normalizeServerUrl(input.serverUrl);
    if ('problem' in normalized) throw new Error(normalized.problem);
    const host = new URL(normalized.url).host;
    const candidate: AccountInfo = {
      id: randomUUID(),
      label: host,
      serverUrl: normalized.url,
      tokenKind: input.tokenKind,
      isAdmin: false,
      network: input.network ?? {},
    };
    const { identity, client } = await this.check(candidate, input.token, input.signal);
    // Beyond the spec, and optional: it names the account (two accounts on one server).
    const user = await fetchCurrentUser(client, { signal: input.signal })
      .catch(() => undefined)
      .finally(() => client.close());
    const account: AccountInfo = {
      ...candidate,
      label: input.label?.trim() || this.unusedLabel(user ? `${user.username}@${host}` : host),
      isAdmin: identity.isAdmin,
    };
    await this.store.add(account, input.token);
    this.log.info(`Account added: ${account.label} (${account.isAdmin ? 'administrator' : 'user'})`);
    return account;
  }

  async remove(id: string): Promise<void> {
    this.sudoUsers.delete(id);
    this.sudoIsAdmin.delete(id);
    await this.store.remove(id);
  }

  /** Replaces an account's token after checking it with the server. */
  async updateToken(id: string, token: string): Promise<void> {
    const account = this.get(id);
    if (!account) throw new Error(l10n.t('That account no longer exists'));
    const { identity, client } = await this.check(account, token);
    await client.close();
    await this.store.update(id, { isAdmin: identity.isAdmin }, { secret: token });
  }

  /**
   * Moves an account to another address of its server (a new host name, a port, a path): the token
   * is checked there first, and nothing changes when the check fails. A label that named the old
   * host names the new one.
   */
  async changeServerUrl(
    id: string,
    serverUrl: string,
    network?: AccountInfo['network'],
  ): Promise<AccountInfo> {
    const account = this.get(id);
    if (!account) throw new Error(l10n.t('That account no longer exists'));
    if (account.fromEnvironment)
      throw new Error(
        l10n.t('This account comes from FORGE_SERVER_URL: change the variable and restart VS Code.'),
      );
    const normalized = normalizeServerUrl(serverUrl);
    if ('problem' in normalized) throw new Error(normalized.problem);
    const token = await this.store.secretOf(account);
    if (!token) throw new Error(missingToken(account));
    const nextNetwork = network ?? account.network;
    const { identity, client } = await this.check(
      { ...account, serverUrl: normalized.url, network: nextNetwork },
      token,
    );
    await client.close();
    const oldHost = new URL(account.serverUrl).host;
    const newHost = new URL(normalized.url).host;
    const label = movedLabel(account.label, oldHost, newHost);
    const patch = { serverUrl: normalized.url, isAdmin: identity.isAdmin, network: nextNetwork, label };
    await this.store.update(id, patch, { reconnect: true });
    this.log.info(`Account ${account.label} moved from ${account.serverUrl} to ${normalized.url}`);
    return { ...account, ...patch };
  }

  async updateNetwork(id: string, network: AccountInfo['network']): Promise<void> {
    await this.store.update(id, { network }, { reconnect: true });
  }

  /**
   * Administrators act as another user for this session only. The server is asked what that user
   * may do (an unknown user is refused, and nothing changes); the admin views follow the answer.
   */
  async setSudo(id: string, username: string | undefined): Promise<void> {
    const previous = this.sudoUsers.get(id);
    if (username) this.sudoUsers.set(id, username);
    else this.sudoUsers.delete(id);
    this.store.dropClient(id);
    this.sudoIsAdmin.delete(id);
    if (username) {
      try {
        this.sudoIsAdmin.set(id, (await probeIdentity(await this.client(id))).isAdmin);
      } catch (error) {
        if (previous) this.sudoUsers.set(id, previous);
        else this.sudoUsers.delete(id);
        this.store.dropClient(id);
        throw error;
      }
    }
    this.store.fireChanged();
  }

  sudoOf(id: string): string | undefined {
    return this.sudoUsers.get(id);
  }

  /** Whether the account acts as an administrator now: itself, or the user it acts as (sudo). */
  actsAsAdmin(account: AccountInfo): boolean {
    if (!account.isAdmin) return false;
    return this.sudoUsers.has(account.id) ? this.sudoIsAdmin.get(account.id) === true : true;
  }

  /** Learns whether the environment account is an administrator (it is not checked at start). */
  async refreshIdentity(id: string): Promise<void> {
    const account = this.get(id);
    if (!account) return;
    const identity = await probeIdentity(await this.client(id));
    if (identity.isAdmin === account.isAdmin) return;
    await this.store.update(id, { isAdmin: identity.isAdmin });
  }
}
