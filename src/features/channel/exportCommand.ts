import type { ChannelClient } from '../../api/channel';
import type { ProgressReporter } from '../../platform/userMessages';
/** "Export Channel": sections, posts and the private key chosen, written readable by the user alone. */
import { chmod, rename, rm, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { CancelledError } from '../../api/http';
import {
  CHANNEL_EXPORT_SECTIONS,
  safeFileName,
  exportHoldsPrivateKey,
  withoutPrivateKeys,
} from '../../domain/channel';
import { formatBytes } from '../../domain/jobActions';
import type { ChannelAccountInfo } from '../../platform/channelAccounts';
import { type ChannelArgument, type ExportOptions } from './commandArguments';
import {
  type ChannelCommandContext,
  channelName,
  defaultSaveUri,
  pickChannelAccount,
} from './channelTargets';
import { pickMany, pickOne, showInformation, showWarning, withProgress } from '../../platform/userMessages';
import { openLocalFile } from '../../platform/serverLinks';

/** Asks, before anything is written, whether the export is to carry the channel's private key. */
async function askAboutPrivateKey(account: ChannelAccountInfo): Promise<boolean | undefined> {
  const include = vscode.l10n.t('Include the Private Key');
  const leaveOut = vscode.l10n.t('Leave the Key Out');
  const answer = await showWarning(
    vscode.l10n.t('The export of {0} holds its private key.', channelName(account)),
    {
      modal: true,
      detail: vscode.l10n.t(
        'Anyone who has the file can then act as the channel, on every hub. Include the key only to move the channel to another hub, and keep the file safe. The file is written readable by you alone.',
      ),
    },
    leaveOut,
    include,
  );
  return answer === undefined ? undefined : answer === include;
}

interface ExportChoices {
  sections: string[] | undefined;
  posts: boolean | undefined;
  includePrivateKey: boolean;
  destination: string;
}

/** The three questions (sections, posts, file), and the private key when the export holds it; options answer them. */
async function askExportChoices(
  account: ChannelAccountInfo,
  options: ExportOptions | undefined,
): Promise<ExportChoices | undefined> {
  let sections = options?.sections;
  if (sections === undefined && !options) {
    const picked = await pickMany(
      CHANNEL_EXPORT_SECTIONS.map((section) => ({ label: section, picked: true })),
      {
        title: vscode.l10n.t('Export {0} (1/3)', channelName(account)),
        placeHolder: vscode.l10n.t('Sections to export'),
      },
    );
    if (!picked || picked.length === 0) return undefined;
    sections = picked.map((item) => item.label);
  }
  let posts = options?.posts;
  if (posts === undefined && !options) {
    const picked = await pickOne(
      [
        { label: vscode.l10n.t('Without posts'), posts: false },
        {
          label: vscode.l10n.t('With posts'),
          description: vscode.l10n.t('the default sections and the last three months of posts'),
          posts: true,
        },
      ],
      { title: vscode.l10n.t('Export {0} (2/3)', channelName(account)) },
    );
    if (!picked) return undefined;
    posts = picked.posts;
  }
  let includePrivateKey = options?.includePrivateKey ?? false;
  if (!options && exportHoldsPrivateKey(posts ? undefined : sections)) {
    const answer = await askAboutPrivateKey(account);
    if (answer === undefined) return undefined;
    includePrivateKey = answer;
  }
  let destination = options?.destination;
  if (destination === undefined) {
    const nickname = account.channel?.nickname || account.login.replace(/@.*/, '');
    const uri = await vscode.window.showSaveDialog({
      defaultUri: defaultSaveUri(
        safeFileName(`${nickname}-channel-${new Date().toISOString().slice(0, 10)}.json`),
      ),
      filters: { JSON: ['json'] },
      saveLabel: vscode.l10n.t('Export'),
      title: vscode.l10n.t('Export {0} (3/3)', channelName(account)),
    });
    if (!uri) return undefined;
    destination = uri.fsPath;
  }
  return { sections, posts, includePrivateKey, destination };
}

/**
 * Writes next to the target and renames: a failed or cancelled export leaves no half file. Readable
 * by the user alone: it holds the channel's data, perhaps its private key.
 */
async function writePrivately(target: string, text: string, signal: AbortSignal): Promise<void> {
  const partial = `${target}.part`;
  try {
    await writeFile(partial, text, { mode: 0o600 });
    await chmod(partial, 0o600);
    if (signal.aborted) throw new CancelledError('GET', '/channel/export/basic');
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** Reads the export (with the posts, a page at a time, where the hub leaves them out) and writes it. */
async function readAndWrite(
  client: ChannelClient,
  choices: ExportChoices,
  progress: ProgressReporter,
  signal: AbortSignal,
): Promise<{ sections: string[]; bytes: number }> {
  const { sections, posts } = choices;
  progress.report({
    increment: 5,
    message: sections?.length
      ? posts
        ? vscode.l10n.t('asking for {0} and posts…', sections.join(', '))
        : vscode.l10n.t('asking for {0}…', sections.join(', '))
      : posts
        ? vscode.l10n.t('asking for the default sections and posts…')
        : vscode.l10n.t('asking for the default sections…'),
  });
  let exported = await client.exportChannel({ sections, posts, signal });
  // Real hubs ignore `posts` here: the posts come from item/export_page, a page at a time.
  if (posts && !('item' in exported)) {
    const items: unknown[] = [];
    for await (const page of client.exportItems({ signal })) {
      items.push(...page);
      progress.report({ message: vscode.l10n.t('reading posts: {0}…', items.length) });
    }
    if (items.length > 0) exported = { ...exported, item: items };
  }
  const data = (choices.includePrivateKey ? exported : withoutPrivateKeys(exported)) as Record<
    string,
    unknown
  >;
  const text = `${JSON.stringify(data, null, 2)}\n`;
  progress.report({
    increment: 75,
    message: vscode.l10n.t('writing {0}…', formatBytes(Buffer.byteLength(text))),
  });
  await writePrivately(choices.destination, text, signal);
  progress.report({ increment: 20, message: vscode.l10n.t('done') });
  return {
    sections: Object.keys(data).filter((key) => key !== 'compatibility'),
    bytes: Buffer.byteLength(text),
  };
}

export async function exportChannel(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: ExportOptions | undefined,
): Promise<{ path: string; sections: string[]; bytes: number; privateKeyIncluded: boolean } | undefined> {
  const account = await pickChannelAccount(
    context.accounts,
    vscode.l10n.t('Export which channel?'),
    arg,
    options?.account,
  );
  if (!account) return undefined;
  const choices = await askExportChoices(account, options);
  if (!choices) return undefined;
  const target = choices.destination;
  const client = await context.accounts.client(account.id);
  const result = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Exporting {0}', channelName(account)),
      cancellable: true,
    },
    async (progress, cancellation) => {
      const controller = new AbortController();
      const subscription = cancellation.onCancellationRequested(() => controller.abort());
      try {
        return await readAndWrite(client, choices, progress, controller.signal);
      } finally {
        subscription.dispose();
      }
    },
  );
  if (!options) {
    void showInformation(
      vscode.l10n.t(
        'Exported {0} section{1} of {2} to {3}.',
        result.sections.length,
        result.sections.length === 1 ? '' : 's',
        channelName(account),
        target,
      ),
      vscode.l10n.t('Open'),
    ).then((choice) => (choice === vscode.l10n.t('Open') ? openLocalFile(target) : undefined));
  }
  return { path: target, privateKeyIncluded: choices.includePrivateKey, ...result };
}
