/*
 * What both kinds of account (forge, channel) keep per account: one client, built on first use,
 * closed when dropped. A build that failed is forgotten, so the next use tries again.
 */

export interface Closable {
  close(): unknown;
}

export class ClientCache<Client extends Closable> {
  private readonly clients = new Map<string, Promise<Client>>();

  constructor(private readonly build: (id: string) => Promise<Client>) {}

  get(id: string): Promise<Client> {
    let client = this.clients.get(id);
    if (!client) {
      client = this.build(id);
      this.clients.set(id, client);
      const built = client;
      built.catch(() => {
        if (this.clients.get(id) === built) this.clients.delete(id);
      });
    }
    return client;
  }

  /** Closes the account's client (once built); the next `get` builds a new one. */
  drop(id: string): void {
    const client = this.clients.get(id);
    this.clients.delete(id);
    void client?.then((built) => built.close()).catch(() => undefined);
  }

  dropAll(): void {
    for (const id of [...this.clients.keys()]) this.drop(id);
  }
}

/**
 * The account a secret belongs to, for secrets named `<prefix><id><suffix>` (`forge.account.7.token`);
 * undefined for a secret of another kind, which must not disturb these accounts.
 */
export function accountOfSecret(key: string, prefix: string, suffix: string): string | undefined {
  if (!key.startsWith(prefix) || !key.endsWith(suffix) || key.length <= prefix.length + suffix.length)
    return undefined;
  return key.slice(prefix.length, key.length - suffix.length);
}
