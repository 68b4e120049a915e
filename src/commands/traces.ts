import * as z from 'zod';
import * as vscode from 'vscode';
import { jobTitle, projectPath } from '../domain/jobActions';
import { TraceTails } from '../platform/traceTails';
import type { Services } from '../services';
import {
  type JobTracePanel,
  type JobTracePanelOptions,
  createJobTracePanels,
  openJobTracePanel,
} from '../webviews/jobTrace/jobTracePanel';
import type { PanelRegistry } from '../webviews/shared/panelHost';
import { JobArgumentSchema, jobTarget } from './jobs';
import { commandOptions } from './mergeRequestTargets';
import { defineCommand } from '../platform/commands/defineCommand';
import { registerCommand, registerCommands } from '../platform/commands/registerCommand';
import { pickOne, showInformation } from '../platform/userMessages';

export interface TraceCommandOptions extends JobTracePanelOptions {
  /** `forge.job.stopTail`: which tail (its key), or 'all', instead of the quick pick. */
  tail?: string;
}

export interface TraceServices {
  panels: PanelRegistry<JobTracePanel>;
  tails: TraceTails;
}

/** The trace panel, and trace tails in the output panel with a status bar count of running tails. */
export function registerTraceCommands(services: Services): TraceServices {
  const register = (id: string, handler: (arg?: unknown, options?: unknown) => unknown): void =>
    registerCommand(services.context, services.log, id, handler);
  const panels = createJobTracePanels(services);
  const tails = new TraceTails(services.log);
  services.context.subscriptions.push(tails);

  // The options carry test timings (poll intervals) as well: read as before, after the job is checked.
  registerCommands(services.context, services.log, [
    defineCommand({
      id: 'forge.job.showTrace',
      args: [JobArgumentSchema, z.unknown()],
      run: async (arg, rawOptions) => {
        const options = commandOptions<TraceCommandOptions>(rawOptions) ?? {};
        const target = await jobTarget(services, arg, 'openInBrowser', 'Job whose trace to show');
        if (!target) return undefined;
        return openJobTracePanel(services, panels, target, options);
      },
    }),
    defineCommand({
      id: 'forge.job.tailTrace',
      args: [JobArgumentSchema, z.unknown()],
      run: async (arg, rawOptions) => {
        const options = commandOptions<TraceCommandOptions>(rawOptions) ?? {};
        const target = await jobTarget(services, arg, 'openInBrowser', 'Job whose trace to follow');
        if (!target) return undefined;
        const client = await services.accounts.client(target.account.id);
        return tails.start(target, client, options).tail;
      },
    }),
  ]);

  register('forge.job.stopTail', async (_arg, rawOptions) => {
    const options = commandOptions<TraceCommandOptions>(rawOptions) ?? {};
    const active = tails.active();
    if (active.length === 0) {
      void showInformation('No job trace is being followed.');
      return 0;
    }
    let choice = options.tail;
    if (!choice) {
      const picked = await pickOne(
        [
          ...active.map((tail) => ({
            label: jobTitle(tail.target.job),
            description: projectPath(tail.target.project),
            key: tail.key,
          })),
          {
            label: 'Stop all',
            description: `${active.length} trace${active.length === 1 ? '' : 's'}`,
            key: 'all',
          },
        ],
        { placeHolder: 'Stop following which job trace?' },
      );
      choice = picked?.key;
    }
    if (!choice) return undefined;
    return choice === 'all' ? tails.stopAll() : tails.stop(choice) ? 1 : 0;
  });

  const statusItem = vscode.window.createStatusBarItem(
    'forge.traceTails',
    vscode.StatusBarAlignment.Left,
    40,
  );
  statusItem.name = 'Forge: Followed job traces';
  statusItem.command = 'forge.job.stopTail';
  const updateStatus = (): void => {
    const count = tails.active().length;
    if (count === 0) {
      statusItem.hide();
      return;
    }
    statusItem.text = `$(pulse) ${count} trace${count === 1 ? '' : 's'}`;
    statusItem.tooltip = `Following ${count} job trace${count === 1 ? '' : 's'} in the Output panel. Click to stop.`;
    statusItem.show();
  };
  services.context.subscriptions.push(statusItem, tails.onDidChange(updateStatus));

  return { panels, tails };
}
