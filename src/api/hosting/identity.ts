import { ForbiddenError, UnauthorizedError } from '../http';
import type { HostingClient } from './client';

export interface AccountIdentity {
  /** Administrators may use sudo and see the admin views. */
  isAdmin: boolean;
}

/**
 * Checks a token against the server before it is saved. The spec has no "current user" endpoint,
 * so: the todos list requires a valid token (401 otherwise), and the system hooks list answers only
 * administrators (403 for everyone else).
 */
export async function probeIdentity(client: HostingClient, signal?: AbortSignal): Promise<AccountIdentity> {
  await client.listTodos().page({ perPage: 1, signal });
  try {
    await client.listSystemHooks().page({ perPage: 1, signal });
    return { isAdmin: true };
  } catch (error) {
    if (error instanceof ForbiddenError || error instanceof UnauthorizedError) return { isAdmin: false };
    throw error;
  }
}
