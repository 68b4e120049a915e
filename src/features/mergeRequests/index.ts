/*
 * The merge requests feature: the Merge Requests view, the merge request panel, notes and award
 * emoji, and their commands; the use cases (merge, close, reopen ...) in actions.ts and changes.ts
 * run without any UI. This file is its only public face.
 */

export {
  registerMergeRequestCommands as createMergeRequestsFeature,
  type MergeRequestsFeature,
} from './commands';
export type { MergeResult } from './actions';
export type { MergeRequestsTreeProvider } from './mergeRequestsTreeProvider';
export type { MergeRequestPanel } from './panel/mergeRequestPanel';
export type { MergeRequestHostMessage, MergeRequestSnapshot } from './panel/protocol';
