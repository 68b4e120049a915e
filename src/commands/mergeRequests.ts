import type { Services } from '../services';

/** Merge request actions, notes and award emoji; the Merge Requests view. */
export function registerMergeRequestCommands(_services: Services): void {
  // Filled in by the merge requests work (issue 4).
}
