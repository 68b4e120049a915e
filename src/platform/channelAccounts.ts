import { ClientCache, accountOfSecret } from '../state/clientCache';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { ChannelAuthError, ChannelClient, ChannelReplyError } from '../api/channel';
import { DEFAULT_MAX_LIST_PAGES } from '../api/http';
import { type AccountNetwork, affectsConnections, dispatcherFor } from './network';
import { type AccessLists, normalizeChannelUrl } from '../domain/channel';

/** Which channel a login belongs to, as the server said at sign-in. Nothing secret. */
export interface ChannelIdentity {
  /** Display name, e.g. "Wren Forge". */
  name: string;
  /** The nickname (left of the `@` of the channel address). */
  nickname: string;
  hash: string;
  guid: string;
}

/** What is kept about a channel account outside secret storage. Never holds the password. */
export interface ChannelAccountInfo {
  id: string;
  label: string;
  serverUrl: string;
  /** The channel nickname or the account email used to sign in. */
  login: string;
  /** Learned when the account was added; for the environment account, on first use. */
  channel?: ChannelIdentity;
  /** Came from FORGE_CHANNEL_URL / FORGE_CHANNEL_USER / FORGE_CHANNEL_PASSWORD; not stored. */
  fromEnvironment?: boolean;
  /** CA file and trusted certificates (accounts stored before they existed have none). */
  network?: AccountNetwork;
}

/** The channel identity plus who sees a post sent without access fields. */
export interface ChannelProfile extends ChannelIdentity {
  defaultAudience: AccessLists;
}

const ACCOUNTS_KEY = 'forge.channelAccounts';
const ENVIRONMENT_ACCOUNT_ID = 'channel-environment';
const SECRET_PREFIX = 'forge.channel.';
const SECRET_SUFFIX = '.password';
const secretKey = (id: string): string => `${SECRET_PREFIX}${id}${SECRET_SUFFIX}`;

function extensionVersion(context: vscode.ExtensionContext): string {
  const manifest: unknown = context.extension.packageJSON;
  const version =
    manifest && typeof manifest === 'object' ? (manifest as { version?: unknown }).version : undefined;
  return typeof version === 'string' ? version : 'dev';
}

function textOf(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}

/**
 * Reads the channel's identity from a `channel/export/basic?sections=channel` reply. Only these
 * fields are kept: the export also carries keys and settings that the editor has no use for.
 */
export function profileFromExport(reply: Record<string, unknown>): ChannelProfile | undefined {
  const channel = reply['channel'];
  if (!channel || typeof channel !== 'object' || Array.isArray(channel)) return undefined;
  const record = channel as Record<string, unknown>;
  const hash = textOf(record, 'channel_hash');
  const nickname = textOf(record, 'channel_address');
  if (hash === '' && nickname === '') return undefined;
  return {
    name: textOf(record, 'channel_name') || nickname,
    nickname,
    hash,
    guid: textOf(record, 'channel_guid'),
    defaultAudience: {
      allowCid: textOf(record, 'channel_allow_cid'),
      allowGid: textOf(record, 'channel_allow_gid'),
      denyCid: textOf(record, 'channel_deny_cid'),
      denyGid: textOf(record, 'channel_deny_gid'),
    },
  };
}

/** The sign-in check failed: says why in words a person can act on. Never contains the password. */
export class ChannelSignInError extends Error {
  override name = 'ChannelSignInError';
}

function signInProblem(serverUrl: string, login: string, error: unknown): Error {
  if (error instanceof ChannelAuthError) {
    // Hubs take the channel nickname or the account email, never the channel's address (nick@hub).
    const [nickname, host] = login.split('@');
    const isAddress = host !== undefined && host.toLowerCase() === new URL(serverUrl).host.toLowerCase();
    return new ChannelSignInError(
      isAddress
        ? `${serverUrl} refused the login "${login}" (401): that is the channel's address, which hubs do not take for signing in; sign in with its nickname "${nickname ?? ''}" (or the account email) and the password.`
        : `${serverUrl} refused the login "${login}" (401). Check the channel nickname (as in nickname@hub, without the @hub part) or the account email, and the password.`,
      { cause: error },
    );
  }
  if (error instanceof ChannelReplyError) {
    switch (error.problem) {
      case 'empty':
      case 'false':
      case 'nothing-found':
        return new ChannelSignInError(
          `${serverUrl} did not confirm the login "${login}": it answered with ${error.problem === 'false' ? '`false`' : 'an empty reply'} instead of the channel. ` +
            'The nickname or password may be wrong, or the channel API may be turned off on this server.',
          { cause: error },
        );
      case 'not-implemented':
        return new ChannelSignInError(
          `${serverUrl} has no channel API (/api/z/1.0 answered "not implemented"). Is this a Hubzilla-compatible server?`,
          { cause: error },
        );
      default:
        return new ChannelSignInError(`Could not sign in to ${serverUrl} as "${login}": ${error.detail}`, {
          cause: error,
        });
    }
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Channel server accounts, a kind of their own next to the forge accounts: the address, login and
 * channel identity in global state, the password in SecretStorage (`forge.channel.<id>.password`),
 * never in settings, logs or error messages. One `ChannelClient` per account, built on first use.
 */
export class ChannelAccountManager implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly clients = new ClientCache<ChannelClient>((id) => this.createClient(id));
  private readonly profiles = new Map<string, Promise<ChannelProfile>>();
  private environmentAccount: ChannelAccountInfo | undefined;
  private environmentPassword: string | undefined;
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
      // Another window added or removed an account (forge tokens live in the same storage: only ours count).
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
    const serverUrl = environment['FORGE_CHANNEL_URL'];
    const login = environment['FORGE_CHANNEL_USER'];
    const password = environment['FORGE_CHANNEL_PASSWORD'];
    if (!serverUrl || !login || !password) return;
    const normalized = normalizeChannelUrl(serverUrl);
    if ('problem' in normalized) {
      this.log.warn(`FORGE_CHANNEL_URL ignored: ${normalized.problem}`);
      return;
    }
    this.environmentPassword = password;
    this.environmentAccount = {
      id: ENVIRONMENT_ACCOUNT_ID,
      label: `${login}@${new URL(normalized.url).host} (from environment)`,
      serverUrl: normalized.url,
      login,
      fromEnvironment: true,
    };
  }

  list(): ChannelAccountInfo[] {
    const stored = this.context.globalState.get<ChannelAccountInfo[]>(ACCOUNTS_KEY, []);
    return this.environmentAccount ? [this.environmentAccount, ...stored] : stored;
  }

  get(id: string): ChannelAccountInfo | undefined {
    return this.list().find((account) => account.id === id);
  }

  /**
   * Checks the address and then the login with the server (`channel/export/basic`, channel
   * section only) and saves the account only when the server named the channel.
   */
  async add(input: {
    serverUrl: string;
    login: string;
    password: string;
    label?: string;
    network?: AccountNetwork;
    signal?: AbortSignal;
  }): Promise<ChannelAccountInfo> {
    const normalized = normalizeChannelUrl(input.serverUrl);
    if ('problem' in normalized) throw new ChannelSignInError(normalized.problem);
    const login = input.login.trim();
    if (login === '') throw new ChannelSignInError('Enter the channel nickname or the account email.');
    if (input.password === '') throw new ChannelSignInError('Enter the password.');
    const network = input.network ?? {};
    const client = await this.buildClient(normalized.url, login, input.password, network);
    let profile: ChannelProfile;
    try {
      profile = await this.probe(client, normalized.url, login, input.signal);
    } finally {
      await client.close();
    }
    const host = new URL(normalized.url).host;
    const account: ChannelAccountInfo = {
      id: randomUUID(),
      label: input.label?.trim() || `${profile.name} (${profile.nickname || login}@${host})`,
      serverUrl: normalized.url,
      login,
      channel: { name: profile.name, nickname: profile.nickname, hash: profile.hash, guid: profile.guid },
      network,
    };
    await this.context.secrets.store(secretKey(account.id), input.password);
    const stored = this.context.globalState.get<ChannelAccountInfo[]>(ACCOUNTS_KEY, []);
    await this.context.globalState.update(ACCOUNTS_KEY, [...stored, account]);
    this.profiles.set(account.id, Promise.resolve(profile));
    this.log.info(`Channel account added: ${account.label}`);
    this.changed.fire();
    return account;
  }

  /** Forgets the account and deletes its password from secret storage. */
  async remove(id: string): Promise<void> {
    if (id === ENVIRONMENT_ACCOUNT_ID) {
      this.environmentAccount = undefined;
      this.environmentPassword = undefined;
    } else {
      const stored = this.context.globalState.get<ChannelAccountInfo[]>(ACCOUNTS_KEY, []);
      await this.context.globalState.update(
        ACCOUNTS_KEY,
        stored.filter((account) => account.id !== id),
      );
      await this.context.secrets.delete(secretKey(id));
    }
    this.profiles.delete(id);
    this.clients.drop(id);
    this.log.info('Channel account removed');
    this.changed.fire();
  }

  /** The client for an account, built on first use. */
  client(id: string): Promise<ChannelClient> {
    return this.clients.get(id);
  }

  /**
   * The account's channel and its default audience, asked once per session (again after
   * `forgetProfile`, e.g. on refresh).
   */
  profile(id: string): Promise<ChannelProfile> {
    let profile = this.profiles.get(id);
    if (!profile) {
      profile = this.fetchProfile(id);
      this.profiles.set(id, profile);
      profile.catch(() => this.profiles.delete(id));
    }
    return profile;
  }

  forgetProfile(id?: string): void {
    if (id === undefined) this.profiles.clear();
    else this.profiles.delete(id);
  }

  private async fetchProfile(id: string): Promise<ChannelProfile> {
    const account = this.get(id);
    if (!account) throw new Error('That channel account no longer exists');
    const profile = await this.probe(await this.client(id), account.serverUrl, account.login);
    if (account.fromEnvironment && this.environmentAccount) {
      this.environmentAccount = {
        ...this.environmentAccount,
        channel: { name: profile.name, nickname: profile.nickname, hash: profile.hash, guid: profile.guid },
      };
    }
    return profile;
  }

  private async probe(
    client: ChannelClient,
    serverUrl: string,
    login: string,
    signal?: AbortSignal,
  ): Promise<ChannelProfile> {
    let reply: Record<string, unknown>;
    try {
      reply = await client.exportChannel({ sections: ['channel'], signal });
    } catch (error) {
      throw signInProblem(serverUrl, login, error);
    }
    const profile = profileFromExport(reply);
    if (!profile) {
      throw new ChannelSignInError(
        `${serverUrl} accepted the login "${login}" but did not say which channel it belongs to.`,
      );
    }
    return profile;
  }

  private async createClient(id: string): Promise<ChannelClient> {
    const account = this.get(id);
    if (!account) throw new Error('That channel account no longer exists');
    const password = account.fromEnvironment
      ? this.environmentPassword
      : await this.context.secrets.get(secretKey(id));
    if (!password) {
      throw new Error(
        `No password is stored for ${account.label}. Remove the channel account and add it again.`,
      );
    }
    return this.buildClient(account.serverUrl, account.login, password, account.network ?? {});
  }

  /** Changes the account's CA file or trusted certificates; its client is built again. */
  async updateNetwork(id: string, network: AccountNetwork): Promise<void> {
    const stored = this.context.globalState.get<ChannelAccountInfo[]>(ACCOUNTS_KEY, []);
    await this.context.globalState.update(
      ACCOUNTS_KEY,
      stored.map((account) => (account.id === id ? { ...account, network } : account)),
    );
    this.clients.drop(id);
    this.changed.fire();
  }

  private async buildClient(
    serverUrl: string,
    login: string,
    password: string,
    network: AccountNetwork,
  ): Promise<ChannelClient> {
    const dispatcher = await dispatcherFor(serverUrl, network);
    const timeoutSeconds = vscode.workspace
      .getConfiguration('forge')
      .get<number>('requestTimeoutSeconds', 30);
    return ChannelClient.create({
      baseUrl: serverUrl,
      login,
      password,
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
}
