/**
 * Creating an issue: in a project (a row, a question, or named by automation), a title, a description
 * from the project's issue templates or the user's own (prefilled, from an editor's selection, with a
 * permalink and the lines), labels and options (confidential, assigned to me). Nothing is sent before
 * the last step; a refused create says why and the answers given are offered again as the next defaults.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod';
import {
  type DescriptionTemplate,
  type HostingClient,
  type Milestone,
  type Project,
  readDescriptionTemplates,
} from '../../api/hosting';
import { runGit } from '../../platform/localGit';
import { trimEndOf } from '../../text/linearText';
import { describeError } from '../../platform/commands/errorMessages';
import { askText, pickMany, pickOne, showInformation, withProgress } from '../../platform/userMessages';
import type { Services } from '../../services';
import { localRepository, projectOfRepository, projectTarget } from '../projects';
import type { CurrentUsers } from '../../state/currentUsers';

export const CreateIssueOptionsSchema = z.strictObject({
  accountId: z.string().optional(),
  project: z.union([z.number().int().positive(), z.string().max(255)]).optional(),
  title: z.string().min(1).max(255),
  description: z.string().max(1_000_000).optional(),
  /** A template of the project by name (`.gitlab/issue_templates/<name>.md`). */
  template: z.string().max(255).optional(),
  labels: z.array(z.string().min(1).max(255)).max(100).optional(),
  confidential: z.boolean().optional(),
  assignToMe: z.boolean().optional(),
  /** An active milestone of the project by its title. */
  milestone: z.string().max(255).optional(),
});
export type CreateIssueOptions = z.output<typeof CreateIssueOptionsSchema>;

function projectPath(project: Project): string {
  return project.path_with_namespace ?? project.name ?? String(project.id);
}

function templatesOf(client: HostingClient, project: Project, log: { warn(line: string): void }) {
  return readDescriptionTemplates(client, project, 'issue').catch((error: unknown) => {
    log.warn(`Issue templates of ${projectPath(project)}: ${describeError(error)}`);
    return [] as DescriptionTemplate[];
  });
}

/** A question's title: "New issue in acme/web (2/5)" (four questions when the project has no milestone). */
type StepTitle = (step: number) => string;

async function askIssueDescription(
  project: Project,
  templates: Promise<readonly DescriptionTemplate[]>,
  prefill: string | undefined,
  stepTitle: StepTitle,
): Promise<string | undefined> {
  const title = stepTitle(2);
  const write = (value?: string) =>
    askText({
      title,
      prompt: vscode.l10n.t('Description (optional, Markdown)'),
      value,
      ignoreFocusOut: true,
    });
  const all = await templates;
  if (all.length === 0 && prefill === undefined) return write();
  const join = (text: string): string => (prefill === undefined ? text : `${text.trimEnd()}\n\n${prefill}`);
  const items: { label: string; description?: string; icon: string; text?: string }[] = [
    ...(prefill === undefined
      ? []
      : [{ label: vscode.l10n.t('The selected lines, with their link'), icon: 'selection', text: prefill }]),
    ...all.map((template) => ({
      label: template.isProjectDefault ? vscode.l10n.t("The project's default description") : template.name,
      description: template.isProjectDefault ? undefined : vscode.l10n.t('template'),
      icon: 'file-text',
      text: join(template.text),
    })),
    { label: vscode.l10n.t('Write a description…'), icon: 'edit' },
    ...(prefill === undefined
      ? [{ label: vscode.l10n.t('No description'), icon: 'circle-slash', text: '' }]
      : []),
  ];
  const picked = await pickOne(items, {
    title,
    placeHolder: vscode.l10n.t('Description: a template of {0}, or your own', projectPath(project)),
  });
  if (!picked) return undefined;
  return picked.text ?? write(prefill);
}

async function askLabels(
  client: HostingClient,
  project: Project,
  stepTitle: StepTitle,
): Promise<string[] | undefined> {
  const labels = await client
    .listLabels(project.id)
    .toArray()
    .catch(() => []);
  if (labels.length === 0) return [];
  const picked = await pickMany(
    labels.slice(0, 500).map((label) => ({
      label: label.name,
      ...(label.description ? { description: label.description } : {}),
      icon: 'tag',
    })),
    {
      title: stepTitle(3),
      placeHolder: vscode.l10n.t('Labels (none is fine: press Enter)'),
    },
  );
  return picked?.map((label) => label.label);
}

async function askMilestone(
  milestones: readonly Milestone[],
  stepTitle: StepTitle,
): Promise<{ milestoneId?: number } | undefined> {
  if (milestones.length === 0) return {};
  const picked = await pickOne(
    [
      { label: vscode.l10n.t('No milestone'), icon: 'circle-slash' },
      ...milestones.map((milestone) => ({
        label: milestone.title,
        ...(milestone.due_date ? { description: vscode.l10n.t('due {0}', milestone.due_date) } : {}),
        icon: 'milestone',
        id: milestone.id,
      })),
    ],
    { title: stepTitle(4), placeHolder: vscode.l10n.t('Milestone (optional)') },
  );
  if (!picked) return undefined;
  return 'id' in picked ? { milestoneId: picked.id } : {};
}

async function askOptions(
  stepTitle: StepTitle,
  step: number,
): Promise<{ confidential: boolean; assignToMe: boolean } | undefined> {
  const picked = await pickMany(
    [
      { label: vscode.l10n.t('Assign to me'), icon: 'account', key: 'assignToMe' as const },
      {
        label: vscode.l10n.t('Confidential'),
        description: vscode.l10n.t('only project members from Reporter up see it'),
        icon: 'lock',
        key: 'confidential' as const,
      },
    ],
    {
      title: stepTitle(step),
      placeHolder: vscode.l10n.t('Options (none is fine: press Enter to create the issue)'),
    },
  );
  if (!picked) return undefined;
  const keys = new Set(picked.map((item) => item.key));
  return { confidential: keys.has('confidential'), assignToMe: keys.has('assignToMe') };
}

async function templateNamed(
  templates: Promise<readonly DescriptionTemplate[]>,
  name: string,
): Promise<string> {
  const all = await templates;
  const found = all.find((template) => template.name === name);
  if (!found)
    throw new Error(
      vscode.l10n.t(
        'No issue template "{0}": the project has {1}.',
        name,
        all.map((template) => template.name).join(', ') || vscode.l10n.t('none'),
      ),
    );
  return found.text;
}

interface IssueAnswers {
  title: string;
  description: string;
  labels: string[];
  confidential: boolean;
  assignToMe: boolean;
  milestoneId?: number;
}

async function fromOptions(
  options: CreateIssueOptions,
  templates: Promise<readonly DescriptionTemplate[]>,
  milestones: Promise<readonly Milestone[]>,
  prefill: string | undefined,
): Promise<IssueAnswers> {
  const template =
    options.template === undefined ? undefined : await templateNamed(templates, options.template);
  const milestone =
    options.milestone === undefined ? undefined : await milestoneNamed(milestones, options.milestone);
  return {
    ...(milestone === undefined ? {} : { milestoneId: milestone }),
    title: options.title.trim(),
    description: options.description ?? template ?? prefill ?? '',
    labels: options.labels ?? [],
    confidential: options.confidential ?? false,
    assignToMe: options.assignToMe ?? false,
  };
}

async function milestoneNamed(milestones: Promise<readonly Milestone[]>, title: string): Promise<number> {
  const all = await milestones;
  const found = all.find((milestone) => milestone.title === title);
  if (!found)
    throw new Error(
      vscode.l10n.t(
        'No active milestone "{0}": the project has {1}.',
        title,
        all.map((milestone) => milestone.title).join(', ') || vscode.l10n.t('none'),
      ),
    );
  return found.id;
}

/** The questions (a milestone's only where the project has active ones); undefined when one is dismissed. */
async function askAnswers(
  client: HostingClient,
  project: Project,
  lists: { templates: Promise<readonly DescriptionTemplate[]>; milestones: Promise<readonly Milestone[]> },
  prefill: string | undefined,
): Promise<IssueAnswers | undefined> {
  const milestones = await lists.milestones;
  const total = milestones.length > 0 ? 5 : 4;
  const stepTitle: StepTitle = (step) =>
    vscode.l10n.t('New issue in {0} ({1}/{2})', projectPath(project), step, total);
  const title = await askText({
    title: stepTitle(1),
    prompt: vscode.l10n.t('Title'),
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('An issue needs a title.') : undefined),
  });
  if (!title) return undefined;
  const description = await askIssueDescription(project, lists.templates, prefill, stepTitle);
  if (description === undefined) return undefined;
  const labels = await askLabels(client, project, stepTitle);
  if (!labels) return undefined;
  const milestone = await askMilestone(milestones, stepTitle);
  if (!milestone) return undefined;
  const chosen = await askOptions(stepTitle, total);
  return chosen ? { title: title.trim(), description, labels, ...milestone, ...chosen } : undefined;
}

/** Opens an issue's panel (the success message's button). */
export type OpenIssue = (where: { accountId: string; project: number; iid: number }) => Promise<unknown>;

export async function createIssue(
  services: Services,
  currentUsers: CurrentUsers,
  openIssue: OpenIssue,
  arg: unknown,
  options: CreateIssueOptions | undefined,
  prefill?: { text: string; project: { accountId: string; project: Project } },
): Promise<
  | { created: false; reason: 'cancelled' }
  | { created: true; accountId: string; projectId: number; iid: number; webUrl?: string }
> {
  const target = prefill
    ? { account: services.accounts.get(prefill.project.accountId), project: prefill.project.project }
    : await projectTarget(services, arg, vscode.l10n.t('Create an issue in which project?'), {
        ...(options?.accountId ? { accountId: options.accountId } : {}),
        ...(options?.project === undefined ? {} : { project: options.project }),
      });
  if (!target?.account) return { created: false, reason: 'cancelled' };
  const { account, project } = target;
  const client = await services.accounts.client(account.id);
  const templates =
    options && options.template === undefined
      ? Promise.resolve([])
      : templatesOf(client, project, services.log);
  const milestones =
    options && options.milestone === undefined
      ? Promise.resolve([])
      : client
          .listMilestones(project.id, 'active')
          .toArray()
          .catch(() => [] as Milestone[]);
  const input = options
    ? await fromOptions(options, templates, milestones, prefill?.text)
    : await askAnswers(client, project, { templates, milestones }, prefill?.text);
  if (!input) return { created: false, reason: 'cancelled' };
  const me = input.assignToMe ? await currentUsers.get(account.id) : undefined;
  const issue = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Creating the issue in {0}…', projectPath(project)),
    },
    () =>
      client.createIssue(project.id, {
        title: input.title,
        ...(input.description.trim() ? { description: input.description } : {}),
        ...(input.labels.length > 0 ? { labels: input.labels } : {}),
        ...(input.confidential ? { confidential: true } : {}),
        ...(me?.id === undefined ? {} : { assigneeIds: [me.id] }),
        ...(input.milestoneId === undefined ? {} : { milestoneId: input.milestoneId }),
      }),
  );
  void showInformation(
    vscode.l10n.t('Created #{0} {1} in {2}', issue.iid, issue.title, projectPath(project)),
    vscode.l10n.t('Open Issue'),
  ).then((choice) =>
    choice ? openIssue({ accountId: account.id, project: project.id, iid: issue.iid }) : undefined,
  );
  return {
    created: true,
    accountId: account.id,
    projectId: project.id,
    iid: issue.iid,
    ...(issue.web_url ? { webUrl: issue.web_url } : {}),
  };
}

/** The selection as an issue's description: a permalink to the lines at the clone's commit, then the lines. */
export async function selectionPrefill(
  services: Services,
  editor: vscode.TextEditor,
): Promise<{ text: string; project: { accountId: string; project: Project } }> {
  const file = editor.document.uri;
  if (file.scheme !== 'file')
    throw new Error(
      vscode.l10n.t('Open a file of a clone of the project to create an issue from its lines.'),
    );
  const repository = await localRepository(path.dirname(file.fsPath));
  const found = repository ? await projectOfRepository(services, repository) : undefined;
  if (!repository || !found)
    throw new Error(
      vscode.l10n.t('{0} is not in a clone of a project of your accounts.', path.basename(file.fsPath)),
    );
  const sha = (await runGit(repository.root, ['rev-parse', 'HEAD']).catch(() => '')).trim();
  const relative = path.relative(repository.root, file.fsPath).split(path.sep).join('/');
  const { selection } = editor;
  const first = selection.start.line + 1;
  const last = Math.max(
    first,
    selection.end.character === 0 && selection.end.line > selection.start.line
      ? selection.end.line
      : selection.end.line + 1,
  );
  const lines = editor.document.getText(
    new vscode.Range(first - 1, 0, last - 1, editor.document.lineAt(last - 1).text.length),
  );
  const ref = /^[0-9a-f]{40,64}$/.test(sha) ? sha : repository.branch;
  const web = found.project.web_url ? trimEndOf(found.project.web_url, '/') : undefined;
  const encoded = relative.split('/').map(encodeURIComponent).join('/');
  const link = web ? `${web}/-/blob/${ref}/${encoded}#L${first}${last > first ? `-${last}` : ''}` : undefined;
  // A fence longer than any run of backticks in the lines (a reduce: a large selection has many runs).
  const longest = [...lines.matchAll(/`+/g)].reduce((most, match) => Math.max(most, match[0].length), 2);
  const fence = '`'.repeat(longest + 1);
  const language = editor.document.languageId === 'plaintext' ? '' : editor.document.languageId;
  const text = [
    link
      ? `[${relative}#L${first}${last > first ? `-${last}` : ''}](${link})`
      : vscode.l10n.t('{0} (lines {1}-{2})', relative, first, last),
    '',
    `${fence}${language}`,
    lines,
    fence,
  ].join('\n');
  return { text, project: { accountId: found.account.id, project: found.project } };
}
