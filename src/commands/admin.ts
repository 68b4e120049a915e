import type { BroadcastMessage, BroadcastMessageInput, SystemHook, SystemHookTest } from '../api/hosting';
import { NotFoundError } from '../api/http';
import { isBroadcastActive, isHexColor, parseWhen, plainBroadcastText } from '../domain/broadcasts';
import { parseId } from '../domain/projectActions';
import type { AccountInfo } from '../platform/accounts';
import { BroadcastWatcher, type ShownBroadcast } from '../platform/broadcasts';
import type { Services } from '../services';
import {
  AdminAccountNode,
  AdminTreeProvider,
  BroadcastMessageNode,
  BroadcastMessagesFolder,
  SshKeyLookupNode,
  SystemHookNode,
  SystemHooksFolder,
  describeHookEvents,
} from '../views/admin/adminTreeProvider';
import { pickAccount } from '../platform/accountPicker';
import { registerBoardCommands } from './boards';
import { registerCommand } from '../platform/commands/registerCommand';
import { registerTriggerCommands } from './triggers';
import {
  askText,
  pickMany,
  pickOne,
  showError,
  showInformation,
  showWarning,
  withProgress,
} from '../platform/userMessages';

/**
 * Trailing options of the broadcast message commands, for tests and automation. When given,
 * nothing is asked: create sends what is set (the server defaults the rest), edit sends only what
 * is set. Times are ISO 8601 or "now" / "in 2 hours" (see parseWhen).
 */
export interface BroadcastCommandOptions {
  message?: string;
  startsAt?: string;
  endsAt?: string;
  color?: string;
  /** delete: skip the confirmation. */
  confirmed?: boolean;
}

/** Trailing options of forge.systemHook.create/delete, for tests and automation (no prompts). */
export interface SystemHookCommandOptions {
  url?: string;
  /** Secret sent with each event; never shown or logged. */
  token?: string;
  pushEvents?: boolean;
  tagPushEvents?: boolean;
  enableSslVerification?: boolean;
  confirmed?: boolean;
}

/** What forge.sshKey.lookup returns (for tests and automation); the dialog shows the same. */
export interface SshKeySummary {
  id: number;
  title: string;
  owner: string | undefined;
  createdAt: string | undefined;
  /** The key type and the start of the key: enough to recognise it. */
  keyStart: string;
}

const COLORS = [
  { label: 'Orange', color: '#E75E40', description: 'the default' },
  { label: 'Blue', color: '#1068BF' },
  { label: 'Green', color: '#217645' },
  { label: 'Purple', color: '#6666C4' },
  { label: 'Grey', color: '#535158' },
];

/** The administrator account of a node or an id, or one picked among administrator accounts. */
async function adminAccount(services: Services, arg: unknown): Promise<AccountInfo | undefined> {
  if (
    arg instanceof AdminAccountNode ||
    arg instanceof BroadcastMessagesFolder ||
    arg instanceof SystemHooksFolder ||
    arg instanceof SshKeyLookupNode ||
    arg instanceof BroadcastMessageNode ||
    arg instanceof SystemHookNode
  ) {
    return arg.account;
  }
  return pickAccount(
    services.accounts,
    'Which administrator account?',
    (account) => services.accounts.actsAsAdmin(account),
    typeof arg === 'string' ? arg : undefined,
  );
}

async function askWhen(
  title: string,
  prompt: string,
  value: string,
  from?: number,
): Promise<string | undefined> {
  const typed = await askText({
    title,
    prompt,
    value,
    validateInput: (text) => {
      const result = parseWhen(text, from);
      return 'problem' in result ? result.problem : undefined;
    },
  });
  if (typed === undefined) return undefined;
  const result = parseWhen(typed, from);
  return 'date' in result ? result.date.toISOString() : undefined;
}

/** A time from the options (already ISO, or words like "in 1 hour"), as ISO 8601. */
function optionTime(value: string | undefined, from?: number): string | undefined {
  if (value === undefined) return undefined;
  const result = parseWhen(value, from);
  if ('problem' in result) throw new Error(`"${value}": ${result.problem}`);
  return result.date.toISOString();
}

async function askColor(current?: string | null): Promise<string | undefined> {
  const picked = await pickOne(
    [
      ...COLORS.map((entry) => ({
        icon: 'symbol-color',
        label: entry.label,
        description: [entry.color, entry.description].filter(Boolean).join(' · '),
        color: entry.color,
        picked: current?.toLowerCase() === entry.color.toLowerCase(),
      })),
      {
        icon: 'edit',
        label: 'Other colour…',
        description: current ? current : undefined,
        color: undefined,
        picked: false,
      },
    ],
    { placeHolder: 'Background colour of the banner' },
  );
  if (!picked) return undefined;
  if (picked.color) return picked.color;
  const typed = await askText({
    prompt: 'Background colour as a hex code',
    value: current ?? '#',
    validateInput: (text) => (isHexColor(text) ? undefined : 'Like #E75E40 or #abc'),
  });
  return typed?.trim();
}

function describeSample(hook: SystemHook | undefined, sample: SystemHookTest): string {
  return (
    `${hook ? `${hook.url}: ` : ''}the server answered a sample "${sample.event_name}" event ` +
    `for the project "${sample.name}" (${sample.path}), owner ${sample.owner_name} <${sample.owner_email}>.`
  );
}

function summarizeKey(key: {
  id: number;
  title: string;
  key: string;
  created_at?: string | undefined;
  user?: { name: string; username: string } | undefined;
}): SshKeySummary {
  const [type, body = ''] = key.key.trim().split(/\s+/);
  return {
    id: key.id,
    title: key.title,
    owner: key.user ? `${key.user.name} (@${key.user.username})` : undefined,
    createdAt: key.created_at,
    keyStart: `${type ?? ''} ${body.slice(0, 24)}…`.trim(),
  };
}

export function registerAdminCommands(services: Services): void {
  const { context, log, accounts } = services;

  registerBoardCommands(services);
  registerTriggerCommands(services);

  const provider = new AdminTreeProvider(accounts);
  const view = services.shell.treeView('forge.admin', provider);
  services.treeViews.set('forge.admin', view);
  services.treeProviders.set('forge.admin', provider);
  context.subscriptions.push(provider, view);

  const watcher = new BroadcastWatcher(accounts, context.globalState, log);
  context.subscriptions.push(watcher);
  watcher.start();

  /** The Broadcast Messages (or System Hooks) folder of an account, if the view has one. */
  const folderOf = <K extends 'broadcastMessages' | 'systemHooks'>(account: AccountInfo, kind: K) =>
    provider.accountNode(account)[kind];

  registerCommand(context, log, 'forge.admin.refresh', (node?: unknown) =>
    provider.refresh(
      node instanceof BroadcastMessagesFolder || node instanceof SystemHooksFolder ? node : undefined,
    ),
  );

  // ---- broadcast messages -------------------------------------------------------------------

  registerCommand(context, log, 'forge.broadcastMessage.showActive', async (): Promise<number[]> => {
    const shown: ShownBroadcast[] = await watcher.check(true);
    if (shown.length === 0) void showInformation('No new broadcast messages.');
    return shown.map((entry) => entry.id);
  });

  registerCommand(
    context,
    log,
    'forge.broadcastMessage.create',
    async (arg?: unknown, options?: BroadcastCommandOptions): Promise<BroadcastMessage | undefined> => {
      const account = await adminAccount(services, arg);
      if (!account) return undefined;
      let input: BroadcastMessageInput & { message: string };
      if (options) {
        if (!options.message?.trim()) throw new Error('A broadcast message needs a text.');
        const startsAt = optionTime(options.startsAt);
        input = {
          message: options.message.trim(),
          starts_at: startsAt,
          ends_at: optionTime(options.endsAt, startsAt ? Date.parse(startsAt) : undefined),
          color: options.color,
        };
      } else {
        const title = `New broadcast message on ${account.label}`;
        const message = await askText({
          title,
          prompt: 'The message everybody sees in a banner',
          validateInput: (text) => (text.trim() === '' ? 'Type the message' : undefined),
        });
        if (!message?.trim()) return undefined;
        const startsAt = await askWhen(
          title,
          'When it starts: "now", "in 2 hours", or 2024-05-01T08:00Z',
          'now',
        );
        if (!startsAt) return undefined;
        const endsAt = await askWhen(
          title,
          'When it ends; "in …" counts from the start',
          'in 1 hour',
          Date.parse(startsAt),
        );
        if (!endsAt) return undefined;
        const color = await askColor();
        if (!color) return undefined;
        input = { message: message.trim(), starts_at: startsAt, ends_at: endsAt, color };
      }
      const client = await accounts.client(account.id);
      const created = await withProgress(
        { location: { viewId: 'forge.admin' }, title: 'Creating the broadcast message…' },
        () => client.createBroadcastMessage(input),
      );
      // Whoever wrote it needs no announcement of it.
      await watcher.markSeen(account.id, [created.id]);
      folderOf(account, 'broadcastMessages').reload();
      void showInformation(
        isBroadcastActive(created)
          ? 'The broadcast message is showing now.'
          : `The broadcast message will show from ${created.starts_at ?? 'its start'}.`,
      );
      return created;
    },
  );

  const broadcastTarget = async (
    arg: unknown,
  ): Promise<
    { account: AccountInfo; message: BroadcastMessage; node?: BroadcastMessageNode } | undefined
  > => {
    if (arg instanceof BroadcastMessageNode) return { account: arg.account, message: arg.message, node: arg };
    const account = await adminAccount(services, arg);
    if (!account) return undefined;
    const client = await accounts.client(account.id);
    const items = client
      .listBroadcastMessages()
      .page({ perPage: 100 })
      .then((page) =>
        page.items.map((message) => ({
          label: plainBroadcastText(message.message, 80),
          description: isBroadcastActive(message) ? 'active' : undefined,
          message,
        })),
      );
    const picked = await pickOne(items, { placeHolder: 'Broadcast message' });
    return picked ? { account, message: picked.message } : undefined;
  };

  registerCommand(
    context,
    log,
    'forge.broadcastMessage.edit',
    async (arg?: unknown, options?: BroadcastCommandOptions): Promise<BroadcastMessage | undefined> => {
      const target = await broadcastTarget(arg);
      if (!target) return undefined;
      const { account, message } = target;
      let input: BroadcastMessageInput;
      if (options) {
        const startsAt = optionTime(options.startsAt);
        input = {
          message: options.message?.trim() || undefined,
          starts_at: startsAt,
          ends_at: optionTime(
            options.endsAt,
            Date.parse(startsAt ?? message.starts_at ?? new Date().toISOString()),
          ),
          color: options.color,
        };
      } else {
        const title = `Edit broadcast message ${message.id}`;
        const text = await askText({
          title,
          prompt: 'The message',
          value: message.message,
          validateInput: (value) => (value.trim() === '' ? 'Type the message' : undefined),
        });
        if (text === undefined) return undefined;
        const startsAt = await askWhen(title, 'When it starts', message.starts_at ?? 'now');
        if (!startsAt) return undefined;
        const endsAt = await askWhen(
          title,
          'When it ends; "in …" counts from the start',
          message.ends_at ?? 'in 1 hour',
          Date.parse(startsAt),
        );
        if (!endsAt) return undefined;
        const color = await askColor(message.color);
        if (!color) return undefined;
        input = {
          message: text.trim() !== message.message ? text.trim() : undefined,
          starts_at: startsAt !== message.starts_at ? startsAt : undefined,
          ends_at: endsAt !== message.ends_at ? endsAt : undefined,
          color: color !== message.color ? color : undefined,
        };
      }
      const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
      if (Object.keys(changes).length === 0) {
        void showInformation('Nothing changed.');
        return undefined;
      }
      const client = await accounts.client(account.id);
      const updated = await client.updateBroadcastMessage(message.id, changes);
      folderOf(account, 'broadcastMessages').reload();
      return updated;
    },
  );

  registerCommand(
    context,
    log,
    'forge.broadcastMessage.delete',
    async (arg?: unknown, options: BroadcastCommandOptions = {}): Promise<boolean> => {
      const target = await broadcastTarget(arg);
      if (!target) return false;
      if (!options.confirmed) {
        const answer = await showWarning(
          `Delete the broadcast message "${plainBroadcastText(target.message.message, 60)}"?`,
          { modal: true, detail: 'Nobody will see it any more.' },
          'Delete Message',
        );
        if (answer !== 'Delete Message') return false;
      }
      const client = await accounts.client(target.account.id);
      await client.deleteBroadcastMessage(target.message.id);
      folderOf(target.account, 'broadcastMessages').reload();
      return true;
    },
  );

  // ---- system hooks ---------------------------------------------------------------------------

  registerCommand(
    context,
    log,
    'forge.systemHook.create',
    async (arg?: unknown, options?: SystemHookCommandOptions): Promise<SystemHook | undefined> => {
      const account = await adminAccount(services, arg);
      if (!account) return undefined;
      let input: {
        url: string;
        token?: string;
        push_events: boolean;
        tag_push_events: boolean;
        enable_ssl_verification: boolean;
      };
      if (options) {
        if (!options.url) throw new Error('A system hook needs a URL.');
        input = {
          url: options.url,
          token: options.token || undefined,
          push_events: options.pushEvents ?? true,
          tag_push_events: options.tagPushEvents ?? false,
          enable_ssl_verification: options.enableSslVerification ?? true,
        };
      } else {
        const title = `New system hook on ${account.label}`;
        const url = await askText({
          title,
          prompt: 'The URL the server posts events to',
          placeHolder: 'https://hooks.example.com/forge',
          validateInput: (text) => {
            try {
              const protocol = new URL(text.trim()).protocol;
              return protocol === 'http:' || protocol === 'https:' ? undefined : 'An http or https URL';
            } catch {
              return 'An http or https URL';
            }
          },
        });
        if (!url) return undefined;
        const token = await askText({
          title,
          prompt:
            'Secret token sent with each event so the receiver can check it (optional; leave empty for none)',
          password: true,
        });
        if (token === undefined) return undefined;
        const flags = await pickMany(
          [
            { label: 'Push events', flag: 'push', picked: true },
            { label: 'Tag push events', flag: 'tag', picked: false },
            { label: 'Verify SSL certificates', flag: 'ssl', picked: true },
          ],
          { title, placeHolder: 'Events to send, and certificate checking' },
        );
        if (!flags) return undefined;
        const chosen = new Set(flags.map((flag) => flag.flag));
        input = {
          url: url.trim(),
          token: token || undefined,
          push_events: chosen.has('push'),
          tag_push_events: chosen.has('tag'),
          enable_ssl_verification: chosen.has('ssl'),
        };
      }
      const client = await accounts.client(account.id);
      const hook = await withProgress(
        { location: { viewId: 'forge.admin' }, title: 'Adding the system hook…' },
        () => client.createSystemHook(input),
      );
      folderOf(account, 'systemHooks').reload();
      void showInformation(`Added the system hook ${hook.url} (${describeHookEvents(hook)}).`);
      return hook;
    },
  );

  const hookTarget = async (
    arg: unknown,
  ): Promise<{ account: AccountInfo; hook: SystemHook } | undefined> => {
    if (arg instanceof SystemHookNode) return { account: arg.account, hook: arg.hook };
    const account = await adminAccount(services, arg);
    if (!account) return undefined;
    const client = await accounts.client(account.id);
    const items = client
      .listSystemHooks()
      .page({ perPage: 100 })
      .then((page) =>
        page.items.map((hook) => ({
          label: hook.url,
          description: describeHookEvents(hook),
          hook,
        })),
      );
    const picked = await pickOne(items, { placeHolder: 'System hook' });
    return picked ? { account, hook: picked.hook } : undefined;
  };

  registerCommand(
    context,
    log,
    'forge.systemHook.test',
    async (arg?: unknown): Promise<SystemHookTest | undefined> => {
      const target = await hookTarget(arg);
      if (!target) return undefined;
      const client = await accounts.client(target.account.id);
      const sample = await withProgress(
        { location: { viewId: 'forge.admin' }, title: 'Testing the system hook…' },
        () => client.testSystemHook(target.hook.id),
      );
      void showInformation(describeSample(target.hook, sample));
      return sample;
    },
  );

  registerCommand(
    context,
    log,
    'forge.systemHook.delete',
    async (arg?: unknown, options: SystemHookCommandOptions = {}): Promise<boolean> => {
      const target = await hookTarget(arg);
      if (!target) return false;
      if (!options.confirmed) {
        const answer = await showWarning(
          `Delete the system hook ${target.hook.url}?`,
          { modal: true, detail: 'The server stops sending it events.' },
          'Delete Hook',
        );
        if (answer !== 'Delete Hook') return false;
      }
      const client = await accounts.client(target.account.id);
      await client.deleteSystemHook(target.hook.id);
      folderOf(target.account, 'systemHooks').reload();
      return true;
    },
  );

  // ---- SSH keys -------------------------------------------------------------------------------

  registerCommand(
    context,
    log,
    'forge.sshKey.lookup',
    async (arg?: unknown, options: { id?: number } = {}): Promise<SshKeySummary | undefined> => {
      const account = await adminAccount(services, arg);
      if (!account) return undefined;
      let id = options.id;
      if (id === undefined) {
        const typed = await askText({
          title: `Look up an SSH key on ${account.label}`,
          prompt: 'The id of the SSH key (for example from an audit log)',
          validateInput: (text) => (parseId(text) === undefined ? 'A positive whole number' : undefined),
        });
        if (typed === undefined) return undefined;
        id = parseId(typed);
      }
      if (id === undefined) return undefined;
      const client = await accounts.client(account.id);
      let summary: SshKeySummary;
      try {
        summary = summarizeKey(await client.getSshKey(id));
      } catch (error) {
        if (error instanceof NotFoundError) {
          void showError(`No SSH key with id ${id}.`);
          return undefined;
        }
        throw error;
      }
      // Not awaited: the dialog stays until dismissed and the command's result is ready now.
      void showInformation(`SSH key ${summary.id}: ${summary.title}`, {
        modal: true,
        detail: [
          `Owner: ${summary.owner ?? 'unknown'}`,
          summary.createdAt ? `Created: ${summary.createdAt}` : undefined,
          `Key: ${summary.keyStart}`,
        ]
          .filter(Boolean)
          .join('\n'),
      });
      return summary;
    },
  );
}
