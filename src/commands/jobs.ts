import type { Services } from '../services';

/** Job actions: retry, play, cancel, erase, keep and download artifacts. */
export function registerJobCommands(_services: Services): void {
  // Filled in by the jobs work (issue 4).
}
