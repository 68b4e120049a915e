import * as vscode from 'vscode';
import type { Job, Project } from '../../api/hosting';
import {
  eraseQuestion,
  jobActionMessage,
  looksLikeDeployment,
  playQuestion,
  projectPath,
} from '../../domain/jobActions';
import type { AccountInfo } from '../../platform/accounts';
import { showInformation, showWarning, withProgress } from '../../platform/userMessages';
import type { Services } from '../../services';
import type { JobNode } from './nodes/jobNodes';
import { type JobChange, changeJob } from './actions';

export interface JobTarget {
  account: AccountInfo;
  project: Project;
  job: Job;
  /** The tree row, when the command ran on one. */
  node: JobNode | undefined;
}

/** Asks before running a manual job that looks like a deployment (`forge.jobs.confirmDeployments`). */
async function confirmDeployment(job: Job, project: Project): Promise<boolean> {
  if (!looksLikeDeployment(job)) return true;
  if (!vscode.workspace.getConfiguration('forge').get<boolean>('jobs.confirmDeployments', true)) return true;
  const answer = await showWarning(
    playQuestion(job, projectPath(project)),
    { modal: true },
    vscode.l10n.t('Run'),
  );
  return answer === vscode.l10n.t('Run');
}

async function confirmed(change: JobChange, target: JobTarget): Promise<boolean> {
  if (change === 'play') return confirmDeployment(target.job, target.project);
  if (change !== 'erase') return true;
  const answer = await showWarning(
    eraseQuestion(target.job, projectPath(target.project)),
    { modal: true },
    vscode.l10n.t('Erase'),
  );
  return answer === vscode.l10n.t('Erase');
}

/**
 * One change to a job as a person makes it, from a tree row, the palette or the trace panel: asks
 * first where the change deserves it (erase; a manual deployment) unless `options.confirmed`, shows
 * progress on the Projects view, refreshes every view showing the job and says what happened.
 * Returns the job the server answered with and the sentence shown; undefined when not confirmed.
 */
export async function changeJobAsked(
  services: Services,
  target: JobTarget,
  change: JobChange,
  options: { confirmed?: boolean } = {},
): Promise<{ job: Job; message: string } | undefined> {
  if (!options.confirmed && !(await confirmed(change, target))) return undefined;
  const client = await services.accounts.client(target.account.id);
  const job = await withProgress({ location: { viewId: 'forge.projects' } }, () =>
    changeJob(client, target.project.id, target.job.id, change),
  );
  services.afterAction(target.node, {
    accountId: target.account.id,
    projectId: target.project.id,
    folder: 'jobs',
  });
  const message = jobActionMessage(change, target.job, job);
  void showInformation(message);
  return { job, message };
}
