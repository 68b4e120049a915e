import * as z from 'zod';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type DownloadOptions, type DownloadResult, NotFoundError, linkedAbort } from '../../api/http';
import type { HostingClient, Job, Project } from '../../api/hosting';
import {
  DownloadProgressTracker,
  type JobAction,
  artifactsFileName,
  formatBytes,
  jobPickRow,
  jobTitle,
  jobWebUrl,
  jobsForAction,
  noJobMessage,
  projectPath,
  refArtifactsFileName,
} from '../../domain/jobActions';
import type { JobChange } from './actions';
import { type JobTarget, changeJobAsked } from './jobChangeFlow';
import type { Services } from '../../services';
import { BranchNode, FOLDER_ORDER, ProjectNode, projectTarget } from '../projects';
import { JobNode, JobsFolder } from './nodes/jobNodes';
import { registerJobsFilterCommand } from './jobsFilterCommand';
import { registerCommands, valueOrThrow } from '../../platform/commands/registerCommand';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { checkRefName, problemOf } from '../../domain/inputValidation';
import { askText, pickOne, showError, showInformation, withProgress } from '../../platform/userMessages';
import { openServerLink } from '../../platform/serverLinks';

/**
 * Answers to the questions a job command would ask, for host tests and automation; menus never
 * pass them. Commands take them as their second argument: `(node, options)`.
 */
const JobOptionsSchema = z
  .strictObject({
    /** Erase, or run a deployment, without the modal confirmation. */
    confirmed: z.boolean().optional(),
    /** Where to save artifacts, instead of the save dialog. */
    destination: z.string().min(1).max(4096).optional(),
    /** Cancels a download, like the Cancel button of its progress notification. */
    signal: z.instanceof(AbortSignal).optional(),
    /** `downloadArtifactsByRef`: the branch or tag, instead of the input box. */
    ref: z.string().max(1000).optional(),
    /** `downloadArtifactsByRef`: the job name, instead of the quick pick. */
    jobName: z.string().max(1000).optional(),
  })
  .optional();
type JobCommandOptions = NonNullable<z.output<typeof JobOptionsSchema>>;

/** A job named by a panel or another command rather than a tree row. */
export interface JobRef {
  kind: 'forge.jobRef';
  accountId: string;
  project: Project;
  job: Job;
}

const JobRefSchema = z.custom<JobRef>(
  (value) =>
    typeof value === 'object' && value !== null && (value as Partial<JobRef>).kind === 'forge.jobRef',
  { error: vscode.l10n.t('expected a job') },
);

/** The job row, a job named by a panel, a project's or branch's row, or nothing (pick). */
export const JobArgumentSchema = z
  .union([
    rowOf(JobNode, vscode.l10n.t('a job')),
    JobRefSchema,
    rowOf(ProjectNode, vscode.l10n.t('a project')),
    rowOf(BranchNode, vscode.l10n.t('a branch')),
  ])
  .optional();
export type JobArgument = z.output<typeof JobArgumentSchema>;

/**
 * The job a command acts on: the tree row it ran on, or (from the palette) a project and then one
 * of its recent jobs (the first page of the job list) that the action applies to.
 */
export async function jobTarget(
  services: Services,
  arg: JobArgument,
  action: JobAction,
  placeHolder: string,
): Promise<JobTarget | undefined> {
  if (arg instanceof JobNode) {
    return { account: arg.owner.account, project: arg.owner.project, job: arg.job, node: arg };
  }
  if (arg !== undefined && 'kind' in arg) {
    const account = services.accounts.get(arg.accountId);
    if (!account)
      throw new Error(vscode.l10n.t('The account of this job was removed. Add it again to act on the job.'));
    return { account, project: arg.project, job: arg.job, node: undefined };
  }
  const target = await projectTarget(
    services,
    arg instanceof ProjectNode ? arg : undefined,
    vscode.l10n.t('Project of the job'),
  );
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  const path = projectPath(target.project);
  const page = await withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading the jobs of {0}', path) },
    () => client.listJobs(target.project.id).page({ perPage: 50 }),
  );
  const jobs = jobsForAction(page.items, action);
  if (jobs.length === 0) {
    void showInformation(noJobMessage(action, path));
    return undefined;
  }
  const picked = await pickOne(
    jobs.map((job) => ({ ...jobPickRow(job), job })),
    { placeHolder, matchOnDescription: true },
  );
  return picked ? { ...target, job: picked.job, node: undefined } : undefined;
}

/** A job change from a row or the palette: the job, then the shared flow (questions, progress, refresh). */
async function jobChangeCommand(
  services: Services,
  arg: JobArgument,
  change: JobChange,
  placeHolder: string,
  options: JobCommandOptions,
): Promise<string | undefined> {
  const target = await jobTarget(services, arg, change, placeHolder);
  if (!target) return undefined;
  return (await changeJobAsked(services, target, change, options))?.message;
}

/** Where the save dialog starts: the first workspace folder, else the home folder. */
function defaultSaveUri(fileName: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder?.scheme === 'file'
    ? vscode.Uri.joinPath(folder, fileName)
    : vscode.Uri.file(join(homedir(), fileName));
}

async function askDestination(fileName: string): Promise<string | undefined> {
  const uri = await vscode.window.showSaveDialog({
    defaultUri: defaultSaveUri(fileName),
    filters: { 'Zip archives': ['zip'] },
    saveLabel: vscode.l10n.t('Save Artifacts'),
    title: vscode.l10n.t('Save the artifacts archive'),
  });
  return uri?.fsPath;
}

/**
 * Streams an archive to `destination` with a cancellable progress notification (percent when the
 * size is known). The client writes `<destination>.part` and renames it when complete, so a
 * cancelled or failed download leaves no file.
 */
async function download(
  title: string,
  destination: string,
  signal: AbortSignal | undefined,
  start: (options: DownloadOptions) => Promise<DownloadResult>,
): Promise<DownloadResult> {
  return withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, cancellation) => {
      const link = linkedAbort(signal);
      const subscription = cancellation.onCancellationRequested(() => link.controller.abort());
      const tracker = new DownloadProgressTracker();
      return start({
        signal: link.signal,
        onProgress: ({ receivedBytes, totalBytes }) => {
          const update = tracker.update(receivedBytes, totalBytes);
          if (update) progress.report(update);
        },
      }).finally(() => {
        subscription.dispose();
        link.release();
      });
    },
  );
}

function reportSaved(what: string, result: DownloadResult): string {
  const message = vscode.l10n.t('Saved {0} to {1} ({2}).', what, result.path, formatBytes(result.bytes));
  void showInformation(message, vscode.l10n.t('Reveal in File Explorer')).then((choice) => {
    if (choice) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(result.path));
  });
  return message;
}

/** The ref for "download by ref": the branch row's name or the project's default branch, confirmed. */
async function askRef(suggested: string | undefined, path: string): Promise<string | undefined> {
  const ref = await askText({
    title: vscode.l10n.t('Latest artifacts of {0}', path),
    prompt: vscode.l10n.t('Branch or tag whose latest successful job to download from'),
    value: suggested ?? '',
    validateInput: (value) => problemOf(checkRefName(value)),
  });
  return ref;
}

/** The job name: one of the names seen on that ref recently, or typed. */
async function askJobName(client: HostingClient, project: Project, ref: string): Promise<string | undefined> {
  const recent = await client
    .listJobs(project.id)
    .page({ perPage: 100 })
    .then((page) => page.items)
    .catch(() => [] as Job[]);
  const names = [
    ...new Set(recent.filter((job) => job.ref === ref && job.artifacts_file).map((job) => job.name)),
  ];
  const typeIt = async (): Promise<string | undefined> =>
    (
      await askText({
        title: vscode.l10n.t('Latest artifacts on {0}', ref),
        prompt: vscode.l10n.t('Name of the job (the latest successful one with that name is used)'),
        validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Enter a job name') : undefined),
      })
    )?.trim() || undefined;
  if (names.length === 0) return typeIt();
  const other = { icon: 'edit', label: vscode.l10n.t('Another job name…'), name: undefined };
  const picked = await pickOne(
    [
      ...names.map((name) => ({
        label: name,
        description: vscode.l10n.t('recent job with artifacts'),
        name,
      })),
      other,
    ],
    { title: vscode.l10n.t('Latest artifacts on {0}', ref), placeHolder: vscode.l10n.t('Which job?') },
  );
  if (!picked) return undefined;
  return picked.name ?? typeIt();
}

/** Downloads a job's artifacts archive to a file the user chooses (or `options.destination`). */
export async function downloadJobArtifacts(services: Services, arg: JobArgument, options: JobCommandOptions) {
  const target = await jobTarget(
    services,
    arg,
    'downloadArtifacts',
    vscode.l10n.t('Job whose artifacts to download'),
  );
  if (!target) return undefined;
  const { job, project } = target;
  const destination =
    options.destination ??
    (await askDestination(artifactsFileName(project.path ?? projectPath(project), job.name, job.id)));
  if (!destination) return undefined;
  const client = await services.accounts.client(target.account.id);
  const result = await download(
    vscode.l10n.t('Downloading the artifacts of {0}', jobTitle(job)),
    destination,
    options.signal,
    (downloadOptions) => client.downloadArtifacts(project.id, job.id, destination, downloadOptions),
  );
  return reportSaved(vscode.l10n.t('the artifacts of {0}', jobTitle(job)), result);
}

/** Downloads the latest artifacts of a job name on a branch or tag. */
async function downloadArtifactsByRef(services: Services, arg: JobArgument, options: JobCommandOptions) {
  const owner = arg instanceof BranchNode ? arg.owner : arg instanceof ProjectNode ? arg : undefined;
  const target = await projectTarget(services, owner, vscode.l10n.t('Project whose artifacts to download'));
  if (!target) return undefined;
  const { project } = target;
  const path = projectPath(project);
  const typed =
    options.ref ??
    (await askRef(arg instanceof BranchNode ? arg.branch.name : (project.default_branch ?? undefined), path));
  if (typed === undefined) return undefined;
  const ref = valueOrThrow(checkRefName(typed));
  const client = await services.accounts.client(target.account.id);
  const jobName = options.jobName ?? (await askJobName(client, project, ref));
  if (!jobName) return undefined;
  const destination =
    options.destination ?? (await askDestination(refArtifactsFileName(project.path ?? path, ref, jobName)));
  if (!destination) return undefined;
  try {
    const result = await download(
      vscode.l10n.t('Downloading the latest artifacts of {0} on {1}', jobName, ref),
      destination,
      options.signal,
      (downloadOptions) =>
        client.downloadArtifactsByRef(project.id, ref, jobName, destination, downloadOptions),
    );
    return reportSaved(vscode.l10n.t('the latest artifacts of {0} on {1}', jobName, ref), result);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    const message = vscode.l10n.t(
      'No successful job named {0} on ref {1} has artifacts ({2}).',
      jobName,
      ref,
      path,
    );
    void showError(message);
    return message;
  }
}

/** Job actions: retry, play, cancel, erase, keep and download artifacts, open in the browser. */
export interface JobsFeature {
  /** Retries a job as the command does: its message, and the refresh of every view (for the status bar). */
  retry(ref: JobRef): Promise<unknown>;
  /**
   * Retries, plays or cancels a job as the commands do (a manual deployment asks first): the job the
   * server answered with, or undefined when not confirmed (the pipeline graph's node buttons).
   */
  change(ref: JobRef, change: 'retry' | 'play' | 'cancel'): Promise<Job | undefined>;
}

export function registerJobCommands(services: Services): JobsFeature {
  services.projects.contributeFolder((owner, context) => new JobsFolder(owner, context), FOLDER_ORDER.jobs);
  registerJobsFilterCommand(services.context, services.log);
  const declare = (
    id: string,
    run: (arg: JobArgument, options: JobCommandOptions) => unknown,
  ): CommandDeclaration =>
    defineCommand({
      id,
      args: [JobArgumentSchema, JobOptionsSchema],
      run: (arg, options) => run(arg, options ?? {}),
    });
  const declarations: CommandDeclaration[] = [];

  const changes: [JobChange, string][] = [
    ['retry', vscode.l10n.t('Job to retry')],
    ['play', vscode.l10n.t('Manual job to run')],
    ['cancel', vscode.l10n.t('Job to cancel')],
    ['keepArtifacts', vscode.l10n.t('Job whose artifacts to keep')],
    ['erase', vscode.l10n.t('Job to erase')],
  ];
  for (const [change, placeHolder] of changes) {
    declarations.push(
      declare(`forge.job.${change}`, (arg, options) =>
        jobChangeCommand(services, arg, change, placeHolder, options),
      ),
    );
  }

  declarations.push(
    declare('forge.job.downloadArtifacts', (arg, options) => downloadJobArtifacts(services, arg, options)),
    declare('forge.job.downloadArtifactsByRef', (arg, options) =>
      downloadArtifactsByRef(services, arg, options),
    ),
  );

  declarations.push(
    declare('forge.job.openInBrowser', async (arg) => {
      const target = await jobTarget(services, arg, 'openInBrowser', vscode.l10n.t('Job to open'));
      if (!target) return undefined;
      const url = jobWebUrl(target.job, target.project.web_url);
      return (await openServerLink(url, vscode.l10n.t('the web page of job #{0}', target.job.id)))
        ? url
        : undefined;
    }),
  );
  registerCommands(services.context, services.log, declarations);
  return {
    retry: (ref) => jobChangeCommand(services, ref, 'retry', vscode.l10n.t('Job to retry'), {}),
    change: async (ref, change) => {
      const target = await jobTarget(services, ref, change, '');
      return target && (await changeJobAsked(services, target, change))?.job;
    },
  };
}
