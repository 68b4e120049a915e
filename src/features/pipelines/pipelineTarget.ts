/*
 * The pipeline a command acts on: its row, or (from the palette or a project row) a project and then
 * one of its recent pipelines that the action applies to; and the words and 404s the commands share.
 */
import * as z from 'zod';
import * as vscode from 'vscode';
import { NotFoundError } from '../../api/http';
import type { Project } from '../../api/hosting';
import { type PipelineAction, pipelineActions } from '../../domain/pipelineActions';
import { projectPath } from '../../domain/jobActions';
import type { AccountInfo } from '../../platform/accounts';
import { rowOf } from '../../platform/commands/defineCommand';
import { pickOne, showInformation, withProgress } from '../../platform/userMessages';
import type { Services } from '../../services';
import { DownstreamLinkNode, JobsFolder, PipelineNode } from '../jobs';
import { ProjectNode, projectTarget } from '../projects';

export const PipelineArgumentSchema = z
  .union([
    rowOf(PipelineNode, vscode.l10n.t('a pipeline')),
    rowOf(ProjectNode, vscode.l10n.t('a project')),
    rowOf(JobsFolder, vscode.l10n.t("a project's jobs")),
  ])
  .optional();
export type PipelineArgument = z.output<typeof PipelineArgumentSchema>;

/** The pipeline a command acts on, from its row or picked among a project's recent ones. */
export interface PipelineTarget {
  account: AccountInfo;
  project: Project;
  pipelineId: number;
  status: string;
  webUrl: string | undefined;
  /** The pipeline's commit, when known. */
  sha?: string | undefined;
  /** The tree row, when the command ran on one. */
  node: PipelineNode | undefined;
}

/** What a command does to a pipeline: an action of the capability table, or drawing its graph (any state). */
export type TargetAction = PipelineAction | 'showGraph';

export function checkAllowed(target: PipelineTarget, action: TargetAction): PipelineTarget {
  if (action === 'showGraph') return target;
  const allowed = pipelineActions({ status: target.status, web_url: target.webUrl });
  if (!allowed.includes(action))
    throw new Error(
      vscode.l10n.t(
        'Pipeline #{0} is {1}: it cannot be {2} now.',
        target.pipelineId,
        target.status,
        actionWord(action),
      ),
    );
  return target;
}

/**
 * A pipeline row, or (from the palette or a project row) a project and then one of its recent
 * pipelines (the first page) that the action applies to.
 */
export async function pipelineTarget(
  services: Services,
  arg: PipelineArgument,
  action: TargetAction,
): Promise<PipelineTarget | undefined> {
  if (arg instanceof PipelineNode && arg.pipelineId !== undefined) {
    const { account, project } = arg.owner;
    const row = {
      account,
      project,
      pipelineId: arg.pipelineId,
      status: arg.pipelineStatus,
      webUrl: arg.webUrl,
      sha: arg.sha,
    };
    return checkAllowed({ ...row, node: arg }, action);
  }
  const owner = arg instanceof ProjectNode ? arg : arg instanceof JobsFolder ? arg.owner : undefined;
  const target = await projectTarget(services, owner, vscode.l10n.t('Project of the pipeline'));
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  const path = projectPath(target.project);
  const page = await withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading the pipelines of {0}', path) },
    () => orUnavailable(0, () => client.listPipelines(target.project.id).page({ perPage: 50 })),
  );
  const suitable =
    action === 'showGraph'
      ? page.items
      : page.items.filter((pipeline) => pipelineActions(pipeline).includes(action));
  if (suitable.length === 0) {
    void showInformation(
      vscode.l10n.t('No recent pipeline of {0} can be {1} now.', path, actionWord(action)),
    );
    return undefined;
  }
  const picked = await pickOne(
    suitable.map((pipeline) => ({
      label: `#${pipeline.id}`,
      description: [pipeline.ref, pipeline.status, pipeline.source, pipeline.name]
        .filter(Boolean)
        .join(' · '),
      pipeline,
    })),
    { placeHolder: vscode.l10n.t('Which pipeline of {0}?', path), matchOnDescription: true },
  );
  if (!picked) return undefined;
  const { pipeline } = picked;
  const webUrl = pipeline.web_url ?? undefined;
  return {
    ...target,
    pipelineId: pipeline.id,
    status: pipeline.status,
    webUrl,
    sha: pipeline.sha ?? undefined,
    node: undefined,
  };
}

export function actionWord(action: TargetAction): string {
  switch (action) {
    case 'showGraph':
    case 'retry':
      return vscode.l10n.t('retried');
    case 'cancel':
      return vscode.l10n.t('canceled');
    case 'delete':
      return vscode.l10n.t('deleted');
    case 'openInBrowser':
    case 'copyLink':
      return vscode.l10n.t('opened');
  }
}

/** A 404 on a pipeline action: gone, or a server without the endpoint (GitLab before 8.11). */
export async function orUnavailable<T>(pipelineId: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const message =
      pipelineId === 0
        ? vscode.l10n.t('This server does not list pipelines (GitLab 8.11 or later does).')
        : vscode.l10n.t(
            'The server does not know pipeline #{0}: it was deleted, or the server does not offer this action (GitLab 8.11 or later does).',
            pipelineId,
          );
    throw new Error(message, { cause: error });
  }
}

/** The link commands also take a pipeline of another project that a trigger job started. */
export const PipelineLinkArgumentSchema = z.union([
  rowOf(DownstreamLinkNode, vscode.l10n.t("another project's pipeline")),
  PipelineArgumentSchema,
]);
export type PipelineLinkArgument = z.output<typeof PipelineLinkArgumentSchema>;

/** The pipeline whose page a link command opens or copies: another project's row, or as `pipelineTarget`. */
export async function pipelineLinkTarget(
  services: Services,
  arg: PipelineLinkArgument,
  action: 'openInBrowser' | 'copyLink',
): Promise<{ pipelineId: number; webUrl: string | undefined } | undefined> {
  if (arg instanceof DownstreamLinkNode)
    return { pipelineId: arg.pipeline.id, webUrl: arg.pipeline.web_url ?? undefined };
  return pipelineTarget(services, arg, action);
}
