/** A project's web page and its URLs (web, HTTPS and SSH clone), opened or copied. */
import * as vscode from 'vscode';
import type { Project } from '../../api/hosting';
import { type ProjectUrlKind, projectUrls } from '../../domain/projectActions';
import type { AccountInfo } from '../../platform/accounts';
import { openServerLink } from '../../platform/serverLinks';
import { pickOne, showStatusMessage } from '../../platform/userMessages';
import type { Services } from '../../services';
import { type ProjectArgument, pathOf, projectTarget } from './projectTarget';

/** The project with its URLs: the listed shape normally has them; otherwise read it. */
async function withUrls(services: Services, account: AccountInfo, project: Project): Promise<Project> {
  if (project.web_url) return project;
  const client = await services.accounts.client(account.id);
  return client.getProject(project.id);
}

export async function openInBrowser(services: Services, arg: ProjectArgument): Promise<string | undefined> {
  const target = await projectTarget(services, arg, vscode.l10n.t('Project to open'));
  if (!target) return undefined;
  const project = await withUrls(services, target.account, target.project);
  if (!project.web_url)
    throw new Error(vscode.l10n.t('The server did not give a web address for {0}.', pathOf(project)));
  await openServerLink(project.web_url, vscode.l10n.t('the web page of {0}', pathOf(project)));
  return project.web_url;
}

export async function copyUrl(
  services: Services,
  arg: ProjectArgument,
  options: { kind?: ProjectUrlKind },
): Promise<string | undefined> {
  const target = await projectTarget(services, arg, vscode.l10n.t('Project whose URL to copy'));
  if (!target) return undefined;
  const project = await withUrls(services, target.account, target.project);
  const urls = projectUrls(project);
  if (urls.length === 0)
    throw new Error(vscode.l10n.t('The server did not give any URL for {0}.', pathOf(project)));
  const { kind } = options;
  const chosen = kind
    ? urls.find((url) => url.kind === kind)
    : (
        await pickOne(
          urls.map((url) => ({ label: url.label, description: url.url, url })),
          { title: vscode.l10n.t('Copy a URL of {0}', pathOf(project)) },
        )
      )?.url;
  if (!chosen) {
    if (kind) throw new Error(vscode.l10n.t('{0} has no {1} URL.', pathOf(project), kind));
    return undefined;
  }
  await vscode.env.clipboard.writeText(chosen.url);
  showStatusMessage(vscode.l10n.t('Copied {0}', chosen.url), 3000);
  return chosen.url;
}
