/** "Project Members": a searchable list of a project's members, a page at a time. */
import { type ProjectArgument, pathOf } from './projectTarget';
import * as vscode from 'vscode';
import { describeError } from '../../platform/commands/errorMessages';
import type { HostingClient, Project, ProjectMember } from '../../api/hosting';
import { memberLabel } from '../../domain/projectActions';
import type { Services } from '../../services';
import { projectTarget } from './projectTarget';
import { createSearchPick, type PickItem } from '../../platform/userMessages';
import { openServerLink } from '../../platform/serverLinks';

const MEMBER_PAGE = 50;

const SEARCH_DELAY_MS = 250;

async function fetchMembers(
  client: HostingClient,
  projectId: number,
  search: string | undefined,
  signal?: AbortSignal,
): Promise<ProjectMember[]> {
  const page = await client
    .listProjectUsers(projectId, search || undefined)
    .page({ perPage: MEMBER_PAGE, signal });
  return page.items;
}

interface MemberItem extends PickItem {
  member: ProjectMember;
}

function memberItems(members: readonly ProjectMember[]): MemberItem[] {
  return members.map((member) => ({
    label: memberLabel(member),
    detail: member.web_url === undefined || member.web_url === null ? undefined : member.web_url,
    member,
  }));
}

/** The members quick pick: the server searches as the user types; choosing one opens the profile. */
function showMembers(client: HostingClient, project: Project, log: vscode.LogOutputChannel): void {
  const pick = createSearchPick<MemberItem>({
    title: vscode.l10n.t('Members of {0}', pathOf(project)),
    placeholder: vscode.l10n.t('Search by name or user name; choose one to open the profile'),
  });
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const load = (search: string): void => {
    controller?.abort();
    const current = new AbortController();
    controller = current;
    pick.setBusy(true);
    fetchMembers(client, project.id, search.trim(), current.signal).then(
      (members) => {
        if (controller !== current) return;
        pick.setItems(memberItems(members));
        pick.setBusy(false);
      },
      (error: unknown) => {
        if (controller !== current) return;
        pick.setBusy(false);
        if (current.signal.aborted) return;
        log.warn(`Members of ${pathOf(project)}: ${error instanceof Error ? error.message : String(error)}`);
        const message = describeError(error);
        pick.setItems([]);
        pick.setPlaceholder(vscode.l10n.t('Could not load the members: {0}', message));
      },
    );
  };
  pick.onDidChangeValue((value) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => load(value), SEARCH_DELAY_MS);
  });
  pick.onDidAccept((chosen) => {
    if (chosen)
      void openServerLink(chosen.member.web_url, vscode.l10n.t('the profile of {0}', chosen.member.username));
    pick.hide();
  });
  pick.onDidHide(() => {
    if (timer) clearTimeout(timer);
    controller?.abort();
  });
  load('');
  pick.show();
}

export async function listMembers(
  services: Services,
  arg: ProjectArgument,
  options: { search?: string },
): Promise<string[] | undefined> {
  const target = await projectTarget(services, arg, vscode.l10n.t('Project whose members to list'));
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  if (options.search !== undefined) {
    // Without a UI (tests, automation): the labels the quick pick would show.
    const members = await fetchMembers(client, target.project.id, options.search);
    return members.map(memberLabel);
  }
  showMembers(client, target.project, services.log);
  return undefined;
}
