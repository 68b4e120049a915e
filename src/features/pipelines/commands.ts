import * as z from 'zod';
import * as vscode from 'vscode';
import type { Job, PipelineDetails, Project } from '../../api/hosting';
import { projectPath } from '../../domain/jobActions';
import type { AccountInfo } from '../../platform/accounts';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import { openServerLink } from '../../platform/serverLinks';
import { showInformation, showWarning, withProgress } from '../../platform/userMessages';
import type { Services } from '../../services';
import { type JobRef, PipelineNode } from '../jobs';
import { ProjectNode, projectTarget } from '../projects';
import {
  PipelineArgumentSchema,
  type PipelineArgument,
  type PipelineTarget,
  checkAllowed,
  orUnavailable,
  pipelineTarget,
  PipelineLinkArgumentSchema,
  type PipelineLinkArgument,
  pipelineLinkTarget,
} from './pipelineTarget';
import { type RunPipelineAnswers, runPipelineAsked } from './runPipeline';
import { PipelineWatcher } from './pipelineWatcher';
import type { BranchStatus } from '../statusBar';
import { type PipelineGraphPanels, createPipelineGraphPanels } from './panel/pipelineGraphPanels';

/** Answers to a pipeline command's questions, for host tests and automation; menus never pass them. */
const PipelineOptionsSchema = z
  .strictObject({
    /** Delete without the modal question. */
    confirmed: z.boolean().optional(),
    /** Run pipeline: the branch or tag, instead of the pick. */
    ref: z.string().min(1).max(1000).optional(),
    /** Run pipeline: the variables, instead of the form. */
    variables: z
      .array(
        z.strictObject({
          key: z.string().min(1).max(255),
          value: z.string().max(100_000),
          variable_type: z.enum(['env_var', 'file']).optional(),
        }),
      )
      .max(200)
      .optional(),
    /** Run pipeline from the palette: the project (path or id) and account, instead of the picks. */
    project: z.union([z.string().min(1).max(1000), z.number().int()]).optional(),
    accountId: z.string().min(1).max(200).optional(),
  })
  .optional();
type PipelineOptions = NonNullable<z.output<typeof PipelineOptionsSchema>>;

function refreshAfter(services: Services, target: PipelineTarget): void {
  services.afterAction(target.node, {
    accountId: target.account.id,
    projectId: target.project.id,
    folder: 'jobs',
  });
}

async function changePipeline(
  services: Services,
  watcher: PipelineWatcher,
  arg: PipelineArgument,
  action: 'retry' | 'cancel',
): Promise<string | undefined> {
  const target = await pipelineTarget(services, arg, action);
  return target && applyChange(services, watcher, target, action);
}

/** Retries or cancels the pipeline, refreshes, says so; a retried one is watched until it ends. */
async function applyChange(
  services: Services,
  watcher: PipelineWatcher,
  target: PipelineTarget,
  action: 'retry' | 'cancel',
): Promise<string> {
  const client = await services.accounts.client(target.account.id);
  const pipeline = await withProgress({ location: { viewId: 'forge.projects' } }, () =>
    orUnavailable(target.pipelineId, () =>
      action === 'retry'
        ? client.retryPipeline(target.project.id, target.pipelineId)
        : client.cancelPipeline(target.project.id, target.pipelineId),
    ),
  );
  refreshAfter(services, target);
  if (action === 'retry') watcher.watch(target.account, target.project, pipeline, 'mine');
  const message =
    action === 'retry'
      ? vscode.l10n.t(
          'Pipeline #{0}: its failed and canceled jobs run again ({1}).',
          pipeline.id,
          pipeline.status,
        )
      : vscode.l10n.t('Pipeline #{0} canceled ({1}).', pipeline.id, pipeline.status);
  void showInformation(message);
  return message;
}

async function deletePipeline(services: Services, arg: PipelineArgument, options: PipelineOptions) {
  const row = await pipelineTarget(services, arg, 'delete');
  if (!row) return undefined;
  const path = projectPath(row.project);
  if (!options.confirmed) {
    const answer = await showWarning(
      vscode.l10n.t(
        'Delete pipeline #{0} of {1}? Its jobs, traces and artifacts are deleted with it. This cannot be undone.',
        row.pipelineId,
        path,
      ),
      { modal: true },
      vscode.l10n.t('Delete'),
    );
    if (answer !== vscode.l10n.t('Delete')) return undefined;
  }
  const client = await services.accounts.client(row.account.id);
  await withProgress({ location: { viewId: 'forge.projects' } }, () =>
    orUnavailable(row.pipelineId, () => client.deletePipeline(row.project.id, row.pipelineId)),
  );
  refreshAfter(services, row);
  const message = vscode.l10n.t('Pipeline #{0} of {1} deleted.', row.pipelineId, path);
  void showInformation(message);
  return message;
}

async function runPipeline(
  services: Services,
  watcher: PipelineWatcher,
  arg: PipelineArgument,
  options: PipelineOptions,
): Promise<PipelineDetails | undefined> {
  const owner = arg instanceof ProjectNode ? arg : arg !== undefined ? arg.owner : undefined;
  const target: { account: AccountInfo; project: ProjectNode['project'] } | undefined = owner
    ? { account: owner.account, project: owner.project }
    : await projectTarget(services, undefined, vscode.l10n.t('Run a pipeline of which project?'), {
        ...(options.project === undefined ? {} : { project: options.project }),
        ...(options.accountId === undefined ? {} : { accountId: options.accountId }),
      });
  if (!target) return undefined;
  const answers = {
    ...(options.ref === undefined ? {} : { ref: options.ref }),
    ...(options.variables === undefined ? {} : { variables: options.variables }),
  };
  return startPipeline(
    services,
    watcher,
    target,
    answers,
    arg instanceof PipelineNode ? arg.ref : undefined,
    owner,
  );
}

/** Asks what is not answered, starts the pipeline, watches it, refreshes and says so. */
async function startPipeline(
  services: Services,
  watcher: PipelineWatcher,
  target: { account: AccountInfo; project: Project },
  answers: RunPipelineAnswers,
  suggestedRef: string | undefined,
  owner?: ProjectNode,
): Promise<PipelineDetails | undefined> {
  const client = await services.accounts.client(target.account.id);
  const pipeline = await runPipelineAsked(client, target.account, target.project, answers, suggestedRef);
  if (!pipeline) return undefined;
  watcher.watch(target.account, target.project, pipeline, 'mine');
  services.afterAction(owner, { accountId: target.account.id, projectId: target.project.id, folder: 'jobs' });
  void showInformation(
    vscode.l10n.t('Pipeline #{0} started on {1} ({2}).', pipeline.id, pipeline.ref, pipeline.status),
  );
  return pipeline;
}

/** What other features use of pipelines: watching the branch's latest one (the status bar). */
export interface PipelinesFeature {
  /** The open pipeline graphs (host tests reach them here). */
  readonly graphs: PipelineGraphPanels;
  /** Says when the open folder's branch's latest pipeline ends (`forge.pipelines.notify` = branch). */
  readonly watchBranchPipeline: (status: BranchStatus) => void;
  /** Run Pipeline on the branch (the status bar's menu): the variables form, then as the command. */
  readonly runOnBranch: (status: BranchStatus) => Promise<unknown>;
  /** Retry or cancel the branch's latest pipeline (the status bar's menu), as the commands do. */
  readonly changeBranchPipeline: (status: BranchStatus, action: 'retry' | 'cancel') => Promise<unknown>;
}

/** The pipelines feature's commands: run, retry, cancel, delete, open and copy the link, the graph. */
export function registerPipelineCommands(
  services: Services,
  /** The jobs feature: the trace panel (a failed pipeline's first failed job, a graph's node) and job changes. */
  jobs: {
    traces: { show(ref: JobRef): Promise<unknown> };
    jobs: { change(ref: JobRef, change: 'retry' | 'play' | 'cancel'): Promise<Job | undefined> };
  },
): PipelinesFeature {
  const watcher = new PipelineWatcher(services, (ref) => jobs.traces.show(ref));
  services.context.subscriptions.push(watcher);
  const graphs = createPipelineGraphPanels(services, {
    showTrace: (ref) => jobs.traces.show(ref),
    changeJob: (ref, change) => jobs.jobs.change(ref, change),
    // The graph offers only what its pipeline's state allows (its header's buttons).
    changePipeline: (target, action) =>
      applyChange(services, watcher, { ...target, status: '', webUrl: undefined, node: undefined }, action),
  });
  const declare = (
    id: string,
    run: (arg: PipelineArgument, options: PipelineOptions) => unknown,
  ): CommandDeclaration =>
    defineCommand({
      id,
      args: [PipelineArgumentSchema, PipelineOptionsSchema],
      run: (arg, options) => run(arg, options ?? {}),
    });
  const declareLink = (id: string, run: (arg: PipelineLinkArgument) => unknown): CommandDeclaration =>
    defineCommand({ id, args: [PipelineLinkArgumentSchema], run: (arg) => run(arg) });
  registerCommands(services.context, services.log, [
    declare('forge.pipeline.run', (arg, options) => runPipeline(services, watcher, arg, options)),
    declare('forge.pipeline.retry', (arg) => changePipeline(services, watcher, arg, 'retry')),
    declare('forge.pipeline.cancel', (arg) => changePipeline(services, watcher, arg, 'cancel')),
    declare('forge.pipeline.delete', (arg, options) => deletePipeline(services, arg, options)),
    declareLink('forge.pipeline.openInBrowser', async (arg) => {
      const row = await pipelineLinkTarget(services, arg, 'openInBrowser');
      if (!row) return undefined;
      const url = row.webUrl ?? '';
      return (await openServerLink(url, vscode.l10n.t('the web page of pipeline #{0}', row.pipelineId)))
        ? url
        : undefined;
    }),
    declare('forge.pipeline.showGraph', async (arg) => {
      const row = await pipelineTarget(services, arg, 'showGraph');
      return row && graphs.open(row);
    }),
    declareLink('forge.pipeline.copyLink', async (arg) => {
      const row = await pipelineLinkTarget(services, arg, 'copyLink');
      if (!row) return undefined;
      const url = row.webUrl ?? '';
      await vscode.env.clipboard.writeText(url);
      void showInformation(vscode.l10n.t('Copied the link to pipeline #{0}.', row.pipelineId));
      return url;
    }),
  ]);
  return {
    graphs,
    runOnBranch: (status) => startPipeline(services, watcher, status, { ref: status.branch }, status.branch),
    changeBranchPipeline: async (status, action) => {
      if (!status.pipeline) return undefined;
      const target: PipelineTarget = {
        account: status.account,
        project: status.project,
        pipelineId: status.pipeline.id,
        status: status.pipeline.status,
        webUrl: status.pipeline.webUrl,
        node: undefined,
      };
      return applyChange(services, watcher, checkAllowed(target, action), action);
    },
    watchBranchPipeline: (status) => {
      if (status.pipeline) watcher.watch(status.account, status.project, status.pipeline, 'branch');
    },
  };
}
