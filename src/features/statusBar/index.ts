import { defineCommand } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import type { Services } from '../../services';
import { type StatusBarActions, StatusBarController } from './statusBarController';

/*
 * The status bar feature: the open folder's branch, its merge request and latest pipeline, with
 * the actions a click offers. This file is its only public face.
 */

export type {
  BranchStatus,
  BranchStatusView,
  StatusBarActions,
  StatusBarController,
} from './statusBarController';

export function createStatusBarFeature(services: Services, actions: StatusBarActions): StatusBarController {
  const controller = new StatusBarController(services, actions);
  services.context.subscriptions.push(controller);
  registerCommands(services.context, services.log, [
    defineCommand({ id: 'forge.statusBar.showActions', args: [], run: () => controller.showActions() }),
    // Returns what it found, for tests and automation.
    defineCommand({
      id: 'forge.statusBar.refresh',
      args: [],
      run: async () => {
        const status = await controller.refresh();
        return status && { ...status, ...controller.shown };
      },
    }),
  ]);
  // Looking at git and the server must not hold up activation.
  setTimeout(() => void controller.refresh(), 1_000);
  return controller;
}
