/*
 * The jobs feature. Moving in step by step (issue 21): so far its use cases and the one flow of a
 * job change that the commands and the trace panel share. This file is its only public face.
 */

export { type JobChange, changeJob } from './actions';
export { type JobTarget, changeJobAsked } from './jobChangeFlow';
