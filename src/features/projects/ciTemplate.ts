/** "Insert CI Template": a server template written into the workspace's `.gitlab-ci.yml`, asking before replacing. */
import { withNotificationProgress } from '../../platform/userMessages';
import * as vscode from 'vscode';
import * as z from 'zod';
import { CI_FILE_NAME, templateKey } from '../../domain/projectActions';
import type { Services } from '../../services';
import { AccountNode } from './nodes/accountNode';
import { ProjectNode } from './nodes/projectNode';
import { pickAccount } from '../../platform/accountPicker';
import { pickOne, showStatusMessage, showWarning } from '../../platform/userMessages';

export const CiTemplateOptionsSchema = z.strictObject({
  /** Account id; asked when there are several accounts. */
  accountId: z.string().min(1).max(200).optional(),
  /** Template key or name. */
  template: z.string().max(255).optional(),
  /** What to do when the file exists: true replaces it, false keeps it (and opens it). */
  replace: z.boolean().optional(),
  /** Workspace folder name; asked when there are several folders. */
  folder: z.string().max(1000).optional(),
});

type CiTemplateOptions = z.output<typeof CiTemplateOptionsSchema>;

// ---- CI templates -----------------------------------------------------------------------------------------

async function workspaceFolderFor(
  folderName: string | undefined,
): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    throw new Error(
      vscode.l10n.t(
        'Open a folder first: the template is written to {0} in a workspace folder.',
        CI_FILE_NAME,
      ),
    );
  }
  if (folderName !== undefined) {
    const named = folders.find((folder) => folder.name === folderName);
    if (!named) throw new Error(vscode.l10n.t('No workspace folder is named "{0}".', folderName));
    return named;
  }
  const [only] = folders;
  if (folders.length === 1) return only;
  return vscode.window.showWorkspaceFolderPick({
    placeHolder: vscode.l10n.t('Where to write {0}?', CI_FILE_NAME),
  });
}

export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return false;
    throw error;
  }
}

type CiTemplateResult = { file: string; written: boolean };

export async function insertCiTemplate(
  services: Services,
  arg: AccountNode | ProjectNode | CiTemplateOptions | undefined,
  given: CiTemplateOptions | undefined,
): Promise<CiTemplateResult | undefined> {
  // Options may come first (palette automation) or after a row.
  const row = arg instanceof AccountNode || arg instanceof ProjectNode ? arg : undefined;
  const options: CiTemplateOptions = { ...(row ? {} : arg), ...given };
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    throw new Error(
      vscode.l10n.t(
        'Open a folder first: the template is written to {0} in a workspace folder.',
        CI_FILE_NAME,
      ),
    );
  }
  const account = row
    ? row.account
    : await pickAccount(
        services.accounts,
        vscode.l10n.t('Load templates from which account?'),
        () => true,
        options.accountId,
      );
  if (!account) return undefined;
  const client = await services.accounts.client(account.id);

  let key = options.template;
  if (key === undefined) {
    const templates = client
      .listCiTemplates()
      .page({ perPage: 100 })
      .then((page) =>
        page.items.map((template) => ({
          label: template.name,
          description: template.key && template.key !== template.name ? template.key : undefined,
          key: templateKey(template),
        })),
      );
    const picked = await pickOne(templates, {
      title: vscode.l10n.t('Insert CI Template'),
      placeHolder: vscode.l10n.t('A template for {0}', CI_FILE_NAME),
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    key = picked.key;
  }

  const folder = await workspaceFolderFor(options.folder);
  if (!folder) return undefined;
  const file = vscode.Uri.joinPath(folder.uri, CI_FILE_NAME);
  if (await exists(file)) {
    const choice = await askReplace(options.replace, folder.name);
    if (choice === 'open') {
      await vscode.window.showTextDocument(file, { preview: false });
      return { file: file.toString(), written: false };
    }
    if (choice !== 'replace') return undefined;
  }

  const templateName = key;
  const template = await withNotificationProgress(
    vscode.l10n.t('Fetching the {0} template…', templateName),
    (signal) => client.getCiTemplate(templateName, { signal }),
    true,
  );
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(template.content));
  await vscode.window.showTextDocument(file, { preview: false });
  showStatusMessage(vscode.l10n.t('Wrote the {0} template to {1}', template.name, CI_FILE_NAME), 4000);
  return { file: file.toString(), written: true };
}
/** Whether to replace the folder's CI file or open it; `given` answers instead of the modal. */
async function askReplace(
  given: boolean | undefined,
  folderName: string,
): Promise<'replace' | 'open' | undefined> {
  if (given !== undefined) return given ? 'replace' : 'open';
  const replace = vscode.l10n.t('Replace');
  const open = vscode.l10n.t('Open Existing');
  const choice = await showWarning(
    vscode.l10n.t('Replace {0}?', CI_FILE_NAME),
    {
      modal: true,
      detail: vscode.l10n.t(
        '{0} already has a {1}. Replacing it loses its content.',
        folderName,
        CI_FILE_NAME,
      ),
    },
    replace,
    open,
  );
  return choice === replace ? 'replace' : choice === open ? 'open' : undefined;
}
