/*
 * The merge requests feature. Moving in step by step (issue 21): so far its use cases. This file is
 * its only public face.
 */

export { type MergeOptions, type MergeResult, describeMergeResult, mergeRefusal, sendMerge } from './actions';
export { type ChangeOutcome, type MergeRequestChange, changeMergeRequest } from './changes';
