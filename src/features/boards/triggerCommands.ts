import * as z from 'zod';
import * as vscode from 'vscode';
import type { Trigger } from '../../api/hosting';
import { isFullTriggerToken } from '../../domain/boardsAndTriggers';
import type { Services } from '../../services';
import { ProjectNode, type ProjectTarget, projectTarget } from '../projects';
import { TriggerNode, TriggersFolder, triggerTitle } from './triggersFolder';
import { type CommandDeclaration, defineCommand, rowOf } from '../../platform/commands/defineCommand';
import { askText, pickOne, showInformation, showWarning, withProgress } from '../../platform/userMessages';

/** Trailing options of the trigger commands, for tests and automation: they skip the prompts. */
const TriggerOptionsSchema = z
  .strictObject({
    /** forge.trigger.create and forge.trigger.edit: the description. */
    description: z.string().max(10_000).optional(),
    /** forge.trigger.delete and forge.trigger.takeOwnership: skip the confirmation. */
    confirmed: z.boolean().optional(),
  })
  .optional();

/** A trigger's row, the Pipeline Triggers folder, a project's row, or nothing (pick a project). */
const TriggerArgumentSchema = z
  .union([
    rowOf(TriggerNode, vscode.l10n.t('a pipeline trigger')),
    rowOf(TriggersFolder, vscode.l10n.t('a Pipeline Triggers folder')),
    rowOf(ProjectNode, vscode.l10n.t('a project')),
  ])
  .optional();
type TriggerArgument = z.output<typeof TriggerArgumentSchema>;

interface TriggerTarget extends ProjectTarget {
  trigger: Trigger;
  folder?: TriggersFolder;
}

/** The trigger of a tree row, or one picked from a project's triggers. */
async function triggerTarget(services: Services, arg: TriggerArgument): Promise<TriggerTarget | undefined> {
  if (arg instanceof TriggerNode) {
    return {
      account: arg.owner.account,
      project: arg.owner.project,
      trigger: arg.trigger,
      folder: arg.folder,
    };
  }
  const folder = arg instanceof TriggersFolder ? arg : undefined;
  const target = await projectTarget(
    services,
    folder ? folder.owner : arg,
    vscode.l10n.t('Project of the trigger'),
  );
  if (!target) return undefined;
  const client = await services.accounts.client(target.account.id);
  const items = client
    .listTriggers(target.project.id)
    .page({ perPage: 100 })
    .then((page) =>
      page.items.map((trigger) => ({
        label: triggerTitle(trigger),
        description: trigger.owner
          ? vscode.l10n.t('owned by {0}', trigger.owner.name)
          : vscode.l10n.t('no owner'),
        trigger,
      })),
    );
  const picked = await pickOne(items, { placeHolder: vscode.l10n.t('Pipeline trigger') });
  return picked ? { ...target, trigger: picked.trigger, folder } : undefined;
}

/** The Triggers folder a command ran on (directly, or through its project). */
function folderOf(arg: TriggerArgument): TriggersFolder | undefined {
  if (arg instanceof TriggersFolder) return arg;
  if (arg instanceof ProjectNode) return arg.contributedFolder(TriggersFolder);
  return undefined;
}

function refresh(services: Services, folder: TriggersFolder | undefined): void {
  if (folder) services.afterAction(folder);
  else services.projects.refresh();
}

function askDescription(title: string, value = ''): Thenable<string | undefined> {
  return askText({
    title,
    prompt: vscode.l10n.t('What the trigger is for (shown in the trigger list)'),
    value,
    validateInput: (text) => (text.trim() === '' ? vscode.l10n.t('Describe the trigger') : undefined),
  });
}

async function copyToken(trigger: Trigger): Promise<boolean> {
  if (!isFullTriggerToken(trigger.token)) {
    void showWarning(
      vscode.l10n.t(
        'The server shows the token of "{0}" only to its owner. Take ownership to use it.',
        triggerTitle(trigger),
      ),
    );
    return false;
  }
  await vscode.env.clipboard.writeText(trigger.token);
  // Never the token itself: messages end up in screenshots and logs.
  void showInformation(vscode.l10n.t('Token copied'));
  return true;
}

export function triggerCommands(services: Services): CommandDeclaration[] {
  return [
    createTriggerCommand(services),
    editTriggerCommand(services),
    takeOwnershipCommand(services),
    deleteTriggerCommand(services),
    defineCommand({
      id: 'forge.trigger.copyToken',
      args: [TriggerArgumentSchema],
      run: async (arg): Promise<boolean> => {
        const target = await triggerTarget(services, arg);
        return target ? copyToken(target.trigger) : false;
      },
    }),
  ];
}

function createTriggerCommand(services: Services): CommandDeclaration {
  return defineCommand({
    id: 'forge.trigger.create',
    args: [TriggerArgumentSchema, TriggerOptionsSchema],
    run: async (arg, options = {}): Promise<Trigger | undefined> => {
      const folder = folderOf(arg);
      const target = await projectTarget(
        services,
        folder ? folder.owner : arg,
        vscode.l10n.t('Project to add a trigger to'),
      );
      if (!target) return undefined;
      const description = (
        options.description ?? (await askDescription(vscode.l10n.t('New pipeline trigger')))
      )?.trim();
      if (!description) return undefined;
      const client = await services.accounts.client(target.account.id);
      const trigger = await withProgress(
        { location: { viewId: 'forge.projects' }, title: vscode.l10n.t('Creating the trigger…') },
        () => client.createTrigger(target.project.id, description),
      );
      // The creator owns the new trigger: that tells who the caller is.
      folder?.learnCaller(trigger.owner?.id);
      refresh(services, folder);
      void showInformation(
        vscode.l10n.t('Created the pipeline trigger "{0}".', triggerTitle(trigger)),
        vscode.l10n.t('Copy Token'),
      ).then((choice) => (choice === vscode.l10n.t('Copy Token') ? copyToken(trigger) : undefined));
      return trigger;
    },
  });
}

function editTriggerCommand(services: Services): CommandDeclaration {
  return defineCommand({
    id: 'forge.trigger.edit',
    args: [TriggerArgumentSchema, TriggerOptionsSchema],
    run: async (arg, options = {}): Promise<Trigger | undefined> => {
      const target = await triggerTarget(services, arg);
      if (!target) return undefined;
      const description = (
        options.description ??
        (await askDescription(
          vscode.l10n.t('Edit "{0}"', triggerTitle(target.trigger)),
          target.trigger.description,
        ))
      )?.trim();
      if (!description || description === target.trigger.description) return undefined;
      const client = await services.accounts.client(target.account.id);
      const updated = await client.updateTrigger(target.project.id, target.trigger.id, description);
      refresh(services, target.folder);
      return updated;
    },
  });
}

function takeOwnershipCommand(services: Services): CommandDeclaration {
  return defineCommand({
    id: 'forge.trigger.takeOwnership',
    args: [TriggerArgumentSchema, TriggerOptionsSchema],
    run: async (arg, options = {}): Promise<Trigger | undefined> => {
      const target = await triggerTarget(services, arg);
      if (!target) return undefined;
      const previous = target.trigger.owner;
      if (previous && !options.confirmed) {
        const answer = await showWarning(
          vscode.l10n.t(
            'Take ownership of the trigger "{0}" from {1}?',
            triggerTitle(target.trigger),
            previous.name,
          ),
          { modal: true, detail: vscode.l10n.t('Pipelines it starts will then run as you.') },
          vscode.l10n.t('Take Ownership'),
        );
        if (answer !== vscode.l10n.t('Take Ownership')) return undefined;
      }
      const client = await services.accounts.client(target.account.id);
      const updated = await client.takeTriggerOwnership(target.project.id, target.trigger.id);
      target.folder?.learnCaller(updated.owner?.id);
      refresh(services, target.folder);
      void showInformation(vscode.l10n.t('You now own "{0}".', triggerTitle(updated)));
      return updated;
    },
  });
}

function deleteTriggerCommand(services: Services): CommandDeclaration {
  return defineCommand({
    id: 'forge.trigger.delete',
    args: [TriggerArgumentSchema, TriggerOptionsSchema],
    run: async (arg, options = {}): Promise<boolean> => {
      const target = await triggerTarget(services, arg);
      if (!target) return false;
      if (!options.confirmed) {
        const answer = await showWarning(
          vscode.l10n.t('Delete the pipeline trigger "{0}"?', triggerTitle(target.trigger)),
          {
            modal: true,
            detail: vscode.l10n.t('Anything that starts pipelines with its token will stop working.'),
          },
          vscode.l10n.t('Delete Trigger'),
        );
        if (answer !== vscode.l10n.t('Delete Trigger')) return false;
      }
      const client = await services.accounts.client(target.account.id);
      await client.deleteTrigger(target.project.id, target.trigger.id);
      refresh(services, target.folder);
      return true;
    },
  });
}
