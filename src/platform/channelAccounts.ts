import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import { ChannelAuthError, ChannelClient, ChannelReplyError } from '../api/channel';
import { type AccountKind, AccountStore } from './accountStore';
import type { AccountNetwork } from './network';
import { type AccessLists, normalizeChannelUrl } from '../domain/channel';
import * as l10n from '@vscode/l10n';

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
        ? l10n.t(
            '{0} refused the login "{1}" (401): that is the channel\'s address, which hubs do not take for signing in; sign in with its nickname "{2}" (or the account email) and the password.',
            serverUrl,
            login,
            nickname ?? '',
          )
        : l10n.t(
            '{0} refused the login "{1}" (401). Check the channel nickname (as in nickname@hub, without the @hub part) or the account email, and the password.',
            serverUrl,
            login,
          ),
      { cause: error },
    );
  }
  if (error instanceof ChannelReplyError) {
    switch (error.problem) {
      case 'empty':
      case 'false':
      case 'nothing-found':
        return new ChannelSignInError(
          l10n.t(
            '{0} did not confirm the login "{1}": it answered with {2} instead of the channel. The nickname or password may be wrong, or the channel API may be turned off on this server.',
            serverUrl,
            login,
            error.problem === 'false' ? '`false`' : l10n.t('an empty reply'),
          ),
          { cause: error },
        );
      case 'not-implemented':
        return new ChannelSignInError(
          l10n.t(
            '{0} has no channel API (/api/z/1.0 answered "not implemented"). Is this a Hubzilla-compatible server?',
            serverUrl,
          ),
          { cause: error },
        );
      default:
        return new ChannelSignInError(
          l10n.t('Could not sign in to {0} as "{1}": {2}', serverUrl, login, error.detail),
          {
            cause: error,
          },
        );
    }
  }
  return error instanceof Error ? error : new Error(String(error));
}

function environmentAccount(
  environment: NodeJS.ProcessEnv,
  log: vscode.LogOutputChannel,
): { account: ChannelAccountInfo; secret: string } | undefined {
  const serverUrl = environment['FORGE_CHANNEL_URL'];
  const login = environment['FORGE_CHANNEL_USER'];
  const password = environment['FORGE_CHANNEL_PASSWORD'];
  if (!serverUrl || !login || !password) return undefined;
  const normalized = normalizeChannelUrl(serverUrl);
  if ('problem' in normalized) {
    log.warn(`FORGE_CHANNEL_URL ignored: ${normalized.problem}`);
    return undefined;
  }
  const account: ChannelAccountInfo = {
    id: 'channel-environment',
    label: l10n.t('{0}@{1} (from environment)', login, new URL(normalized.url).host),
    serverUrl: normalized.url,
    login,
    fromEnvironment: true,
  };
  return { account, secret: password };
}

const identityOf = ({ name, nickname, hash, guid }: ChannelProfile): ChannelIdentity => ({
  name,
  nickname,
  hash,
  guid,
});

/**
 * Channel server accounts, a kind of their own next to the forge accounts, in an `AccountStore`:
 * the address, login and channel identity in global state, the password in SecretStorage
 * (`forge.channel.<id>.password`), never in settings, logs or error messages. What only channel
 * accounts have: the sign-in check that names the channel, and the channel's profile.
 */
export class ChannelAccountManager implements vscode.Disposable {
  private readonly store: AccountStore<ChannelAccountInfo, ChannelClient>;
  readonly onDidChange: vscode.Event<void>;
  private readonly profiles = new Map<string, Promise<ChannelProfile>>();

  constructor(
    context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    environment: NodeJS.ProcessEnv = process.env,
  ) {
    const kind: AccountKind<ChannelAccountInfo, ChannelClient> = {
      storageKey: 'forge.channelAccounts',
      secretPrefix: 'forge.channel.',
      secretSuffix: '.password',
      fromEnvironment: environmentAccount,
      createClient: (account, password, connection) =>
        ChannelClient.create({ ...connection, login: account.login, password }),
      missingSecret: (account) =>
        l10n.t('No password is stored for {0}. Remove the channel account and add it again.', account.label),
    };
    this.store = new AccountStore(context, log, kind, environment);
    this.onDidChange = this.store.onDidChange;
  }

  dispose(): void {
    this.store.dispose();
  }

  list(): ChannelAccountInfo[] {
    return this.store.list();
  }

  get(id: string): ChannelAccountInfo | undefined {
    return this.store.get(id);
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
    if (login === '')
      throw new ChannelSignInError(l10n.t('Enter the channel nickname or the account email.'));
    if (input.password === '') throw new ChannelSignInError(l10n.t('Enter the password.'));
    const host = new URL(normalized.url).host;
    const candidate: ChannelAccountInfo = {
      id: randomUUID(),
      label: host,
      serverUrl: normalized.url,
      login,
      network: input.network ?? {},
    };
    const client = await this.store.checkingClient(candidate, input.password);
    let profile: ChannelProfile;
    try {
      profile = await this.probe(client, normalized.url, login, input.signal);
    } finally {
      await client.close();
    }
    const account: ChannelAccountInfo = {
      ...candidate,
      label: input.label?.trim() || `${profile.name} (${profile.nickname || login}@${host})`,
      channel: identityOf(profile),
    };
    this.profiles.set(account.id, Promise.resolve(profile));
    await this.store.add(account, input.password);
    this.log.info(`Channel account added: ${account.label}`);
    return account;
  }

  /** Forgets the account and deletes its password from secret storage. */
  async remove(id: string): Promise<void> {
    this.profiles.delete(id);
    await this.store.remove(id);
    this.log.info('Channel account removed');
  }

  /** The client for an account, built on first use. */
  client(id: string): Promise<ChannelClient> {
    return this.store.client(id);
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
    if (!account) throw new Error(l10n.t('That channel account no longer exists'));
    const profile = await this.probe(await this.client(id), account.serverUrl, account.login);
    // The environment account learns its channel on first use; stored ones knew it when added.
    if (account.fromEnvironment)
      await this.store.update(id, { channel: identityOf(profile) }, { quiet: true });
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
        l10n.t('{0} accepted the login "{1}" but did not say which channel it belongs to.', serverUrl, login),
      );
    }
    return profile;
  }

  /** Changes the account's CA file or trusted certificates; its client is built again. */
  async updateNetwork(id: string, network: AccountNetwork): Promise<void> {
    await this.store.update(id, { network }, { reconnect: true });
  }
}
