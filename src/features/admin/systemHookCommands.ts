import * as z from 'zod';
import type { SystemHook, SystemHookTest } from '../../api/hosting';
import type { AccountInfo, AccountManager } from '../../platform/accounts';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import {
  askText,
  pickMany,
  pickOne,
  showInformation,
  showWarning,
  withProgress,
} from '../../platform/userMessages';
import { describeSample } from './actions';
import { AdminTargetSchema, adminAccount } from './adminTargets';
import { type AdminTreeProvider, SystemHookNode, describeHookEvents } from './adminTreeProvider';
import * as l10n from '@vscode/l10n';

/** Trailing options of forge.systemHook.create/delete, for tests and automation (no prompts). */
const SystemHookOptionsSchema = z
  .strictObject({
    url: z.string().max(2000).optional(),
    /** Secret sent with each event; never shown or logged. */
    token: z.string().max(1000).optional(),
    pushEvents: z.boolean().optional(),
    tagPushEvents: z.boolean().optional(),
    enableSslVerification: z.boolean().optional(),
    confirmed: z.boolean().optional(),
  })
  .optional();

interface SystemHookInput {
  url: string;
  token?: string | undefined;
  push_events: boolean;
  tag_push_events: boolean;
  enable_ssl_verification: boolean;
}

function isWebAddress(text: string): boolean {
  try {
    const protocol = new URL(text.trim()).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

async function askNewHook(account: AccountInfo): Promise<SystemHookInput | undefined> {
  const title = l10n.t('New system hook on {0}', account.label);
  const url = await askText({
    title,
    prompt: l10n.t('The URL the server posts events to'),
    placeHolder: 'https://hooks.example.com/forge',
    validateInput: (text) => (isWebAddress(text) ? undefined : l10n.t('An http or https URL')),
  });
  if (!url) return undefined;
  const token = await askText({
    title,
    prompt: l10n.t(
      'Secret token sent with each event so the receiver can check it (optional; leave empty for none)',
    ),
    password: true,
  });
  if (token === undefined) return undefined;
  const flags = await pickMany(
    [
      { label: l10n.t('Push events'), flag: 'push', picked: true },
      { label: l10n.t('Tag push events'), flag: 'tag', picked: false },
      { label: l10n.t('Verify SSL certificates'), flag: 'ssl', picked: true },
    ],
    { title, placeHolder: l10n.t('Events to send, and certificate checking') },
  );
  if (!flags) return undefined;
  const chosen = new Set(flags.map((flag) => flag.flag));
  return {
    url: url.trim(),
    token: token || undefined,
    push_events: chosen.has('push'),
    tag_push_events: chosen.has('tag'),
    enable_ssl_verification: chosen.has('ssl'),
  };
}

const reloadHooks = (provider: AdminTreeProvider, account: AccountInfo): void =>
  provider.accountNode(account).systemHooks.reload();

export function systemHookCommands(
  accounts: AccountManager,
  provider: AdminTreeProvider,
): CommandDeclaration[] {
  return [
    createHookCommand(accounts, provider),
    testHookCommand(accounts),
    deleteHookCommand(accounts, provider),
  ];
}

/** The hook a row shows, or one picked among the hooks of the row's (or a picked) account. */
async function hookTarget(
  accounts: AccountManager,
  target: z.output<typeof AdminTargetSchema>,
): Promise<{ account: AccountInfo; hook: SystemHook } | undefined> {
  if (target instanceof SystemHookNode) return { account: target.account, hook: target.hook };
  const account = await adminAccount(accounts, target);
  if (!account) return undefined;
  const client = await accounts.client(account.id);
  const items = client
    .listSystemHooks()
    .page({ perPage: 100 })
    .then((page) =>
      page.items.map((hook) => ({ label: hook.url, description: describeHookEvents(hook), hook })),
    );
  const picked = await pickOne(items, { placeHolder: l10n.t('System hook') });
  return picked ? { account, hook: picked.hook } : undefined;
}

function createHookCommand(accounts: AccountManager, provider: AdminTreeProvider): CommandDeclaration {
  return defineCommand({
    id: 'forge.systemHook.create',
    args: [AdminTargetSchema, SystemHookOptionsSchema],
    run: async (target, options): Promise<SystemHook | undefined> => {
      const account = await adminAccount(accounts, target);
      if (!account) return undefined;
      let input: SystemHookInput | undefined;
      if (options) {
        if (!options.url) throw new Error(l10n.t('A system hook needs a URL.'));
        input = {
          url: options.url,
          token: options.token || undefined,
          push_events: options.pushEvents ?? true,
          tag_push_events: options.tagPushEvents ?? false,
          enable_ssl_verification: options.enableSslVerification ?? true,
        };
      } else input = await askNewHook(account);
      if (!input) return undefined;
      const client = await accounts.client(account.id);
      const hook = await withProgress(
        { location: { viewId: 'forge.admin' }, title: l10n.t('Adding the system hook…') },
        () => client.createSystemHook(input),
      );
      reloadHooks(provider, account);
      void showInformation(l10n.t('Added the system hook {0} ({1}).', hook.url, describeHookEvents(hook)));
      return hook;
    },
  });
}

function testHookCommand(accounts: AccountManager): CommandDeclaration {
  return defineCommand({
    id: 'forge.systemHook.test',
    args: [AdminTargetSchema],
    run: async (given): Promise<SystemHookTest | undefined> => {
      const target = await hookTarget(accounts, given);
      if (!target) return undefined;
      const client = await accounts.client(target.account.id);
      const sample = await withProgress(
        { location: { viewId: 'forge.admin' }, title: l10n.t('Testing the system hook…') },
        () => client.testSystemHook(target.hook.id),
      );
      void showInformation(describeSample(target.hook, sample));
      return sample;
    },
  });
}

function deleteHookCommand(accounts: AccountManager, provider: AdminTreeProvider): CommandDeclaration {
  return defineCommand({
    id: 'forge.systemHook.delete',
    args: [AdminTargetSchema, SystemHookOptionsSchema],
    run: async (given, options): Promise<boolean> => {
      const target = await hookTarget(accounts, given);
      if (!target) return false;
      if (!options?.confirmed) {
        const answer = await showWarning(
          l10n.t('Delete the system hook {0}?', target.hook.url),
          { modal: true, detail: l10n.t('The server stops sending it events.') },
          l10n.t('Delete Hook'),
        );
        if (answer !== l10n.t('Delete Hook')) return false;
      }
      const client = await accounts.client(target.account.id);
      await client.deleteSystemHook(target.hook.id);
      reloadHooks(provider, target.account);
      return true;
    },
  });
}
