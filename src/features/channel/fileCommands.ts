/** Channel files: filter the Files folder, download (chunk by chunk, resumable) and open. */
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { type ChannelClient } from '../../api/channel';
import { FILE_TYPE_CHOICES, describeFileFilter, safeFileName } from '../../domain/channel';
import { DownloadProgressTracker, formatBytes } from '../../domain/jobActions';
import type { ChannelAccountInfo } from '../../platform/channelAccounts';
import { PhotoNode } from './directoryNodes';
import { ChannelFileNode } from './fileNodes';
import { type ChannelArgument, type DownloadOptions, type FilterFilesOptions } from './commandArguments';
import {
  type ChannelCommandContext,
  channelName,
  defaultSaveUri,
  pickChannelAccount,
} from './channelTargets';
import { askText, pickOne, showInformation, withProgress } from '../../platform/userMessages';
import { openLocalFile } from '../../platform/serverLinks';

export async function filterFiles(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: FilterFilesOptions | undefined,
): Promise<{ filter: { filename?: string; filetype?: string } } | undefined> {
  const account = await pickChannelAccount(
    context.accounts,
    vscode.l10n.t('Filter the files of which channel?'),
    arg,
    options?.account,
  );
  if (!account) return undefined;
  const current = context.tree.fileFilter(account.id);
  let next: { filename?: string; filetype?: string };
  if (options) {
    next = options.clear
      ? {}
      : {
          filename: options.filename ?? current.filename,
          filetype: options.filetype ?? current.filetype,
        };
  } else {
    const choice = await pickOne(
      [
        {
          icon: 'case-sensitive',
          label: vscode.l10n.t('Name contains…'),
          description: current.filename ?? '',
          what: 'name' as const,
        },
        {
          icon: 'file-media',
          label: vscode.l10n.t('Type…'),
          description: current.filetype ?? '',
          what: 'type' as const,
        },
        { icon: 'clear-all', label: vscode.l10n.t('Show all files'), what: 'clear' as const },
      ],
      {
        title: vscode.l10n.t('Files of {0}', channelName(account)),
        placeHolder: describeFileFilter(current) || vscode.l10n.t('No filter'),
      },
    );
    if (!choice) return undefined;
    if (choice.what === 'clear') next = {};
    else if (choice.what === 'name') {
      const name = await askText({
        prompt: vscode.l10n.t('Show files whose name contains (empty: any name)'),
        value: current.filename ?? '',
      });
      if (name === undefined) return undefined;
      next = { ...current, filename: name };
    } else {
      const filetype = await askFileType();
      if (filetype === undefined) return undefined;
      next = { ...current, filetype };
    }
  }
  context.tree.setFileFilter(account.id, next);
  return { filter: context.tree.fileFilter(account.id) };
}

/** The file type to show: one of the usual ones, any, or part of a mimetype typed in. */
async function askFileType(): Promise<string | undefined> {
  const type = await pickOne(
    [
      ...FILE_TYPE_CHOICES.map((entry) => ({
        label: entry.label,
        description: entry.filetype,
        filetype: entry.filetype,
      })),
      {
        label: vscode.l10n.t('Other type…'),
        description: vscode.l10n.t('part of a mimetype'),
        filetype: undefined,
      },
      { label: vscode.l10n.t('Any type'), description: '', filetype: '' },
    ],
    { placeHolder: vscode.l10n.t('Show files of which type?') },
  );
  if (!type) return undefined;
  let filetype = type.filetype;
  if (filetype === undefined) {
    filetype = await askText({ prompt: vscode.l10n.t('Part of the mimetype, e.g. audio/ or csv') });
    if (filetype === undefined) return undefined;
  }
  return filetype;
}

/** A file to download or open: from a file or photo node, the options, or picked by name. */
interface FileTarget {
  account: ChannelAccountInfo;
  hash: string;
  filename: string;
  filesize?: number;
}

async function fileTarget(
  context: ChannelCommandContext,
  arg: unknown,
  options: { account?: string; hash?: string; filename?: string } | undefined,
): Promise<FileTarget | undefined> {
  if (arg instanceof ChannelFileNode) {
    if (arg.isDirectory) {
      void showInformation(vscode.l10n.t('{0} is a folder: download the files in it.', arg.file.filename));
      return undefined;
    }
    return {
      account: arg.account,
      hash: arg.file.hash,
      filename: arg.file.filename,
      filesize: arg.file.filesize,
    };
  }
  if (arg instanceof PhotoNode) return { account: arg.account, hash: arg.hash, filename: arg.filename };
  const account = await pickChannelAccount(
    context.accounts,
    vscode.l10n.t('Which channel?'),
    arg,
    options?.account,
  );
  if (!account) return undefined;
  if (options?.hash)
    return { account, hash: options.hash, filename: options.filename ?? options.hash.slice(0, 16) };
  const name = await askText({
    title: vscode.l10n.t('Files of {0}', channelName(account)),
    prompt: vscode.l10n.t('Part of the file name (empty: list all files)'),
  });
  if (name === undefined) return undefined;
  const client = await context.accounts.client(account.id);
  const page = await client.fetchFilesPage(
    { filename: name.trim() || undefined },
    { start: 0, records: 200 },
  );
  const files = page.items.filter((file) => file.is_dir !== true);
  if (files.length === 0) {
    void showInformation(vscode.l10n.t('No file name contains "{0}".', name));
    return undefined;
  }
  const picked = await pickOne(
    files.map((file) => ({
      label: file.filename,
      description: `${formatBytes(file.filesize)} · ${file.filetype}`,
      detail: typeof file['display_path'] === 'string' ? file['display_path'] : undefined,
      file,
    })),
    { placeHolder: vscode.l10n.t('Which file?'), matchOnDescription: true, matchOnDetail: true },
  );
  if (!picked) return undefined;
  return { account, hash: picked.file.hash, filename: picked.file.filename, filesize: picked.file.filesize };
}

/** Downloads through `filedata` in chunks with a cancellable progress notification. */
function downloadWithProgress(
  client: ChannelClient,
  target: FileTarget,
  destination: string,
  title: string,
  chunkSize?: number,
): Thenable<Awaited<ReturnType<ChannelClient['downloadFile']>>> {
  return withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, cancellation) => {
      const controller = new AbortController();
      const subscription = cancellation.onCancellationRequested(() => controller.abort());
      const tracker = new DownloadProgressTracker();
      try {
        await mkdir(dirname(destination), { recursive: true });
        return await client.downloadFile(target.hash, destination, {
          chunkSize,
          signal: controller.signal,
          onProgress: ({ receivedBytes, totalBytes }) => {
            const step = tracker.update(receivedBytes, totalBytes);
            if (step) progress.report(step);
          },
        });
      } finally {
        subscription.dispose();
      }
    },
  );
}

export async function downloadFile(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: DownloadOptions | undefined,
): Promise<{ path: string; bytes: number; chunks: number; resumedFromBytes: number } | undefined> {
  const target = await fileTarget(context, arg, options);
  if (!target) return undefined;
  let destination = options?.destination;
  if (destination === undefined) {
    const uri = await vscode.window.showSaveDialog({
      defaultUri: defaultSaveUri(safeFileName(target.filename)),
      saveLabel: vscode.l10n.t('Download'),
      title: vscode.l10n.t('Download {0}', target.filename),
    });
    if (!uri) return undefined;
    destination = uri.fsPath;
  }
  const client = await context.accounts.client(target.account.id);
  const result = await downloadWithProgress(
    client,
    target,
    destination,
    vscode.l10n.t('Downloading {0}', target.filename),
    options?.chunkSize,
  );
  if (options?.open) {
    await openLocalFile(result.path);
  } else if (!options) {
    void showInformation(
      vscode.l10n.t('Saved {0} ({1}) to {2}.', target.filename, formatBytes(result.bytes), result.path),
      vscode.l10n.t('Open'),
    ).then((choice) => (choice === vscode.l10n.t('Open') ? openLocalFile(result.path) : undefined));
  }
  return {
    path: result.path,
    bytes: result.bytes,
    chunks: result.chunks,
    resumedFromBytes: result.resumedFromBytes,
  };
}

export async function openFile(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: DownloadOptions | undefined,
): Promise<{ path: string; cached: boolean } | undefined> {
  const target = await fileTarget(context, arg, options);
  if (!target) return undefined;
  // A private cache per account and file; the name is made safe (server names are untrusted).
  const folder = join(
    context.services.context.globalStorageUri.fsPath,
    'channel-files',
    safeFileName(target.account.id),
    safeFileName(target.hash.slice(0, 32)),
  );
  const destination = join(folder, safeFileName(target.filename));
  const existing = await stat(destination).catch(() => undefined);
  let cached = false;
  if (existing && target.filesize !== undefined && existing.size === target.filesize) cached = true;
  else {
    const client = await context.accounts.client(target.account.id);
    await downloadWithProgress(client, target, destination, vscode.l10n.t('Opening {0}', target.filename));
  }
  await openLocalFile(destination);
  return { path: destination, cached };
}
