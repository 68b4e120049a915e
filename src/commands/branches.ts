import type { Services } from '../services';

/** Branch actions: create, protect, unprotect, delete, delete merged. */
export function registerBranchCommands(_services: Services): void {
  // Filled in by the branches work (issue 4).
}
