/*
 * The Jobs folder's rows, one module each: the folder (pipelines, or jobs grouped by pipeline), a
 * pipeline row, a stage row, a job row.
 */
export { JobsFolder, type JobsFilter, type JobsFolderItem } from './jobsFolder';
export { PipelineNode, DownstreamLinkNode, type PipelineRowSource } from './pipelineNode';
export { JobNode } from './jobNode';
export { StageNode } from './stageNode';
