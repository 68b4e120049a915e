import type * as vscode from 'vscode';
import * as z from 'zod';
import type { HostingClient, Project } from '../../api/hosting';
import type { AccountInfo, AccountManager } from '../../platform/accounts';
import { describeError } from '../../platform/commands/errorMessages';
import { showWarning } from '../../platform/userMessages';
import type { PanelRestoreKey, RestorablePanelType } from './restoreKey';
import * as l10n from '@vscode/l10n';

/**
 * Panels that come back after a window reload. VS Code hands the entry (extension.ts) each panel it
 * restores with the state its page saved; the page keeps the panel's restore key there (panelHost.ts
 * sends it, the bridge keeps it), and the panel's module reopens the object in the same place.
 */

const RestoredStateSchema = z.looseObject({
  restore: z.strictObject({
    accountId: z.string().min(1).max(200),
    projectId: z.number().int().positive(),
    id: z.number().int().positive(),
  }),
});

type Restorer = (panel: vscode.WebviewPanel, key: PanelRestoreKey) => Promise<void>;
const restorers = new Map<string, Restorer>();

/** How a panel module reopens its panels; `restorer` throws when the object cannot be shown. */
export function registerPanelRestorer(viewType: RestorablePanelType, restorer: Restorer): vscode.Disposable {
  restorers.set(viewType, restorer);
  return { dispose: () => restorers.delete(viewType) };
}

/** The account, a client and the project a restore key names; throws when the account is gone. */
export async function restoredProject(
  accounts: AccountManager,
  key: PanelRestoreKey,
): Promise<{ account: AccountInfo; client: HostingClient; project: Project }> {
  const account = accounts.get(key.accountId);
  if (!account) throw new Error(l10n.t('its account was removed.'));
  const client = await accounts.client(account.id);
  return { account, client, project: await client.getProject(key.projectId) };
}

/** Fills a panel VS Code restored, or closes it (saying why) when its object is gone. */
export async function restorePanel(
  viewType: string,
  panel: vscode.WebviewPanel,
  state: unknown,
  log: { warn(message: string): void },
): Promise<void> {
  const parsed = RestoredStateSchema.safeParse(state);
  const restorer = restorers.get(viewType);
  if (!parsed.success || !restorer) {
    // Saved by an older version, or never loaded: nothing says what it showed.
    panel.dispose();
    return;
  }
  try {
    await restorer(panel, parsed.data.restore);
  } catch (error) {
    const title = panel.title;
    panel.dispose();
    log.warn(`Could not reopen the panel ${title}: ${describeError(error)}`);
    void showWarning(l10n.t('Could not reopen {0} after the reload: {1}', title, describeError(error)));
  }
}
