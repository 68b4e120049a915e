import type { HostingClient } from '../api/hosting';
import { type CurrentUser, fetchCurrentUser } from '../api/hosting/currentUser';

/**
 * Who each account acts as (`GET /user`), asked once per account and forgotten when accounts
 * change (a new token or a sudo user is another person). A failed lookup is not cached.
 */
export class CurrentUsers {
  private readonly users = new Map<string, Promise<CurrentUser | undefined>>();

  constructor(private readonly clientFor: (accountId: string) => Promise<HostingClient>) {}

  get(accountId: string): Promise<CurrentUser | undefined> {
    let user = this.users.get(accountId);
    if (!user) {
      user = this.clientFor(accountId).then((client) => fetchCurrentUser(client));
      this.users.set(accountId, user);
      user.catch(() => {
        if (this.users.get(accountId) === user) this.users.delete(accountId);
      });
    }
    return user;
  }

  /** The username, or undefined when unknown or the lookup failed. */
  async username(accountId: string): Promise<string | undefined> {
    try {
      return (await this.get(accountId))?.username;
    } catch {
      return undefined;
    }
  }

  clear(): void {
    this.users.clear();
  }
}
