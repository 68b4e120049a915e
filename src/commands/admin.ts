import type { Services } from '../services';

/** Boards, triggers, system hooks, broadcast messages, SSH keys; the Admin view; todo filters. */
export function registerAdminCommands(_services: Services): void {
  // Filled in by the admin work (issue 4).
}
