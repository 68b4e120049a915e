import * as vscode from 'vscode';
import type { Project } from '../api/hosting';
import type { AccountInfo } from '../platform/accounts';
import type { Services } from '../services';
import { ProjectNode } from '../views/projects/projectsTreeProvider';
import { pickAccount } from './accounts';

export { pickAccount };

export interface ProjectTarget {
  account: AccountInfo;
  project: Project;
}

/** The project a command acts on: the tree node it was run on, or one the user picks. */
export async function projectTarget(
  services: Services,
  arg: unknown,
  placeHolder = 'Project',
): Promise<ProjectTarget | undefined> {
  if (arg instanceof ProjectNode) return { account: arg.account, project: arg.project };
  const account = await pickAccount(services.accounts, 'Which account?');
  if (!account) return undefined;
  const client = await services.accounts.client(account.id);
  const items: Promise<(vscode.QuickPickItem & { project: Project })[]> = client
    .listProjects({ membership: true, orderBy: 'last_activity_at', simple: false })
    .page({ perPage: 100 })
    .then((page) =>
      page.items.map((project) => ({
        label: project.name ?? project.path_with_namespace ?? String(project.id),
        description: project.path_with_namespace,
        project,
      })),
    );
  const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true });
  return picked ? { account, project: picked.project } : undefined;
}
