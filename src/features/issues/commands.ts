import * as vscode from 'vscode';
import * as z from 'zod';
import type { HostingClient } from '../../api/hosting';
import { checkProjectPath } from '../../domain/inputValidation';
import { issuePanelKey } from '../../domain/issueView';
import type { AccountInfo } from '../../platform/accounts';
import { pickAccount } from '../../platform/accountPicker';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import { valueOrThrow } from '../../platform/commands/registerCommand';
import { openServerLink } from '../../platform/serverLinks';
import { askText, showInformation } from '../../platform/userMessages';
import type { Services } from '../../services';
import type { CurrentUsers } from '../../state/currentUsers';
import { PanelRegistry } from '../../webviews/shared/panelHost';
import { ProjectNode } from '../projects';
import { CreateIssueOptionsSchema, createIssue, selectionPrefill } from './createIssue';
import { askIssueEdit } from './editIssue';
import { IssueNode } from './issueNodes';
import { IssuesFolder } from './issuesFolder';
import { type IssueTarget, issueReference, projectPathOf } from './issueTarget';
import type { IssuePanel } from './panel/issuePanel';
import { QUERIES_SETTING } from './issuesTreeProvider';
import * as l10n from '@vscode/l10n';

/** An issue named outright (tests, automation, links from other panels and the todos). */
export const IssueOptionsSchema = z.strictObject({
  accountId: z.string().optional(),
  /** Project id or path. */
  project: z.union([z.number().int().positive(), z.string().max(255)]),
  iid: z.number().int().positive(),
});
type IssueOptions = z.output<typeof IssueOptionsSchema>;

const IssueRowSchema = z.custom<IssueNode | undefined>(
  (value) => value === undefined || value === null || value instanceof IssueNode,
  { error: l10n.t('expected an issue of the Issues view') },
);

/** `acme/web#4` as the user types it. */
const REFERENCE = /^\s*([^\s#]+)#(\d+)\s*$/;

export interface IssueCommandContext {
  services: Services;
  currentUsers: CurrentUsers;
  panels: PanelRegistry<IssuePanel>;
  open(target: IssueTarget): { key: string; created: boolean };
  /** The Issues view reads again, and the project's Issues folder where it shows. */
  changed(where?: { account: { id: string }; projectId: number }): void;
}

async function accountFor(services: Services, accountId: string | undefined): Promise<AccountInfo> {
  const account = accountId
    ? services.accounts.get(accountId)
    : await pickAccount(services.accounts, l10n.t('Which account?'), () => true);
  if (!account)
    throw accountId ? new Error(l10n.t('No account {0}.', accountId)) : new vscode.CancellationError();
  return account;
}

export async function issueTarget(services: Services, options: IssueOptions): Promise<IssueTarget> {
  const account = await accountFor(services, options.accountId);
  const client: HostingClient = await services.accounts.client(account.id);
  const project =
    typeof options.project === 'number' ? options.project : valueOrThrow(checkProjectPath(options.project));
  const projectId =
    typeof project === 'number' || /^\d+$/.test(project)
      ? Number(project)
      : (await client.getProject(project)).id;
  const issue = await client.getIssue(projectId, options.iid);
  return { account, projectId, projectPath: projectPathOf(issue, String(options.project)), issue };
}

function rowTarget(row: IssueNode): IssueTarget {
  const projectId = row.issue.project_id;
  if (projectId === undefined)
    throw new Error(l10n.t('The server did not say which project {0} is in.', `#${row.issue.iid}`));
  return { account: row.account, projectId, projectPath: projectPathOf(row.issue), issue: row.issue };
}

/** The issue of a row, of options, or of a reference the user types. */
async function targetOf(
  services: Services,
  row: IssueNode | undefined,
  options: IssueOptions | undefined,
): Promise<IssueTarget | undefined> {
  if (row) return rowTarget(row);
  if (options) return issueTarget(services, options);
  const account = await accountFor(services, undefined);
  const typed = await askText({
    title: l10n.t('Open an issue'),
    prompt: l10n.t('The issue, as group/project#12'),
    placeHolder: l10n.t('e.g. acme/web#12'),
    validateInput: (value) => (REFERENCE.test(value) ? undefined : l10n.t('Write it as group/project#12.')),
  });
  const match = typed === undefined ? null : REFERENCE.exec(typed);
  if (!match?.[1] || !match[2]) return undefined;
  return issueTarget(services, { accountId: account.id, project: match[1], iid: Number(match[2]) });
}

async function setState(context: IssueCommandContext, target: IssueTarget, stateEvent: 'close' | 'reopen') {
  const client = await context.services.accounts.client(target.account.id);
  const issue = await client.updateIssue(target.projectId, target.issue.iid, { stateEvent });
  const changed = { ...target, issue };
  context.changed(target);
  void context.panels.get(issuePanelKey(target.account.id, target.projectId, issue.iid))?.refresh();
  void showInformation(
    stateEvent === 'close'
      ? l10n.t('{0} closed.', issueReference(changed))
      : l10n.t('{0} reopened.', issueReference(changed)),
  );
  return { state: issue.state };
}

export async function editIssue(context: IssueCommandContext, target: IssueTarget): Promise<boolean> {
  const client = await context.services.accounts.client(target.account.id);
  const input = await askIssueEdit(client, target);
  if (!input) return false;
  const issue = await client.updateIssue(target.projectId, target.issue.iid, input);
  context.changed(target);
  void context.panels.get(issuePanelKey(target.account.id, target.projectId, issue.iid))?.refresh();
  return true;
}

export function issueCommands(context: IssueCommandContext): CommandDeclaration[] {
  const { services } = context;
  const openNamed = async (options: IssueOptions) => context.open(await issueTarget(services, options));
  const withTarget = (id: string, run: (target: IssueTarget) => Promise<unknown>) =>
    defineCommand({
      id,
      args: [IssueRowSchema, IssueOptionsSchema.optional()],
      run: async (row, options) => {
        const target = await targetOf(services, row ?? undefined, options);
        return target ? run(target) : { done: false, reason: 'cancelled' };
      },
    });
  return [
    defineCommand({ id: 'forge.issues.refresh', args: [], run: () => context.changed() }),
    defineCommand({
      id: 'forge.issues.editQueries',
      args: [],
      run: () => vscode.commands.executeCommand('workbench.action.openSettings', `forge.${QUERIES_SETTING}`),
    }),
    withTarget('forge.issue.openPanel', (target) =>
      Promise.resolve({ opened: true, ...context.open(target) }),
    ),
    withTarget('forge.issue.close', (target) => setState(context, target, 'close')),
    withTarget('forge.issue.reopen', (target) => setState(context, target, 'reopen')),
    withTarget('forge.issue.edit', async (target) => ({ edited: await editIssue(context, target) })),
    withTarget('forge.issue.openInBrowser', async (target) => ({
      url: target.issue.web_url,
      opened: await openServerLink(target.issue.web_url, l10n.t('the page of {0}', issueReference(target))),
    })),
    defineCommand({
      id: 'forge.issue.create',
      args: [
        z.custom<ProjectNode | IssuesFolder | undefined>(
          (value) =>
            value === undefined ||
            value === null ||
            value instanceof ProjectNode ||
            value instanceof IssuesFolder,
          { error: l10n.t('expected a project') },
        ),
        CreateIssueOptionsSchema.optional(),
      ],
      run: async (arg, options) => {
        const row = arg instanceof IssuesFolder ? arg.owner : (arg ?? undefined);
        const result = await createIssue(services, context.currentUsers, openNamed, row, options);
        if (result.created)
          context.changed({ account: { id: result.accountId }, projectId: result.projectId });
        return result;
      },
    }),
    defineCommand({
      id: 'forge.issue.createFromSelection',
      args: [CreateIssueOptionsSchema.optional()],
      run: async (options) => {
        const editor = vscode.window.activeTextEditor;
        if (!editor) throw new Error(l10n.t('Select lines in an editor to create an issue from them.'));
        const prefill = await selectionPrefill(services, editor);
        const result = await createIssue(
          services,
          context.currentUsers,
          openNamed,
          undefined,
          options,
          prefill,
        );
        if (result.created)
          context.changed({ account: { id: result.accountId }, projectId: result.projectId });
        return result;
      },
    }),
  ];
}
