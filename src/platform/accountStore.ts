import * as vscode from 'vscode';
import { DEFAULT_MAX_LIST_PAGES, type HttpClientOptions } from '../api/http';
import { ClientCache, type Closable, accountOfSecret } from '../state/clientCache';
import { type AccountNetwork, affectsConnections, dispatcherFor } from './network';

/** What every kind of account keeps outside secret storage. Never the token or password. */
export interface StoredAccount {
  id: string;
  label: string;
  serverUrl: string;
  network?: AccountNetwork;
  /** Came from environment variables for this session; not stored. */
  fromEnvironment?: boolean;
}

/** What the store hands a kind to build its client: the connection settings every client shares. */
export type ConnectionOptions = Pick<
  HttpClientOptions,
  'baseUrl' | 'dispatcher' | 'timeoutMs' | 'maxListPages' | 'userAgent' | 'log' | 'onFailure'
>;

/** How one kind of account (forge, channel) differs: where it is kept and how its client is built. */
export interface AccountKind<Info extends StoredAccount, Client extends Closable> {
  /** The global state key holding the stored accounts. */
  storageKey: string;
  /** Secrets are named `<prefix><id><suffix>`; other secrets never disturb these accounts. */
  secretPrefix: string;
  secretSuffix: string;
  /** The account and its secret given by environment variables, if any. */
  fromEnvironment(
    environment: NodeJS.ProcessEnv,
    log: vscode.LogOutputChannel,
  ): { account: Info; secret: string } | undefined;
  /** `check` builds a throw-away client to test a secret or address before anything is saved. */
  createClient(
    account: Info,
    secret: string,
    connection: ConnectionOptions,
    use: 'session' | 'check',
  ): Client;
  /** Says what to do when an account's secret is missing from secret storage. */
  missingSecret(account: Info): string;
}

function extensionVersion(context: vscode.ExtensionContext): string {
  const manifest: unknown = context.extension.packageJSON;
  const version =
    manifest && typeof manifest === 'object' ? (manifest as { version?: unknown }).version : undefined;
  return typeof version === 'string' ? version : 'dev';
}

/**
 * The accounts of one kind: metadata in global state, secrets in SecretStorage, an account from the
 * environment for the session, and one client per account, built on first use and dropped when its
 * secret (in any window), its network settings or the connection settings change.
 */
export class AccountStore<Info extends StoredAccount, Client extends Closable> implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly clients = new ClientCache<Client>((id) => this.buildFor(id));
  private environment: { account: Info; secret: string } | undefined;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly kind: AccountKind<Info, Client>,
    environment: NodeJS.ProcessEnv,
  ) {
    this.environment = kind.fromEnvironment(environment, log);
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
      // Another window added, updated or removed one of these secrets: only that account's client goes.
      context.secrets.onDidChange((event) => {
        const id = accountOfSecret(event.key, kind.secretPrefix, kind.secretSuffix);
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

  list(): Info[] {
    const stored = this.stored();
    return this.environment ? [this.environment.account, ...stored] : stored;
  }

  get(id: string): Info | undefined {
    return this.list().find((account) => account.id === id);
  }

  /** The client for an account, built on first use. */
  client(id: string): Promise<Client> {
    return this.clients.get(id);
  }

  /** Closes the account's client: the next use builds it again (new token, sudo user, address...). */
  dropClient(id: string): void {
    this.clients.drop(id);
  }

  /** Tells the views that accounts changed. */
  fireChanged(): void {
    this.changed.fire();
  }

  async secretOf(account: Info): Promise<string | undefined> {
    if (account.fromEnvironment) return this.environment?.secret;
    return this.context.secrets.get(this.secretKey(account.id));
  }

  /** Saves a new account and its secret. */
  async add(account: Info, secret: string): Promise<void> {
    await this.context.secrets.store(this.secretKey(account.id), secret);
    await this.context.globalState.update(this.kind.storageKey, [...this.stored(), account]);
    this.changed.fire();
  }

  /** Forgets the account and deletes its secret. */
  async remove(id: string): Promise<void> {
    if (this.environment?.account.id === id) this.environment = undefined;
    else {
      await this.context.globalState.update(
        this.kind.storageKey,
        this.stored().filter((account) => account.id !== id),
      );
      await this.context.secrets.delete(this.secretKey(id));
    }
    this.clients.drop(id);
    this.changed.fire();
  }

  /**
   * Changes what is kept about an account (the environment account's for this session only).
   * `reconnect` drops its client first (a new secret, address or network settings); `quiet` tells
   * no one (a fact learned while loading a view, which would otherwise reload it again).
   */
  async update(
    id: string,
    patch: Partial<Info>,
    change: { secret?: string; reconnect?: boolean; quiet?: boolean } = {},
  ): Promise<void> {
    const { secret, reconnect = secret !== undefined } = change;
    if (this.environment?.account.id === id) {
      this.environment = {
        account: { ...this.environment.account, ...patch },
        secret: secret ?? this.environment.secret,
      };
    } else {
      if (secret !== undefined) await this.context.secrets.store(this.secretKey(id), secret);
      await this.context.globalState.update(
        this.kind.storageKey,
        this.stored().map((account) => (account.id === id ? { ...account, ...patch } : account)),
      );
    }
    if (reconnect) this.clients.drop(id);
    if (!change.quiet) this.changed.fire();
  }

  /**
   * A client for an address and secret that are not saved yet (to check them first). The caller
   * closes it.
   */
  async checkingClient(account: Info, secret: string): Promise<Client> {
    return this.kind.createClient(account, secret, await this.connection(account), 'check');
  }

  private stored(): Info[] {
    return this.context.globalState.get<Info[]>(this.kind.storageKey, []);
  }

  private secretKey(id: string): string {
    return `${this.kind.secretPrefix}${id}${this.kind.secretSuffix}`;
  }

  private async buildFor(id: string): Promise<Client> {
    const account = this.get(id);
    if (!account) throw new Error(vscode.l10n.t('That account no longer exists'));
    const secret = await this.secretOf(account);
    if (!secret) throw new Error(this.kind.missingSecret(account));
    return this.kind.createClient(account, secret, await this.connection(account), 'session');
  }

  private async connection({ serverUrl, network }: Info): Promise<ConnectionOptions> {
    const settings = vscode.workspace.getConfiguration('forge');
    return {
      baseUrl: serverUrl,
      dispatcher: await dispatcherFor(serverUrl, network ?? {}),
      timeoutMs: settings.get<number>('requestTimeoutSeconds', 30) * 1000,
      maxListPages: settings.get<number>('maxListPages', DEFAULT_MAX_LIST_PAGES),
      userAgent: `forge-workbench/${extensionVersion(this.context)}`,
      log: (line) => this.log.trace(line),
      onFailure: (line) => this.log.warn(line),
    };
  }
}
