/*
 * The pipelines feature (issue 37): a pipeline as a whole — run one with variables (the CI file's
 * prefilled ones first), retry its failed jobs, cancel, delete, open or copy its link, and its graph
 * (stages, jobs, `needs:` edges, downstream pipelines; live while it runs). Its rows are the Jobs
 * folder's pipeline rows. This file is its only public face.
 */

export { registerPipelineCommands, type PipelinesFeature } from './commands';
export type { PipelineGraphPanel } from './panel/pipelineGraphPanel';
export type { PipelineGraphHostMessage } from './panel/protocol';
