import * as vscode from 'vscode';
import { BadRequestError, NotFoundError } from '../../api/http';
import type { HostingClient, NewPipelineVariable, PipelineDetails, Project } from '../../api/hosting';
import { prefilledVariables, type PrefilledVariable } from '../../domain/pipelineActions';
import { checkRefName } from '../../domain/inputValidation';
import { valueOrThrow } from '../../platform/commands/registerCommand';
import { askText, pickOne, showError, withProgress, type PickItem } from '../../platform/userMessages';
import type { AccountInfo } from '../../platform/accounts';
import { projectPath } from '../../domain/jobActions';

/*
 * "Run pipeline" as GitLab's form has it: a branch or tag, then the variables the CI file offers at
 * that ref (its top-level `variables:` with a description: a pick list when it gives `options`) and
 * any others, of either type. A refused pipeline says why in the server's words and keeps what was
 * typed for the next try.
 */

const CI_FILE = '.gitlab-ci.yml';

/**
 * What was typed for a project the last time, kept until a pipeline starts. In memory only: variable
 * values may be secrets, and nothing the user types for a server is written to disk outside
 * SecretStorage.
 */
const lastRuns = new Map<string, LastRun>();

interface LastRun {
  ref: string;
  variables: NewPipelineVariable[];
}

export interface RunPipelineAnswers {
  ref?: string;
  variables?: NewPipelineVariable[];
}

function lastRunKey(account: AccountInfo, project: Project): string {
  return `forge.pipelines.lastRun/${account.id}/${project.id}`;
}

async function askRef(client: HostingClient, project: Project, suggested: string | undefined) {
  const branches = await withProgress(
    {
      location: vscode.ProgressLocation.Window,
      title: vscode.l10n.t('Loading the branches of {0}', projectPath(project)),
    },
    () => client.listBranches(project.id).page({ perPage: 100 }),
  );
  const first = suggested ?? project.default_branch ?? undefined;
  const names = branches.items.map((branch) => branch.name);
  const ordered = first && names.includes(first) ? [first, ...names.filter((name) => name !== first)] : names;
  const picked = await pickOne(
    ordered.map((name) => ({
      label: name,
      description: name === project.default_branch ? vscode.l10n.t('default branch') : undefined,
      icon: 'git-branch',
      name,
    })),
    { placeHolder: vscode.l10n.t('Run a pipeline of {0} on which branch?', projectPath(project)) },
  );
  return picked?.name;
}

/** The CI file at the ref, or none (the server then says what is missing). */
async function ciFileAt(client: HostingClient, project: Project, ref: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await client.getRawFile(project.id, CI_FILE, ref));
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

async function askValue(variable: PrefilledVariable, current: string): Promise<string | undefined> {
  if (variable.options && variable.options.length > 0) {
    const picked = await pickOne(
      variable.options.map((option) => ({ label: option, picked: option === current, option })),
      { placeHolder: `${variable.key}: ${variable.description ?? ''}` },
    );
    return picked?.option;
  }
  return askText({ title: variable.key, prompt: variable.description, value: current });
}

type FormRow = PickItem & { action: 'run' | 'edit' | 'add' | 'addFile'; index?: number };

function formRows(
  ref: string,
  variables: readonly NewPipelineVariable[],
  offered: readonly PrefilledVariable[],
): FormRow[] {
  return [
    { label: vscode.l10n.t('Run pipeline on {0}', ref), icon: 'play', action: 'run', alwaysShow: true },
    ...variables.map((variable, index) => ({
      label: `${variable.key} = ${variable.value}`,
      description: variable.variable_type === 'file' ? vscode.l10n.t('file') : undefined,
      detail: offered.find((each) => each.key === variable.key)?.description,
      icon: variable.variable_type === 'file' ? 'file' : 'symbol-variable',
      action: 'edit' as const,
      index,
    })),
    { label: vscode.l10n.t('Add a variable'), icon: 'add', action: 'add', alwaysShow: true },
    { label: vscode.l10n.t('Add a file variable'), icon: 'file-add', action: 'addFile', alwaysShow: true },
  ];
}

async function askNewVariable(type: 'env_var' | 'file'): Promise<NewPipelineVariable | undefined> {
  const key = await askText({
    title: type === 'file' ? vscode.l10n.t('New file variable') : vscode.l10n.t('New variable'),
    prompt: vscode.l10n.t('Its key: letters, digits and underscores'),
    validateInput: (value) =>
      /^\w{1,255}$/.test(value)
        ? undefined
        : vscode.l10n.t('A key has only letters, digits and underscores.'),
  });
  if (key === undefined) return undefined;
  const value = await askText({
    title: key,
    prompt: type === 'file' ? vscode.l10n.t('The file content') : vscode.l10n.t('Its value'),
  });
  return value === undefined ? undefined : { key, value, variable_type: type };
}

/** The form: run, or change a value, or add one; Escape leaves without running. */
async function askVariables(
  ref: string,
  start: NewPipelineVariable[],
  offered: readonly PrefilledVariable[],
): Promise<NewPipelineVariable[] | undefined> {
  const variables = [...start];
  for (;;) {
    const row = await pickOne(formRows(ref, variables, offered), {
      placeHolder: vscode.l10n.t('Variables of the new pipeline: pick one to change it'),
    });
    if (!row) return undefined;
    if (row.action === 'run') return variables;
    if (row.action === 'edit' && row.index !== undefined) {
      const variable = variables[row.index];
      if (!variable) continue;
      const described = offered.find((each) => each.key === variable.key) ?? {
        key: variable.key,
        value: variable.value,
        description: undefined,
        options: undefined,
      };
      const value = await askValue(described, variable.value);
      if (value !== undefined) variables[row.index] = { ...variable, value };
      continue;
    }
    const added = await askNewVariable(row.action === 'addFile' ? 'file' : 'env_var');
    if (added) variables.push(added);
  }
}

/** The server's reasons (`{"message":{"base":[...]}}`), as a sentence to show. */
function refusalText(error: BadRequestError): string {
  const reasons = error.fieldErrors?.['base'] ?? Object.values(error.fieldErrors ?? {}).flat();
  return reasons.length > 0 ? reasons.join(' ') : error.serverMessage;
}

/**
 * Asks for the ref and the variables (or takes them from `answers`), creates the pipeline and
 * returns it; undefined when the user left or the server refused (said, and the answers kept for the
 * next try).
 */
export async function runPipelineAsked(
  client: HostingClient,
  account: AccountInfo,
  project: Project,
  answers: RunPipelineAnswers,
  suggestedRef?: string,
): Promise<PipelineDetails | undefined> {
  const key = lastRunKey(account, project);
  const last = lastRuns.get(key);
  const typedRef = answers.ref ?? (await askRef(client, project, suggestedRef ?? last?.ref));
  if (typedRef === undefined) return undefined;
  const ref = valueOrThrow(checkRefName(typedRef));
  let variables = answers.variables;
  if (variables === undefined) {
    const offered = prefilledVariables((await ciFileAt(client, project, ref)) ?? '');
    const kept = last?.ref === ref ? last.variables : [];
    const start = [
      ...offered.map(
        (each) => kept.find((variable) => variable.key === each.key) ?? { key: each.key, value: each.value },
      ),
      ...kept.filter((variable) => !offered.some((each) => each.key === variable.key)),
    ];
    variables = await askVariables(ref, start, offered);
    if (variables === undefined) return undefined;
  }
  try {
    const pipeline = await withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Starting a pipeline on {0}', ref),
      },
      () => client.createPipeline(project.id, ref, variables),
    );
    lastRuns.delete(key);
    return pipeline;
  } catch (error) {
    lastRuns.set(key, { ref, variables });
    if (!(error instanceof BadRequestError)) throw error;
    const message = vscode.l10n.t('The pipeline on {0} was not created: {1}', ref, refusalText(error));
    void showError(message);
    return undefined;
  }
}
