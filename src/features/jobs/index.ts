/*
 * The jobs feature: job commands (retry, play, cancel, erase, artifacts), the job trace panel, and
 * trace tails in the output panel; the use cases (`actions.ts`, and `jobChangeFlow.ts` with the
 * questions a change asks) are shared by the commands and the panel. This file is its only public
 * face.
 */

export { registerJobCommands, type JobRef, type JobsFeature } from './commands';
export { registerTraceCommands } from './traceCommands';
export { PipelineNode, JobsFolder, DownstreamLinkNode } from './nodes/jobNodes';
export type { TraceTail, TraceTails } from './traceTails';
export type { JobTracePanel } from './panel/jobTracePanel';
export type { JobTraceHostMessage } from './panel/protocol';
