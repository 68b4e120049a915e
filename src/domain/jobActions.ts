/**
 * Pure helpers behind the job commands: which jobs an action applies to, the default file name of
 * an artifacts archive, the job's web address, result sentences and download progress. No `vscode`.
 */
import { jobCapabilities, statusAppearance } from './jobStatus';
import { trimEndOf, trimStartOf } from '../text/linearText';
import * as l10n from '@vscode/l10n';

export interface JobShape {
  id: number;
  name: string;
  status: string;
  ref?: string;
  web_url?: string | null;
  artifacts_file?: unknown;
}

/** How a project is named in messages: `acme/web`. */
export function projectPath(project: {
  id: number;
  path_with_namespace?: string;
  path?: string;
  name?: string;
}): string {
  return project.path_with_namespace ?? project.path ?? project.name ?? String(project.id);
}

/** The job actions that depend on the job's state, and the capability token each needs. */
export const JOB_ACTION_TOKENS = {
  retry: 'retryable',
  play: 'playable',
  cancel: 'cancelable',
  erase: 'erasable',
  keepArtifacts: 'artifacts',
  downloadArtifacts: 'artifacts',
} as const;

export type JobAction = keyof typeof JOB_ACTION_TOKENS | 'openInBrowser';

/** Whether `action` makes sense for a job in this state (the same rule the tree's menus use). */
export function jobActionApplies(action: JobAction, job: JobShape): boolean {
  if (action === 'openInBrowser') return true;
  return jobCapabilities(job).includes(JOB_ACTION_TOKENS[action]);
}

/** The jobs of a list that `action` applies to, in their order. */
export function jobsForAction<T extends JobShape>(jobs: readonly T[], action: JobAction): T[] {
  return jobs.filter((job) => jobActionApplies(action, job));
}

/** What to say when none of a project's recent jobs suits the action picked from the palette. */
export function noJobMessage(action: JobAction, projectPath: string): string {
  switch (action) {
    case 'retry':
      return l10n.t('None of the recent jobs of {0} has finished, so none can be retried.', projectPath);
    case 'play':
      return l10n.t('No recent job of {0} is waiting to be run by hand.', projectPath);
    case 'cancel':
      return l10n.t('No recent job of {0} is still running or waiting.', projectPath);
    case 'erase':
      return l10n.t('None of the recent jobs of {0} has finished, so none can be erased.', projectPath);
    case 'keepArtifacts':
    case 'downloadArtifacts':
      return l10n.t('None of the recent jobs of {0} has artifacts.', projectPath);
    case 'openInBrowser':
      return l10n.t('{0} has no jobs.', projectPath);
  }
}

/** How a job is named in messages and quick picks: `lint (#12)`. */
export function jobTitle(job: Pick<JobShape, 'id' | 'name'>): string {
  return `${job.name} (#${job.id})`;
}

/** A quick-pick row for a job: label `name #id`, description `status · ref`. */
export function jobPickRow(job: JobShape): { label: string; description: string } {
  return {
    label: `${job.name} #${job.id}`,
    description: [statusAppearance(job.status).label.toLowerCase(), job.ref].filter(Boolean).join(' · '),
  };
}

/** Characters that are not safe in a file name on some system, and runs of them. */
const UNSAFE_FILE_CHARACTERS = /[^\w.-]+/g;

function fileNamePart(text: string): string {
  return trimEndOf(trimStartOf(text.replace(UNSAFE_FILE_CHARACTERS, '-'), '-.'), '-') || 'unnamed';
}

/**
 * The name the save dialog suggests for a job's artifacts: `<project>-<job>-<id>-artifacts.zip`,
 * with characters that are unsafe in file names (`/`, `:`, spaces …) turned into `-`.
 */
export function artifactsFileName(projectPath: string, jobName: string, jobId: number): string {
  return `${fileNamePart(projectPath)}-${fileNamePart(jobName)}-${jobId}-artifacts.zip`;
}

/** The same for the latest artifacts of a job name on a ref: `<project>-<ref>-<job>-artifacts.zip`. */
export function refArtifactsFileName(projectPath: string, ref: string, jobName: string): string {
  return `${fileNamePart(projectPath)}-${fileNamePart(ref)}-${fileNamePart(jobName)}-artifacts.zip`;
}

/** The job's page: its `web_url` when the server sent one, else `<project web_url>/-/jobs/<id>`. */
export function jobWebUrl(job: Pick<JobShape, 'id' | 'web_url'>, projectWebUrl: string | undefined): string {
  if (job.web_url) return job.web_url;
  if (!projectWebUrl)
    throw new Error(l10n.t('The server sent no web address for job #{0} or its project.', job.id));
  return `${trimEndOf(projectWebUrl, '/')}/-/jobs/${job.id}`;
}

/**
 * The sentence shown after an action, from the job the server returned: "Retried lint (#12): now
 * pending". Real servers retry into a new job: "Retried lint (#12) as #13: now pending".
 */
export function jobActionMessage(
  action: 'retry' | 'play' | 'cancel' | 'erase' | 'keepArtifacts',
  before: Pick<JobShape, 'id' | 'name' | 'status'>,
  after: Pick<JobShape, 'id' | 'status'>,
): string {
  const title = jobTitle(before);
  const now = statusAppearance(after.status).label.toLowerCase();
  switch (action) {
    case 'retry':
      return l10n.t('Retried {0}{1}: now {2}', title, after.id !== before.id ? ` as #${after.id}` : '', now);
    case 'play':
      return l10n.t('Started {0}: now {1}', title, now);
    case 'cancel':
      return after.status === 'canceled' || after.status === 'canceling'
        ? l10n.t('Canceled {0}: now {1}', title, now)
        : l10n.t('{0} had already finished: {1}', title, now);
    case 'erase':
      return l10n.t('Erased {0}: its trace and artifacts are deleted', title);
    case 'keepArtifacts':
      return l10n.t('Kept the artifacts of {0}: they no longer expire', title);
  }
}

/** The modal question before erasing: "Erase job lint #12 of acme/web? Its trace and artifacts are deleted." */
export function eraseQuestion(job: Pick<JobShape, 'id' | 'name'>, projectPath: string): string {
  return l10n.t(
    'Erase job {0} #{1} of {2}? Its trace and artifacts are deleted.',
    job.name,
    job.id,
    projectPath,
  );
}

/**
 * Whether a manual job looks like a deployment (its name or stage says deploy, production, prod or
 * release), which running by mistake would be costly: playing it asks first.
 */
export function looksLikeDeployment(job: { name: string; stage?: string | null }): boolean {
  return /(^|[^a-z])(deploy|deployment|production|prod|release)([^a-z]|$)/i.test(
    `${job.name} ${job.stage ?? ''}`,
  );
}

export function playQuestion(
  job: Pick<JobShape, 'id' | 'name'> & { stage?: string | null },
  projectPath: string,
): string {
  return job.stage
    ? l10n.t(
        'Run {0} #{1} (stage {2}) of {3}? It looks like a deployment.',
        job.name,
        job.id,
        job.stage,
        projectPath,
      )
    : l10n.t('Run {0} #{1} of {2}? It looks like a deployment.', job.name, job.id, projectPath);
}

const UNKNOWN_TOTAL_STEP = 256 * 1024;

/**
 * Turns download progress (bytes so far, total when known) into the increments a VS Code progress
 * bar wants (percent since the last report), and a message.
 */
export class DownloadProgressTracker {
  private reportedPercent = 0;
  private reportedBytes = -1;

  /** `undefined` when there is nothing new to show. */
  update(
    receivedBytes: number,
    totalBytes: number | undefined,
  ): { increment: number | undefined; message: string } | undefined {
    if (totalBytes === undefined || totalBytes <= 0) {
      // No total: say how much arrived, at most once per 256 KB.
      if (this.reportedBytes >= 0 && receivedBytes - this.reportedBytes < UNKNOWN_TOTAL_STEP)
        return undefined;
      this.reportedBytes = receivedBytes;
      return { increment: undefined, message: formatBytes(receivedBytes) };
    }
    const percent = Math.min(100, Math.floor((receivedBytes / totalBytes) * 100));
    if (percent <= this.reportedPercent && receivedBytes < totalBytes) return undefined;
    const increment = percent - this.reportedPercent;
    this.reportedPercent = percent;
    return { increment, message: l10n.t('{0}% of {1}', percent, formatBytes(totalBytes)) };
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return l10n.t('{0} KB', (bytes / 1024).toFixed(1));
  if (bytes < 1024 * 1024 * 1024) return l10n.t('{0} MB', (bytes / (1024 * 1024)).toFixed(1));
  return l10n.t('{0} GB', (bytes / (1024 * 1024 * 1024)).toFixed(2));
}
