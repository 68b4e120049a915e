import * as vscode from 'vscode';
import * as z from 'zod';
import { JOB_SCOPES, type JobScope } from '../../api/hosting';
import { checkRefName, problemOf } from '../../domain/inputValidation';
import { defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import { type PickItem, askText, pickOne } from '../../platform/userMessages';
import { JobsFolder } from './nodes/jobNodes';
import { PIPELINE_FILTER_STATUSES, type PipelineFilterStatus } from './nodes/jobsFolder';
import * as l10n from '@vscode/l10n';

/** `forge.jobs.filter`; `options` is for tests and automation: the states (none: all) and the branch (none: every branch). */
export function registerJobsFilterCommand(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
): void {
  registerCommands(context, log, [
    defineCommand({
      id: 'forge.jobs.filter',
      args: [
        rowOf(JobsFolder, l10n.t("a project's Jobs folder")),
        z
          .strictObject({
            scope: z.array(z.enum(JOB_SCOPES)).max(20).optional(),
            ref: z.string().max(1000).optional(),
            /** The pipelines' status and how they were started (the pipelines list filters them). */
            status: z.enum(PIPELINE_FILTER_STATUSES).optional(),
            source: z
              .string()
              .regex(/^[a-z_]{1,40}$/)
              .optional(),
          })
          .optional(),
      ],
      run: filterJobs,
    }),
  ]);
}

/** The Jobs folder's filter: jobs in some states (asked of the server), or of one branch. */
async function filterJobs(
  folder: JobsFolder,
  options:
    | {
        scope?: JobScope[] | undefined;
        ref?: string | undefined;
        status?: PipelineFilterStatus | undefined;
        source?: string | undefined;
      }
    | undefined,
): Promise<void> {
  if (options) {
    folder.setFilter({
      scope: options.scope,
      ref: options.ref || undefined,
      pipelineStatus: options.status,
      source: options.source,
    });
    return;
  }
  const current = folder.filter;
  type Choice = PickItem & {
    scope?: JobScope[];
    branch?: true;
    pipelineStatus?: PipelineFilterStatus;
    source?: string;
  };
  const choices: Choice[] = [
    { label: l10n.t('All jobs'), icon: 'list-flat', scope: [] },
    { label: l10n.t('Running and pending'), icon: 'sync', scope: ['running', 'pending'] },
    { label: l10n.t('Failed'), icon: 'error', scope: ['failed'] },
    { label: l10n.t('Passed'), icon: 'pass', scope: ['success'] },
    { label: l10n.t('Canceled'), icon: 'circle-slash', scope: ['canceled'] },
    { label: l10n.t('Created'), icon: 'circle-outline', scope: ['created'] },
    { label: l10n.t('Skipped'), icon: 'debug-step-over', scope: ['skipped'] },
    { label: l10n.t('Pipelines'), kind: vscode.QuickPickItemKind.Separator },
    { label: l10n.t('Running pipelines'), icon: 'sync', pipelineStatus: 'running' },
    { label: l10n.t('Failed pipelines'), icon: 'error', pipelineStatus: 'failed' },
    { label: l10n.t('Passed pipelines'), icon: 'pass', pipelineStatus: 'success' },
    { label: l10n.t('Pipelines run by hand'), icon: 'person', source: 'web' },
    { label: l10n.t('Scheduled pipelines'), icon: 'calendar', source: 'schedule' },
    { label: l10n.t('Merge request pipelines'), icon: 'git-pull-request', source: 'merge_request_event' },
    { label: l10n.t('Child pipelines'), icon: 'type-hierarchy-sub', source: 'parent_pipeline' },
    {
      label: current.ref ? l10n.t('On branch {0}… (change)', current.ref) : l10n.t('On one branch…'),
      description: l10n.t('with the state chosen before'),
      icon: 'git-branch',
      branch: true,
    },
  ];
  const choice = await pickOne(choices, {
    placeHolder: l10n.t('Show which jobs?'),
    title: l10n.t('Jobs of {0}', folder.owner.project.path_with_namespace ?? ''),
  });
  if (!choice) return;
  if (choice.branch) {
    const ref = await askText({
      prompt: l10n.t('Show the jobs of this branch or tag (empty: every branch)'),
      value: current.ref ?? '',
      validateInput: (value) => (value.trim() === '' ? undefined : problemOf(checkRefName(value.trim()))),
    });
    if (ref === undefined) return;
    folder.setFilter({ ...current, ref: ref.trim() || undefined });
    return;
  }
  if (choice.pipelineStatus || choice.source) {
    folder.setFilter({ ref: current.ref, pipelineStatus: choice.pipelineStatus, source: choice.source });
    return;
  }
  folder.setFilter({ scope: choice.scope, ref: current.ref });
}
