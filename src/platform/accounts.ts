import { ClientCache, accountOfSecret } from '../state/clientCache';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { type Credentials, DEFAULT_MAX_LIST_PAGES } from '../api/http';
import { HostingClient, probeIdentity } from '../api/hosting';
import { fetchCurrentUser } from '../api/hosting/currentUser';
import { normalizeServerUrl } from '../domain/serverUrl';
import { type AccountNetwork, affectsConnections, dispatcherFor } from './network';
import { STORED_ACCOUNTS_KEY } from '../shell';

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

const ACCOUNTS_KEY = STORED_ACCOUNTS_KEY;
const ENVIRONMENT_ACCOUNT_ID = 'environment';
const SECRET_PREFIX = 'forge.account.';
const SECRET_SUFFIX = '.token';
const secretKey = (id: string): string => `${SECRET_PREFIX}${id}${SECRET_SUFFIX}`;

function extensionVersion(context: vscode.ExtensionContext): string {
  const manifest: unknown = context.extension.packageJSON;
  const version =
    manifest && typeof manifest === 'object' ? (manifest as { version?: unknown }).version : undefined;
  return typeof version === 'string' ? version : 'dev';
}

/**
 * The accounts the user signed in with: metadata in global state, tokens in SecretStorage, one
 * client per account (rebuilt when its token, sudo user or network settings change).
 */
export class AccountManager implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly clients = new ClientCache<HostingClient>((id) => this.createClient(id));
  private readonly sudoUsers = new Map<string, string>();
  /** Whether the user each account acts as (sudo) is an administrator. */
  private readonly sudoIsAdmin = new Map<string, boolean>();
  private environmentAccount: AccountInfo | undefined;
  private environmentToken: string | undefined;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    environment: NodeJS.ProcessEnv = process.env,
  ) {
    this.readEnvironmentAccount(environment);
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (
          affectsConnections(event) ||
          event.affectsConfiguration('forge.requestTimeoutSeconds') ||
          event.affectsConfiguration('forge.maxListPages')
        ) {
          this.clients.dropAll();
          this.changed.fire();
        }
      }),
      // Another window added, updated or removed an account's token: only that account's client goes
      // (channel passwords live in the same storage and are not ours).
      context.secrets.onDidChange((event) => {
        const id = accountOfSecret(event.key, SECRET_PREFIX, SECRET_SUFFIX);
        if (id === undefined) return;
        this.clients.drop(id);
        this.changed.fire();
      }),
    );
  }

  dispose(): void {
    this.clients.dropAll();
    for (const disposable of this.disposables) disposable.dispose();
  }

  private readEnvironmentAccount(environment: NodeJS.ProcessEnv): void {
    const serverUrl = environment['FORGE_SERVER_URL'];
    const token = environment['FORGE_TOKEN'];
    if (!serverUrl || !token) return;
    const normalized = normalizeServerUrl(serverUrl);
    if ('problem' in normalized) {
      this.log.warn(`FORGE_SERVER_URL ignored: ${normalized.problem}`);
      return;
    }
    this.environmentToken = token;
    this.environmentAccount = {
      id: ENVIRONMENT_ACCOUNT_ID,
      label: `${new URL(normalized.url).host} (from environment)`,
      serverUrl: normalized.url,
      tokenKind: environment['FORGE_TOKEN_KIND'] === 'oauth' ? 'oauth' : 'private-token',
      isAdmin: false,
      network: environment['FORGE_CA_FILE'] ? { caFile: environment['FORGE_CA_FILE'] } : {},
      fromEnvironment: true,
    };
  }

  list(): AccountInfo[] {
    const stored = this.context.globalState.get<AccountInfo[]>(ACCOUNTS_KEY, []);
    return this.environmentAccount ? [this.environmentAccount, ...stored] : stored;
  }

  get(id: string): AccountInfo | undefined {
    return this.list().find((account) => account.id === id);
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
    const network = input.network ?? {};
    const client = await this.buildClient(
      normalized.url,
      { kind: input.tokenKind, token: input.token },
      network,
    );
    let identity;
    let user;
    try {
      identity = await probeIdentity(client, input.signal);
      // Beyond the spec, and optional: it names the account (two accounts on one server).
      user = await fetchCurrentUser(client, { signal: input.signal }).catch(() => undefined);
    } finally {
      await client.close();
    }
    const host = new URL(normalized.url).host;
    const account: AccountInfo = {
      id: randomUUID(),
      label: input.label?.trim() || (user ? `${user.username}@${host}` : host),
      serverUrl: normalized.url,
      tokenKind: input.tokenKind,
      isAdmin: identity.isAdmin,
      network,
    };
    await this.context.secrets.store(secretKey(account.id), input.token);
    const stored = this.context.globalState.get<AccountInfo[]>(ACCOUNTS_KEY, []);
    await this.context.globalState.update(ACCOUNTS_KEY, [...stored, account]);
    this.log.info(`Account added: ${account.label} (${account.isAdmin ? 'administrator' : 'user'})`);
    this.changed.fire();
    return account;
  }

  async remove(id: string): Promise<void> {
    if (id === ENVIRONMENT_ACCOUNT_ID) {
      this.environmentAccount = undefined;
      this.environmentToken = undefined;
    } else {
      const stored = this.context.globalState.get<AccountInfo[]>(ACCOUNTS_KEY, []);
      await this.context.globalState.update(
        ACCOUNTS_KEY,
        stored.filter((account) => account.id !== id),
      );
      await this.context.secrets.delete(secretKey(id));
    }
    this.sudoUsers.delete(id);
    this.clients.drop(id);
    this.changed.fire();
  }

  /** Replaces an account's token after checking it with the server. */
  async updateToken(id: string, token: string): Promise<void> {
    const account = this.get(id);
    if (!account) throw new Error('That account no longer exists');
    const client = await this.buildClient(
      account.serverUrl,
      { kind: account.tokenKind, token },
      account.network,
    );
    let identity;
    try {
      identity = await probeIdentity(client);
    } finally {
      await client.close();
    }
    if (account.fromEnvironment) {
      this.environmentToken = token;
      this.environmentAccount = { ...account, isAdmin: identity.isAdmin };
    } else {
      await this.context.secrets.store(secretKey(id), token);
      await this.updateStored(id, { isAdmin: identity.isAdmin });
    }
    this.clients.drop(id);
    this.changed.fire();
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
    if (!account) throw new Error('That account no longer exists');
    if (account.fromEnvironment)
      throw new Error('This account comes from FORGE_SERVER_URL: change the variable and restart VS Code.');
    const normalized = normalizeServerUrl(serverUrl);
    if ('problem' in normalized) throw new Error(normalized.problem);
    const token = await this.context.secrets.get(secretKey(id));
    if (!token) throw new Error(`No token is stored for ${account.label}. Run "Forge: Update Token".`);
    const nextNetwork = network ?? account.network;
    const client = await this.buildClient(normalized.url, { kind: account.tokenKind, token }, nextNetwork);
    let identity;
    try {
      identity = await probeIdentity(client);
    } finally {
      await client.close();
    }
    const oldHost = new URL(account.serverUrl).host;
    const newHost = new URL(normalized.url).host;
    const label = account.label.endsWith(oldHost)
      ? `${account.label.slice(0, account.label.length - oldHost.length)}${newHost}`
      : account.label;
    const patch = { serverUrl: normalized.url, isAdmin: identity.isAdmin, network: nextNetwork, label };
    await this.updateStored(id, patch);
    this.clients.drop(id);
    this.log.info(`Account ${account.label} moved from ${account.serverUrl} to ${normalized.url}`);
    this.changed.fire();
    return { ...account, ...patch };
  }

  async updateNetwork(id: string, network: AccountInfo['network']): Promise<void> {
    await this.updateStored(id, { network });
    this.clients.drop(id);
    this.changed.fire();
  }

  /**
   * Administrators act as another user for this session only. The server is asked what that user
   * may do (an unknown user is refused, and nothing changes); the admin views follow the answer.
   */
  async setSudo(id: string, username: string | undefined): Promise<void> {
    const previous = this.sudoUsers.get(id);
    if (username) this.sudoUsers.set(id, username);
    else this.sudoUsers.delete(id);
    this.clients.drop(id);
    this.sudoIsAdmin.delete(id);
    if (username) {
      try {
        this.sudoIsAdmin.set(id, (await probeIdentity(await this.client(id))).isAdmin);
      } catch (error) {
        if (previous) this.sudoUsers.set(id, previous);
        else this.sudoUsers.delete(id);
        this.clients.drop(id);
        throw error;
      }
    }
    this.changed.fire();
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
    if (account.fromEnvironment) this.environmentAccount = { ...account, isAdmin: identity.isAdmin };
    else await this.updateStored(id, { isAdmin: identity.isAdmin });
    this.changed.fire();
  }

  /** The client for an account, built on first use. */
  client(id: string): Promise<HostingClient> {
    return this.clients.get(id);
  }

  private async createClient(id: string): Promise<HostingClient> {
    const account = this.get(id);
    if (!account) throw new Error('That account no longer exists');
    const token = account.fromEnvironment
      ? this.environmentToken
      : await this.context.secrets.get(secretKey(id));
    if (!token) throw new Error(`No token is stored for ${account.label}. Run "Forge: Update Token".`);
    return this.buildClient(
      account.serverUrl,
      { kind: account.tokenKind, token },
      account.network,
      this.sudoOf(id),
    );
  }

  private async buildClient(
    serverUrl: string,
    credentials: Credentials,
    network: AccountInfo['network'],
    sudo?: string,
  ): Promise<HostingClient> {
    const dispatcher = await dispatcherFor(serverUrl, network);
    const timeoutSeconds = vscode.workspace
      .getConfiguration('forge')
      .get<number>('requestTimeoutSeconds', 30);
    return HostingClient.create({
      baseUrl: serverUrl,
      credentials,
      sudo,
      dispatcher,
      timeoutMs: timeoutSeconds * 1000,
      maxListPages: vscode.workspace
        .getConfiguration('forge')
        .get<number>('maxListPages', DEFAULT_MAX_LIST_PAGES),
      userAgent: `forge-workbench/${extensionVersion(this.context)}`,
      log: (line) => this.log.trace(line),
      onFailure: (line) => this.log.warn(line),
    });
  }

  private async updateStored(id: string, patch: Partial<AccountInfo>): Promise<void> {
    const stored = this.context.globalState.get<AccountInfo[]>(ACCOUNTS_KEY, []);
    await this.context.globalState.update(
      ACCOUNTS_KEY,
      stored.map((account) => (account.id === id ? { ...account, ...patch } : account)),
    );
  }
}
