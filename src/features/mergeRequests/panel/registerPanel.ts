/** `forge.mergeRequest.openPanel` (a row, a question, or the merge request named in options) and the panels' registry. */
import { MergeRequestPanel } from './mergeRequestPanel';
import * as vscode from 'vscode';
import * as z from 'zod';
import { defineCommand } from '../../../platform/commands/defineCommand';
import { MergeRequestArgumentSchema } from '../commandArguments';
import type { Project } from '../../../api/hosting';
import {
  type MergeRequestCommandContext,
  type MergeRequestTarget,
  pickMergeRequest,
} from '../mergeRequestTargets';
import { registerCommands, valueOrThrow } from '../../../platform/commands/registerCommand';
import { mergeRequestPanelKey } from '../../../domain/mergeRequestView';
import { registerPanelRestorer, restoredProject } from '../../../webviews/shared/panelRestore';
import { PanelRegistry } from '../../../webviews/shared/panelHost';
import { checkProjectPath } from '../../../domain/inputValidation';

/*
 * The merge request panel (host side): one webview per merge request, keyed `account|project|iid`.
 * It loads the merge request, its changes, commits, notes and award emoji into one snapshot and sends
 * it whenever the page asks (`ready`, each time the page loads). The header buttons run the same
 * commands as the tree menus (with a `MergeRequestRef` as their first argument), so the messages,
 * confirmations and results are the same; the panel refreshes after each action.
 */

/** The merge request named outright (tests, automation), instead of a row or a question. */
const OpenPanelOptionsSchema = z.strictObject({
  /** Default: the only account, or the first. */
  accountId: z.string().optional(),
  /** Project id or path. */
  project: z.union([z.number().int().positive(), z.string()]),
  iid: z.number().int().positive(),
});

type OpenPanelOptions = z.output<typeof OpenPanelOptionsSchema>;

// ---- registration ---------------------------------------------------------------------------------

/** `forge.mergeRequest.openPanel` and the panel registry. */
export function registerMergeRequestPanel(
  context: MergeRequestCommandContext,
): PanelRegistry<MergeRequestPanel> {
  const { services } = context;
  const registry = new PanelRegistry<MergeRequestPanel>();
  services.context.subscriptions.push(registry);

  registerCommands(services.context, services.log, [
    defineCommand({
      id: 'forge.mergeRequest.openPanel',
      args: [MergeRequestArgumentSchema, OpenPanelOptionsSchema.optional()],
      run: async (arg, options) => {
        const target = options
          ? await targetFromOptions(context, options)
          : await pickMergeRequest(services, arg, vscode.l10n.t('Open which merge request?'), 'all');
        if (!target) return { opened: false, reason: 'cancelled' };
        return openPanel(context, registry, target);
      },
    }),
  ]);
  services.context.subscriptions.push(
    registerPanelRestorer('forge.mergeRequest', async (restored, key) => {
      const { account, client, project } = await restoredProject(services.accounts, key);
      const mergeRequest = await client.getMergeRequest(project.id, key.id);
      const { created } = registry.openOrReveal(
        mergeRequestPanelKey(account.id, project.id, mergeRequest.iid),
        () =>
          new MergeRequestPanel(
            panelDependencies(context, registry),
            { account, project, mergeRequest },
            restored,
          ),
      );
      if (!created) restored.dispose();
    }),
  );
  services.context.subscriptions.push(
    // The panel of a merge request an action changed, wherever it came from, shows it as it is now.
    services.onDidAct((changed) => {
      if (changed?.folder !== 'mergeRequests' || changed.mergeRequestIid === undefined) return;
      const key = mergeRequestPanelKey(changed.accountId, changed.projectId, changed.mergeRequestIid);
      void registry.get(key)?.refresh();
    }),
  );
  return registry;
}

/** What a panel needs besides the commands' context: a way to open another merge request's panel. */
function panelDependencies(context: MergeRequestCommandContext, registry: PanelRegistry<MergeRequestPanel>) {
  return {
    context,
    openMergeRequest: (where: { accountId: string; project: number; iid: number }) =>
      openNamedMergeRequest(context, registry, where),
  };
}

function openPanel(
  context: MergeRequestCommandContext,
  registry: PanelRegistry<MergeRequestPanel>,
  target: MergeRequestTarget,
) {
  const key = mergeRequestPanelKey(target.account.id, target.project.id, target.mergeRequest.iid);
  const { panel, created } = registry.openOrReveal(
    key,
    () => new MergeRequestPanel(panelDependencies(context, registry), target),
  );
  return { opened: true, created, key: panel.key };
}

/** Opens (or shows) the panel of the merge request named outright: other features' links use it. */
export async function openNamedMergeRequest(
  context: MergeRequestCommandContext,
  registry: PanelRegistry<MergeRequestPanel>,
  options: OpenPanelOptions,
) {
  return openPanel(context, registry, await targetFromOptions(context, options));
}

async function targetFromOptions(
  context: MergeRequestCommandContext,
  options: OpenPanelOptions,
): Promise<MergeRequestTarget> {
  const { accounts } = context.services;
  const account = options.accountId ? accounts.get(options.accountId) : accounts.list()[0];
  if (!account)
    throw new Error(
      options.accountId
        ? vscode.l10n.t('No account {0}.', options.accountId)
        : vscode.l10n.t('Add an account first.'),
    );
  const client = await accounts.client(account.id);
  const project: Project = await client.getProject(
    typeof options.project === 'number' ? options.project : valueOrThrow(checkProjectPath(options.project)),
  );
  const mergeRequest = await client.getMergeRequest(project.id, options.iid);
  return { account, project, mergeRequest };
}
