import * as z from 'zod';
import type { BroadcastMessage, BroadcastMessageInput } from '../../api/hosting';
import { isBroadcastActive, isHexColor, parseWhen, plainBroadcastText } from '../../domain/broadcasts';
import type { AccountInfo, AccountManager } from '../../platform/accounts';
import type { BroadcastWatcher, ShownBroadcast } from '../../platform/broadcasts';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import { askText, pickOne, showInformation, showWarning, withProgress } from '../../platform/userMessages';
import { changedFields, optionTime } from './actions';
import { AdminTargetSchema, adminAccount } from './adminTargets';
import { BroadcastMessageNode, type AdminTreeProvider } from './adminTreeProvider';
import * as l10n from '@vscode/l10n';

/**
 * Trailing options of the broadcast message commands, for tests and automation. When given,
 * nothing is asked: create sends what is set (the server defaults the rest), edit sends only what
 * is set. Times are ISO 8601 or "now" / "in 2 hours" (see parseWhen).
 */
const BroadcastOptionsSchema = z
  .strictObject({
    message: z.string().max(100_000).optional(),
    startsAt: z.string().max(100).optional(),
    endsAt: z.string().max(100).optional(),
    color: z.string().max(20).optional(),
    /** delete: skip the confirmation. */
    confirmed: z.boolean().optional(),
  })
  .optional();

type BroadcastCommandOptions = z.output<typeof BroadcastOptionsSchema>;

const COLORS = [
  { label: l10n.t('Orange'), color: '#E75E40', description: l10n.t('the default') },
  { label: l10n.t('Blue'), color: '#1068BF' },
  { label: l10n.t('Green'), color: '#217645' },
  { label: l10n.t('Purple'), color: '#6666C4' },
  { label: l10n.t('Grey'), color: '#535158' },
];

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
        label: l10n.t('Other colour…'),
        description: current ? current : undefined,
        color: undefined,
        picked: false,
      },
    ],
    { placeHolder: l10n.t('Background colour of the banner') },
  );
  if (!picked) return undefined;
  if (picked.color) return picked.color;
  const typed = await askText({
    prompt: l10n.t('Background colour as a hex code'),
    value: current ?? '#',
    validateInput: (text) => (isHexColor(text) ? undefined : l10n.t('Like #E75E40 or #abc')),
  });
  return typed?.trim();
}

/** The text, start, end and colour of a new message, asked one after another. */
async function askNewBroadcast(
  account: AccountInfo,
): Promise<(BroadcastMessageInput & { message: string }) | undefined> {
  const title = l10n.t('New broadcast message on {0}', account.label);
  const message = await askText({
    title,
    prompt: l10n.t('The message everybody sees in a banner'),
    validateInput: (text) => (text.trim() === '' ? l10n.t('Type the message') : undefined),
  });
  if (!message?.trim()) return undefined;
  const startsAt = await askWhen(
    title,
    l10n.t('When it starts: "now", "in 2 hours", or 2024-05-01T08:00Z'),
    'now',
  );
  if (!startsAt) return undefined;
  const endsAt = await askWhen(
    title,
    l10n.t('When it ends; "in …" counts from the start'),
    'in 1 hour',
    Date.parse(startsAt),
  );
  if (!endsAt) return undefined;
  const color = await askColor();
  if (!color) return undefined;
  return { message: message.trim(), starts_at: startsAt, ends_at: endsAt, color };
}

/** What changed of an existing message, asked field by field with the current values. */
async function askBroadcastChanges(message: BroadcastMessage): Promise<BroadcastMessageInput | undefined> {
  const title = l10n.t('Edit broadcast message {0}', message.id);
  const text = await askText({
    title,
    prompt: l10n.t('The message'),
    value: message.message,
    validateInput: (value) => (value.trim() === '' ? l10n.t('Type the message') : undefined),
  });
  if (text === undefined) return undefined;
  const startsAt = await askWhen(title, l10n.t('When it starts'), message.starts_at ?? 'now');
  if (!startsAt) return undefined;
  const endsAt = await askWhen(
    title,
    l10n.t('When it ends; "in …" counts from the start'),
    message.ends_at ?? 'in 1 hour',
    Date.parse(startsAt),
  );
  if (!endsAt) return undefined;
  const color = await askColor(message.color);
  if (!color) return undefined;
  return {
    message: text.trim() !== message.message ? text.trim() : undefined,
    starts_at: startsAt !== message.starts_at ? startsAt : undefined,
    ends_at: endsAt !== message.ends_at ? endsAt : undefined,
    color: color !== message.color ? color : undefined,
  };
}

function inputFromOptions(
  options: NonNullable<BroadcastCommandOptions>,
  defaultStart?: string | null,
): BroadcastMessageInput {
  const startsAt = optionTime(options.startsAt);
  return {
    message: options.message?.trim() || undefined,
    starts_at: startsAt,
    ends_at: optionTime(options.endsAt, Date.parse(startsAt ?? defaultStart ?? new Date().toISOString())),
    color: options.color,
  };
}

/** What the broadcast commands work with. */
interface BroadcastRoom {
  accounts: AccountManager;
  provider: AdminTreeProvider;
  watcher: BroadcastWatcher;
}

const reloadMessages = (room: BroadcastRoom, account: AccountInfo): void =>
  room.provider.accountNode(account).broadcastMessages.reload();

export function broadcastCommands(
  accounts: AccountManager,
  provider: AdminTreeProvider,
  watcher: BroadcastWatcher,
): CommandDeclaration[] {
  const room: BroadcastRoom = { accounts, provider, watcher };
  return [
    showActiveBroadcastsCommand(watcher),
    createBroadcastCommand(room),
    editBroadcastCommand(room),
    deleteBroadcastCommand(room),
  ];
}

/** The message a row shows, or one picked among the messages of the row's (or a picked) account. */
async function broadcastTarget(
  { accounts }: BroadcastRoom,
  target: z.output<typeof AdminTargetSchema>,
): Promise<{ account: AccountInfo; message: BroadcastMessage } | undefined> {
  if (target instanceof BroadcastMessageNode) return { account: target.account, message: target.message };
  const account = await adminAccount(accounts, target);
  if (!account) return undefined;
  const client = await accounts.client(account.id);
  const items = client
    .listBroadcastMessages()
    .page({ perPage: 100 })
    .then((page) =>
      page.items.map((message) => ({
        label: plainBroadcastText(message.message, 80),
        description: isBroadcastActive(message) ? l10n.t('active') : undefined,
        message,
      })),
    );
  const picked = await pickOne(items, { placeHolder: l10n.t('Broadcast message') });
  return picked ? { account, message: picked.message } : undefined;
}

function showActiveBroadcastsCommand(watcher: BroadcastWatcher): CommandDeclaration {
  return defineCommand({
    id: 'forge.broadcastMessage.showActive',
    args: [],
    run: async (): Promise<number[]> => {
      const shown: ShownBroadcast[] = await watcher.check(true);
      if (shown.length === 0) void showInformation(l10n.t('No new broadcast messages.'));
      return shown.map((entry) => entry.id);
    },
  });
}

function createBroadcastCommand(room: BroadcastRoom): CommandDeclaration {
  return defineCommand({
    id: 'forge.broadcastMessage.create',
    args: [AdminTargetSchema, BroadcastOptionsSchema],
    run: async (target, options): Promise<BroadcastMessage | undefined> => {
      const account = await adminAccount(room.accounts, target);
      if (!account) return undefined;
      let input: (BroadcastMessageInput & { message: string }) | undefined;
      if (options) {
        const message = options.message?.trim();
        if (!message) throw new Error(l10n.t('A broadcast message needs a text.'));
        input = { ...inputFromOptions(options, new Date().toISOString()), message };
      } else input = await askNewBroadcast(account);
      if (!input) return undefined;
      const client = await room.accounts.client(account.id);
      const created = await withProgress(
        { location: { viewId: 'forge.admin' }, title: l10n.t('Creating the broadcast message…') },
        () => client.createBroadcastMessage(input),
      );
      // Whoever wrote it needs no announcement of it.
      await room.watcher.markSeen(account.id, [created.id]);
      reloadMessages(room, account);
      void showInformation(
        isBroadcastActive(created)
          ? l10n.t('The broadcast message is showing now.')
          : l10n.t('The broadcast message will show from {0}.', created.starts_at ?? 'its start'),
      );
      return created;
    },
  });
}

function editBroadcastCommand(room: BroadcastRoom): CommandDeclaration {
  return defineCommand({
    id: 'forge.broadcastMessage.edit',
    args: [AdminTargetSchema, BroadcastOptionsSchema],
    run: async (given, options): Promise<BroadcastMessage | undefined> => {
      const target = await broadcastTarget(room, given);
      if (!target) return undefined;
      const { account, message } = target;
      const input = options
        ? inputFromOptions(options, message.starts_at)
        : await askBroadcastChanges(message);
      if (!input) return undefined;
      const changes = changedFields(input);
      if (Object.keys(changes).length === 0) {
        void showInformation(l10n.t('Nothing changed.'));
        return undefined;
      }
      const client = await room.accounts.client(account.id);
      const updated = await client.updateBroadcastMessage(message.id, changes);
      reloadMessages(room, account);
      return updated;
    },
  });
}

function deleteBroadcastCommand(room: BroadcastRoom): CommandDeclaration {
  return defineCommand({
    id: 'forge.broadcastMessage.delete',
    args: [AdminTargetSchema, BroadcastOptionsSchema],
    run: async (given, options): Promise<boolean> => {
      const target = await broadcastTarget(room, given);
      if (!target) return false;
      if (!options?.confirmed) {
        const answer = await showWarning(
          l10n.t('Delete the broadcast message "{0}"?', plainBroadcastText(target.message.message, 60)),
          { modal: true, detail: l10n.t('Nobody will see it any more.') },
          l10n.t('Delete Message'),
        );
        if (answer !== l10n.t('Delete Message')) return false;
      }
      const client = await room.accounts.client(target.account.id);
      await client.deleteBroadcastMessage(target.message.id);
      reloadMessages(room, target.account);
      return true;
    },
  });
}
