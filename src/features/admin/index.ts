import type * as vscode from 'vscode';
import * as z from 'zod';
import { parseId } from '../../domain/projectActions';
import type { AccountManager } from '../../platform/accounts';
import { BroadcastWatcher } from '../../platform/broadcasts';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import { registerCommands } from '../../platform/commands/registerCommand';
import { askText, showError, showInformation } from '../../platform/userMessages';
import type { Shell } from '../../shell';
import type { TreeNode } from '../../platform/tree/treeNode';
import { type SshKeySummary, lookUpSshKey } from './actions';
import { AdminTargetSchema, adminAccount } from './adminTargets';
import { AdminTreeProvider, BroadcastMessagesFolder, SystemHooksFolder } from './adminTreeProvider';
import { broadcastCommands } from './broadcastCommands';
import { systemHookCommands } from './systemHookCommands';
import * as l10n from '@vscode/l10n';

/*
 * The Admin feature: the Admin view (broadcast messages, system hooks, SSH key lookup per
 * administrator account), the broadcast watcher that shows new banners to everyone, and their
 * commands. This file is its only public face.
 */

export type { AdminTreeProvider };

export interface AdminFeature {
  readonly provider: AdminTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
}

export function createAdminFeature(platform: {
  context: vscode.ExtensionContext;
  shell: Shell;
  log: vscode.LogOutputChannel;
  accounts: AccountManager;
}): AdminFeature {
  const { context, shell, log, accounts } = platform;
  const provider = new AdminTreeProvider(accounts);
  const view = shell.treeView('forge.admin', provider);
  const watcher = new BroadcastWatcher(accounts, context.globalState, log);
  context.subscriptions.push(provider, view, watcher);
  watcher.start();

  registerCommands(context, log, [
    defineCommand({
      id: 'forge.admin.refresh',
      args: [z.unknown()],
      run: (node) =>
        provider.refresh(
          node instanceof BroadcastMessagesFolder || node instanceof SystemHooksFolder ? node : undefined,
        ),
    }),
    ...broadcastCommands(accounts, provider, watcher),
    ...systemHookCommands(accounts, provider),
    sshKeyLookupCommand(accounts),
  ]);
  return { provider, view };
}

function sshKeyLookupCommand(accounts: AccountManager): CommandDeclaration {
  return defineCommand({
    id: 'forge.sshKey.lookup',
    args: [AdminTargetSchema, z.strictObject({ id: z.number().int().positive().optional() }).optional()],
    run: async (target, options): Promise<SshKeySummary | undefined> => {
      const account = await adminAccount(accounts, target);
      if (!account) return undefined;
      let id = options?.id;
      if (id === undefined) {
        const typed = await askText({
          title: l10n.t('Look up an SSH key on {0}', account.label),
          prompt: l10n.t('The id of the SSH key (for example from an audit log)'),
          validateInput: (text) =>
            parseId(text) === undefined ? l10n.t('A positive whole number') : undefined,
        });
        if (typed === undefined) return undefined;
        id = parseId(typed);
      }
      if (id === undefined) return undefined;
      const summary = await lookUpSshKey(accounts, account.id, id);
      if (!summary) {
        void showError(l10n.t('No SSH key with id {0}.', id));
        return undefined;
      }
      // Not awaited: the dialog stays until dismissed and the command's result is ready now.
      void showInformation(l10n.t('SSH key {0}: {1}', summary.id, summary.title), {
        modal: true,
        detail: [
          l10n.t('Owner: {0}', summary.owner ?? 'unknown'),
          summary.createdAt ? l10n.t('Created: {0}', summary.createdAt) : undefined,
          l10n.t('Key: {0}', summary.keyStart),
        ]
          .filter(Boolean)
          .join('\n'),
      });
      return summary;
    },
  });
}
