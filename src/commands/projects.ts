import type { Services } from '../services';

/** Project actions: create, edit, fork, star, archive, delete, open, copy URL, members; CI templates. */
export function registerProjectCommands(_services: Services): void {
  // Filled in by the projects work (issue 4).
}
