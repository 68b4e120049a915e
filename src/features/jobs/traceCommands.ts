import * as z from 'zod';
import * as vscode from 'vscode';
import { jobTitle, projectPath } from '../../domain/jobActions';
import { TraceTails } from './traceTails';
import type { Services } from '../../services';
import type { JobPanelActions, JobTracePanel } from './panel/jobTracePanel';
import { createJobTracePanels, openJobTracePanel } from './panel/jobTracePanels';
import type { PanelRegistry } from '../../webviews/shared/panelHost';
import {
  type JobArgument,
  JobArgumentSchema,
  type JobRef,
  downloadJobArtifacts,
  jobTarget,
} from './commands';
import { defineCommand } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import { pickOne, showInformation } from '../../platform/userMessages';

/** Poll delays (tests and benchmarks shorten them), for the panel and the tail; the panel's first-paint wait (tests). */
const TraceOptionsSchema = z
  .strictObject({
    minIntervalMs: z.number().positive().optional(),
    maxIntervalMs: z.number().positive().optional(),
    firstPaintWaitMs: z.number().nonnegative().optional(),
  })
  .optional();

/** `forge.job.stopTail`: which tail (its key), or 'all', instead of the quick pick. */
const StopTailOptionsSchema = z.strictObject({ tail: z.string().optional() }).optional();

export interface TraceServices {
  panels: PanelRegistry<JobTracePanel>;
  tails: TraceTails;
  /** Opens a job's trace panel, as "Show Trace" does. */
  show(ref: JobRef): Promise<unknown>;
}

/** The trace panel, and trace tails in the output panel with a status bar count of running tails. */
export function registerTraceCommands(services: Services): TraceServices {
  const tails = new TraceTails(services.log);
  services.context.subscriptions.push(tails);
  const tail = async (arg: JobArgument, options: z.output<typeof TraceOptionsSchema> = {}) => {
    const target = await jobTarget(
      services,
      arg,
      'openInBrowser',
      vscode.l10n.t('Job whose trace to follow'),
    );
    if (!target) return undefined;
    const client = await services.accounts.client(target.account.id);
    return tails.start(target, client, options).tail;
  };
  const actions: JobPanelActions = {
    tail: (ref) => tail(ref),
    downloadArtifacts: (ref) => downloadJobArtifacts(services, ref, {}),
  };
  const panels = createJobTracePanels(services, actions);

  registerCommands(services.context, services.log, [
    defineCommand({
      id: 'forge.job.showTrace',
      args: [JobArgumentSchema, TraceOptionsSchema],
      run: async (arg, options = {}) => {
        const target = await jobTarget(
          services,
          arg,
          'openInBrowser',
          vscode.l10n.t('Job whose trace to show'),
        );
        if (!target) return undefined;
        return openJobTracePanel(services, panels, actions, target, options);
      },
    }),
    defineCommand({
      id: 'forge.job.tailTrace',
      args: [JobArgumentSchema, TraceOptionsSchema],
      run: (arg, options) => tail(arg, options),
    }),
    defineCommand({
      id: 'forge.job.stopTail',
      args: [z.unknown(), StopTailOptionsSchema],
      run: (_arg, options) => stopTail(tails, options?.tail),
    }),
  ]);

  const statusItem = vscode.window.createStatusBarItem(
    'forge.traceTails',
    vscode.StatusBarAlignment.Left,
    40,
  );
  statusItem.name = vscode.l10n.t('Forge: Followed job traces');
  statusItem.command = 'forge.job.stopTail';
  const updateStatus = (): void => {
    const count = tails.active().length;
    if (count === 0) {
      statusItem.hide();
      return;
    }
    statusItem.text =
      count === 1 ? vscode.l10n.t('$(pulse) 1 trace') : vscode.l10n.t('$(pulse) {0} traces', count);
    statusItem.tooltip = vscode.l10n.t(
      'Following {0} job trace{1} in the Output panel. Click to stop.',
      count,
      count === 1 ? '' : 's',
    );
    statusItem.show();
  };
  services.context.subscriptions.push(statusItem, tails.onDidChange(updateStatus));

  const show = async (ref: JobRef) => {
    const target = await jobTarget(services, ref, 'openInBrowser', vscode.l10n.t('Job whose trace to show'));
    return target && openJobTracePanel(services, panels, actions, target, {});
  };
  return { panels, tails, show };
}

/** Stops one followed trace (its key), all ('all'), or the one picked; how many stopped. */
async function stopTail(tails: TraceTails, given: string | undefined): Promise<number | undefined> {
  const active = tails.active();
  if (active.length === 0) {
    void showInformation(vscode.l10n.t('No job trace is being followed.'));
    return 0;
  }
  let choice = given;
  if (!choice) {
    const picked = await pickOne(
      [
        ...active.map((tail) => ({
          label: jobTitle(tail.target.job),
          description: projectPath(tail.target.project),
          key: tail.key,
        })),
        {
          label: vscode.l10n.t('Stop all'),
          description:
            active.length === 1 ? vscode.l10n.t('1 trace') : vscode.l10n.t('{0} traces', active.length),
          key: 'all',
        },
      ],
      { placeHolder: vscode.l10n.t('Stop following which job trace?') },
    );
    choice = picked?.key;
  }
  if (!choice) return undefined;
  return choice === 'all' ? tails.stopAll() : tails.stop(choice) ? 1 : 0;
}
