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
    throw new Error(`Open a folder first: the template is written to ${CI_FILE_NAME} in a workspace folder.`);
  }
  if (folderName !== undefined) {
    const named = folders.find((folder) => folder.name === folderName);
    if (!named) throw new Error(`No workspace folder is named "${folderName}".`);
    return named;
  }
  const [only] = folders;
  if (folders.length === 1) return only;
  return vscode.window.showWorkspaceFolderPick({ placeHolder: `Where to write ${CI_FILE_NAME}?` });
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
    throw new Error(`Open a folder first: the template is written to ${CI_FILE_NAME} in a workspace folder.`);
  }
  const account = row
    ? row.account
    : await pickAccount(
        services.accounts,
        'Load templates from which account?',
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
      title: 'Insert CI Template',
      placeHolder: `A template for ${CI_FILE_NAME}`,
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    key = picked.key;
  }

  const folder = await workspaceFolderFor(options.folder);
  if (!folder) return undefined;
  const file = vscode.Uri.joinPath(folder.uri, CI_FILE_NAME);
  if (await exists(file)) {
    let choice: string | undefined;
    if (options.replace === true) choice = 'Replace';
    else if (options.replace === false) choice = 'Open Existing';
    else {
      choice = await showWarning(
        `Replace ${CI_FILE_NAME}?`,
        {
          modal: true,
          detail: `${folder.name} already has a ${CI_FILE_NAME}. Replacing it loses its content.`,
        },
        'Replace',
        'Open Existing',
      );
    }
    if (choice === 'Open Existing') {
      await vscode.window.showTextDocument(file, { preview: false });
      return { file: file.toString(), written: false };
    }
    if (choice !== 'Replace') return undefined;
  }

  const templateName = key;
  const template = await withNotificationProgress(
    `Fetching the ${templateName} template…`,
    (signal) => client.getCiTemplate(templateName, { signal }),
    true,
  );
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(template.content));
  await vscode.window.showTextDocument(file, { preview: false });
  showStatusMessage(`Wrote the ${template.name} template to ${CI_FILE_NAME}`, 4000);
  return { file: file.toString(), written: true };
}
