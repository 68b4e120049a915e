import { chmod, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import {
  type ChannelClient,
  ChannelReplyError,
  type PermissionAllowed,
  type Xchan,
  type XchanLookup,
} from '../../api/channel';
import { CancelledError } from '../../api/http';
import {
  CHANNEL_EXPORT_SECTIONS,
  CHANNEL_PERMISSIONS,
  FILE_TYPE_CHOICES,
  describeFileFilter,
  describePermission,
  identityQueryKinds,
  normalizeChannelUrl,
  safeFileName,
  exportHoldsPrivateKey,
  withoutPrivateKeys,
} from '../../domain/channel';
import { checkServerUrl, problemOf } from '../../domain/inputValidation';
import { DownloadProgressTracker, formatBytes } from '../../domain/jobActions';
import type { ChannelAccountInfo } from '../../platform/channelAccounts';
import { ConnectionNode, GroupMemberNode, PhotoNode } from './directoryNodes';
import { ChannelFileNode } from './fileNodes';
import {
  type AddChannelAccountOptions,
  AddAccountOptionsSchema,
  type ChannelArgument,
  ChannelArgumentSchema,
  ChannelRowSchema,
  type DownloadOptions,
  DownloadOptionsSchema,
  type ExportOptions,
  ExportOptionsSchema,
  type FilterFilesOptions,
  FilterFilesOptionsSchema,
  type LookupOptions,
  LookupOptionsSchema,
  type PermissionOptions,
  PermissionOptionsSchema,
  RemoveAccountOptionsSchema,
} from './commandArguments';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import type * as z from 'zod';
import {
  type ChannelCommandContext,
  channelName,
  defaultSaveUri,
  pickChannelAccount,
} from './channelTargets';
import { InvalidInputError, describeError, valueOrThrow } from '../../platform/commands/registerCommand';
import {
  askText,
  pickMany,
  pickOne,
  showError,
  showInformation,
  showWarning,
  withCancellableProgress,
  withProgress,
} from '../../platform/userMessages';
import {
  type AccountNetwork,
  type NetworkOptions,
  NetworkOptionsSchema,
  applyNetworkOptions,
  configureNetworkInteractively,
  confirmPlainHttp,
  isCertificateError,
  networkForNewAccount,
  offerToTrustCertificate,
} from '../../platform/network';
import { openLocalFile } from '../../platform/serverLinks';

/*
 * The channel in the editor: the channel accounts, the Channel view and its commands. Every command
 * works from its tree node (first argument) and from the palette (it asks); a trailing options
 * object answers the questions instead (tests and automation; menus never pass it):
 *   addAccount {serverUrl, login, password, label}   removeAccount {confirmed}
 *   filterFiles {filename, filetype, clear}           lookupIdentity {query, by, show}
 *   export {sections, posts, destination}             checkPermission {address|hash|guid|abookId, perm, show}
 *   downloadFile {hash, filename, destination, open}  openFile {hash, filename}
 *   post / comment / editItem: see postCommands.ts
 */

// ---- accounts ---------------------------------------------------------------------------------------

async function addAccount(
  context: ChannelCommandContext,
  options: AddChannelAccountOptions | undefined,
): Promise<{ added: boolean; accountId?: string }> {
  if (options) {
    // Checked here too: options skip the input box and its check.
    const address = normalizeChannelUrl(valueOrThrow(checkServerUrl(options.serverUrl ?? '')));
    if ('problem' in address) throw new InvalidInputError(address.problem);
    const applied = await networkForNewAccount(address.url, options, 'password');
    if ('problem' in applied) throw new InvalidInputError(applied.problem);
    const account = await context.accounts.add({
      serverUrl: address.url,
      login: options.login ?? '',
      password: options.password ?? '',
      label: options.label,
      network: applied.network,
    });
    void showInformation(`Signed in to the channel ${channelName(account)}.`);
    return { added: true, accountId: account.id };
  }
  let serverUrl = '';
  let login = '';
  for (;;) {
    const serverInput = await askText({
      title: 'Add Channel Account (1/3)',
      prompt: 'Address of the channel server (Hubzilla-compatible)',
      placeHolder: 'https://hub.example.org',
      value: serverUrl,
      ignoreFocusOut: true,
      validateInput: (value) => problemOf(checkServerUrl(value)),
    });
    if (serverInput === undefined) return { added: false };
    const checked = checkServerUrl(serverInput);
    const normalized = checked.ok ? normalizeChannelUrl(checked.value) : undefined;
    if (!normalized || 'problem' in normalized) return { added: false };
    serverUrl = normalized.url;
    const loginInput = await askText({
      title: 'Add Channel Account (2/3)',
      prompt: `Channel nickname or account email on ${serverUrl}`,
      value: login,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'Enter the nickname or the email' : undefined),
    });
    if (loginInput === undefined) return { added: false };
    login = loginInput.trim();
    const password = await askText({
      title: 'Add Channel Account (3/3)',
      prompt: `Password of ${login} on ${serverUrl} (kept in VS Code's secret storage)`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value === '' ? 'Enter the password' : undefined),
    });
    if (password === undefined) return { added: false };
    const network: AccountNetwork | undefined = await confirmPlainHttp(serverUrl, {}, 'password');
    if (!network) return { added: false };
    const added = await signInChannel(context, { serverUrl, login, password }, network);
    if (added) return { added: true, accountId: added.id };
  }
}

/**
 * Signs in with what the user typed; a certificate no one vouches for is shown to be trusted (and
 * the sign-in tried again). Undefined when it failed and the user wants to try other answers.
 */
async function signInChannel(
  context: ChannelCommandContext,
  input: { serverUrl: string; login: string; password: string },
  startNetwork: AccountNetwork,
): Promise<ChannelAccountInfo | undefined> {
  let network = startNetwork;
  for (;;) {
    try {
      const account = await withCancellableProgress(`Checking the login with ${input.serverUrl}…`, (signal) =>
        context.accounts.add({ ...input, network, signal }),
      );
      void showInformation(`Signed in to the channel ${channelName(account)}.`);
      return account;
    } catch (error) {
      if (error instanceof CancelledError) return undefined;
      if (isCertificateError(error)) {
        const outcome = await offerToTrustCertificate(input.serverUrl, network);
        if (outcome.trusted) {
          network = outcome.network;
          continue;
        }
      }
      await showError(`Channel account not added: ${describeError(error)}`, 'Try Again');
      return undefined;
    }
  }
}

/** CA file and trusted certificate of a channel account; `options` as in NetworkOptions. */
async function configureChannelNetwork(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: NetworkOptions | undefined,
): Promise<AccountNetwork | undefined> {
  const account = await pickChannelAccount(context.accounts, 'Channel account', arg);
  if (!account || account.fromEnvironment) return undefined;
  const current = account.network ?? {};
  const chosen = options
    ? await applyNetworkOptions(account.serverUrl, current, options)
    : await configureNetworkInteractively(account.label, account.serverUrl, current).then((network) =>
        network ? { network } : undefined,
      );
  if (!chosen) return undefined;
  if ('problem' in chosen) throw new InvalidInputError(chosen.problem);
  await context.accounts.updateNetwork(account.id, chosen.network);
  return chosen.network;
}

async function removeAccount(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: { confirmed?: boolean | undefined } | undefined,
): Promise<{ removed: boolean }> {
  const account = await pickChannelAccount(context.accounts, 'Channel account to remove', arg);
  if (!account) return { removed: false };
  const confirm = options?.confirmed
    ? 'Remove'
    : await showWarning(
        `Remove the channel account ${account.label}? Its password is deleted from this machine.`,
        { modal: true },
        'Remove',
      );
  if (confirm !== 'Remove') return { removed: false };
  await context.accounts.remove(account.id);
  for (const key of context.drafts.keysOf(account.id)) await context.drafts.delete(key);
  await context.itemIds.forget(account.id);
  void showInformation(`Removed the channel account ${account.label}.`);
  return { removed: true };
}

// ---- files ------------------------------------------------------------------------------------------

async function filterFiles(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: FilterFilesOptions | undefined,
): Promise<{ filter: { filename?: string; filetype?: string } } | undefined> {
  const account = await pickChannelAccount(
    context.accounts,
    'Filter the files of which channel?',
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
          label: 'Name contains…',
          description: current.filename ?? '',
          what: 'name' as const,
        },
        { icon: 'file-media', label: 'Type…', description: current.filetype ?? '', what: 'type' as const },
        { icon: 'clear-all', label: 'Show all files', what: 'clear' as const },
      ],
      { title: `Files of ${channelName(account)}`, placeHolder: describeFileFilter(current) || 'No filter' },
    );
    if (!choice) return undefined;
    if (choice.what === 'clear') next = {};
    else if (choice.what === 'name') {
      const name = await askText({
        prompt: 'Show files whose name contains (empty: any name)',
        value: current.filename ?? '',
      });
      if (name === undefined) return undefined;
      next = { ...current, filename: name };
    } else {
      const type = await pickOne(
        [
          ...FILE_TYPE_CHOICES.map((entry) => ({
            label: entry.label,
            description: entry.filetype,
            filetype: entry.filetype,
          })),
          { label: 'Other type…', description: 'part of a mimetype', filetype: undefined },
          { label: 'Any type', description: '', filetype: '' },
        ],
        { placeHolder: 'Show files of which type?' },
      );
      if (!type) return undefined;
      let filetype = type.filetype;
      if (filetype === undefined) {
        filetype = await askText({ prompt: 'Part of the mimetype, e.g. audio/ or csv' });
        if (filetype === undefined) return undefined;
      }
      next = { ...current, filetype };
    }
  }
  context.tree.setFileFilter(account.id, next);
  return { filter: context.tree.fileFilter(account.id) };
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
      void showInformation(`${arg.file.filename} is a folder: download the files in it.`);
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
  const account = await pickChannelAccount(context.accounts, 'Which channel?', arg, options?.account);
  if (!account) return undefined;
  if (options?.hash)
    return { account, hash: options.hash, filename: options.filename ?? options.hash.slice(0, 16) };
  const name = await askText({
    title: `Files of ${channelName(account)}`,
    prompt: 'Part of the file name (empty: list all files)',
  });
  if (name === undefined) return undefined;
  const client = await context.accounts.client(account.id);
  const page = await client.fetchFilesPage(
    { filename: name.trim() || undefined },
    { start: 0, records: 200 },
  );
  const files = page.items.filter((file) => file.is_dir !== true);
  if (files.length === 0) {
    void showInformation(`No file name contains "${name}".`);
    return undefined;
  }
  const picked = await pickOne(
    files.map((file) => ({
      label: file.filename,
      description: `${formatBytes(file.filesize)} · ${file.filetype}`,
      detail: typeof file['display_path'] === 'string' ? file['display_path'] : undefined,
      file,
    })),
    { placeHolder: 'Which file?', matchOnDescription: true, matchOnDetail: true },
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

async function downloadFile(
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
      saveLabel: 'Download',
      title: `Download ${target.filename}`,
    });
    if (!uri) return undefined;
    destination = uri.fsPath;
  }
  const client = await context.accounts.client(target.account.id);
  const result = await downloadWithProgress(
    client,
    target,
    destination,
    `Downloading ${target.filename}`,
    options?.chunkSize,
  );
  if (options?.open) {
    await openLocalFile(result.path);
  } else if (!options) {
    void showInformation(
      `Saved ${target.filename} (${formatBytes(result.bytes)}) to ${result.path}.`,
      'Open',
    ).then((choice) => (choice === 'Open' ? openLocalFile(result.path) : undefined));
  }
  return {
    path: result.path,
    bytes: result.bytes,
    chunks: result.chunks,
    resumedFromBytes: result.resumedFromBytes,
  };
}

async function openFile(
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
    await downloadWithProgress(client, target, destination, `Opening ${target.filename}`);
  }
  await openLocalFile(destination);
  return { path: destination, cached };
}

// ---- identities and permissions -------------------------------------------------------------------

async function openJson(value: unknown): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument({
    language: 'json',
    content: `${JSON.stringify(value, null, 2)}\n`,
  });
  await vscode.window.showTextDocument(document, { preview: true });
  return document;
}

/** Asks the server for an identity by each way of naming it that fits the text, in turn. */
async function findIdentity(
  client: ChannelClient,
  query: string,
  by: LookupOptions['by'],
): Promise<{ xchan: Xchan; by: 'address' | 'hash' | 'guid' } | undefined> {
  for (const kind of by ? [by] : identityQueryKinds(query)) {
    const lookup = { [kind]: query.trim() } as XchanLookup;
    try {
      return { xchan: await client.getXchan(lookup), by: kind };
    } catch (error) {
      if (error instanceof ChannelReplyError && ['false', 'empty', 'nothing-found'].includes(error.problem))
        continue;
      throw error;
    }
  }
  return undefined;
}

async function lookupIdentity(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: LookupOptions | undefined,
): Promise<{ found: boolean; xchan?: Xchan; by?: string; document?: string } | undefined> {
  const account = await pickChannelAccount(
    context.accounts,
    'Look up in which channel?',
    arg,
    options?.account,
  );
  if (!account) return undefined;
  let query = options?.query;
  let by = options?.by;
  if (query === undefined && (arg instanceof ConnectionNode || arg instanceof GroupMemberNode)) {
    query = arg.hash;
    by = 'hash';
  }
  if (query === undefined) {
    query = await askText({
      title: 'Look Up Channel Identity',
      prompt: 'Channel address (nick@host), hash or guid',
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'Enter an address, a hash or a guid' : undefined),
    });
    if (query === undefined) return undefined;
  }
  const client = await context.accounts.client(account.id);
  const found = await withProgress(
    { location: vscode.ProgressLocation.Window, title: `Looking up ${query}…` },
    () => findIdentity(client, query, by),
  );
  if (!found) {
    const message = `No channel identity is known as "${query.trim()}" on ${account.serverUrl}.`;
    if (options?.show !== 'none') void showInformation(message);
    return { found: false };
  }
  const { xchan } = found;
  const show = options?.show ?? 'pick';
  if (show === 'json') {
    const document = await openJson(xchan);
    return { found: true, xchan, by: found.by, document: document.uri.toString() };
  }
  if (show === 'pick') {
    const rows: { name: string; value: string }[] = [
      { name: 'Name', value: xchan.name },
      { name: 'Address', value: xchan.address },
      { name: 'Network', value: xchan.network ?? '' },
      { name: 'Profile', value: xchan.url },
      { name: 'Hash', value: xchan.hash },
      { name: 'GUID', value: xchan.guid ?? '' },
    ].filter((row) => row.value !== '');
    const picked = await pickOne(
      [
        ...rows.map((row) => ({
          label: row.value,
          description: row.name,
          value: row.value,
        })),
        {
          icon: 'json',
          label: 'Open as JSON',
          description: 'every field',
          value: undefined as string | undefined,
        },
      ],
      { title: `${xchan.name} (${xchan.address})`, placeHolder: 'Pick a value to copy it' },
    );
    if (picked?.value !== undefined) {
      await vscode.env.clipboard.writeText(picked.value);
      void showInformation(`Copied the ${picked.description.toLowerCase()}.`);
    } else if (picked) {
      const document = await openJson(xchan);
      return { found: true, xchan, by: found.by, document: document.uri.toString() };
    }
  }
  return { found: true, xchan, by: found.by };
}

type PermissionTarget = { abookId: number } | XchanLookup;

async function permissionTarget(
  context: ChannelCommandContext,
  account: ChannelAccountInfo,
  arg: unknown,
  options: PermissionOptions | undefined,
): Promise<{ target: PermissionTarget; name: string } | undefined> {
  if (arg instanceof ConnectionNode) return { target: { abookId: arg.abookId }, name: arg.name };
  if (arg instanceof GroupMemberNode) return { target: { hash: arg.hash }, name: arg.name };
  if (options?.abookId !== undefined)
    return { target: { abookId: options.abookId }, name: `connection ${options.abookId}` };
  if (options?.address) return { target: { address: options.address }, name: options.address };
  if (options?.hash) return { target: { hash: options.hash }, name: options.hash.slice(0, 12) };
  if (options?.guid) return { target: { guid: options.guid }, name: options.guid.slice(0, 12) };
  const client = await context.accounts.client(account.id);
  const rows = await client.listConnections();
  const text = (row: Record<string, unknown>, key: string): string => {
    const value = row[key];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  };
  const picked = await pickOne(
    [
      ...rows
        .filter((row) => text(row, 'abook_self') !== '1')
        .map((row) => ({
          icon: 'person',
          label: text(row, 'xchan_name') || text(row, 'xchan_addr'),
          description: text(row, 'xchan_addr'),
          abookId: Number(text(row, 'abook_id')),
          name: text(row, 'xchan_name'),
        })),
      {
        icon: 'search',
        label: 'Someone else…',
        description: 'by address, hash or guid',
        abookId: NaN,
        name: '',
      },
    ],
    { placeHolder: 'Check a permission of whom?', matchOnDescription: true },
  );
  if (!picked) return undefined;
  if (!Number.isNaN(picked.abookId)) return { target: { abookId: picked.abookId }, name: picked.name };
  const query = await askText({ prompt: 'Channel address (nick@host), hash or guid' });
  if (!query?.trim()) return undefined;
  const [kind] = identityQueryKinds(query);
  return { target: { [kind ?? 'hash']: query.trim() } as XchanLookup, name: query.trim() };
}

async function checkPermission(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: PermissionOptions | undefined,
): Promise<{ name: string; results: { perm: string; allowed: boolean }[]; reliable: boolean } | undefined> {
  const account = await pickChannelAccount(
    context.accounts,
    'Check a permission in which channel?',
    arg,
    options?.account,
  );
  if (!account) return undefined;
  const who = await permissionTarget(context, account, arg, options);
  if (!who) return undefined;
  let perm = options?.perm;
  if (perm === undefined && !options) {
    const picked = await pickOne(
      [
        { icon: 'list-unordered', label: 'All permissions', description: '', perm: 'all' },
        ...CHANNEL_PERMISSIONS.map((name) => ({
          label: name,
          description: describePermission(name),
          perm: name,
        })),
      ],
      { placeHolder: `Which permission of ${who.name}?`, matchOnDescription: true },
    );
    if (!picked) return undefined;
    perm = picked.perm;
  }
  const client = await context.accounts.client(account.id);
  // Asked by address, hash or guid, real hubs can answer "not allowed" where the same question by
  // the connection's abook_id answers "allowed": ask by the connection when there is one.
  let target = who.target;
  let reliable = true;
  if (!('abookId' in target)) {
    const abookId = await client.findConnection(target);
    if (abookId === undefined) reliable = false;
    else target = { abookId };
  }
  const reply: PermissionAllowed[] = await client.permissionsAllowed(target, {
    perm: perm === 'all' ? undefined : perm,
  });
  const results = reply.map((row) => ({ perm: row.perm, allowed: row.allowed }));
  const caveat = reliable
    ? ''
    : ` ${who.name} is not one of your connections, and hubs may answer "not allowed" wrongly for such identities.`;
  if (options?.show !== false) {
    const [only] = results;
    if (results.length === 1 && only) {
      void showInformation(
        `${who.name} ${only.allowed ? 'may' : 'may not'} ${describePermission(only.perm)} (${only.perm}).${caveat}`,
      );
    } else if (!options) {
      void pickOne(
        results.map((row) => ({
          icon: row.allowed ? 'check' : 'close',
          label: row.perm,
          description: `${row.allowed ? 'may' : 'may not'} ${describePermission(row.perm)}`,
        })),
        {
          title: `What ${who.name} may do${reliable ? '' : ' (not a connection: the hub may be wrong)'}`,
          placeHolder: `${results.filter((row) => row.allowed).length} of ${results.length} allowed`,
        },
      );
    }
  }
  return { name: who.name, results, reliable };
}

// ---- export -------------------------------------------------------------------------------------------

/** Asks, before anything is written, whether the export is to carry the channel's private key. */
async function askAboutPrivateKey(account: ChannelAccountInfo): Promise<boolean | undefined> {
  const include = 'Include the Private Key';
  const leaveOut = 'Leave the Key Out';
  const answer = await showWarning(
    `The export of ${channelName(account)} holds its private key.`,
    {
      modal: true,
      detail:
        'Anyone who has the file can then act as the channel, on every hub. Include the key only to move the channel to another hub, and keep the file safe. The file is written readable by you alone.',
    },
    leaveOut,
    include,
  );
  return answer === undefined ? undefined : answer === include;
}

async function exportChannel(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: ExportOptions | undefined,
): Promise<{ path: string; sections: string[]; bytes: number; privateKeyIncluded: boolean } | undefined> {
  const account = await pickChannelAccount(context.accounts, 'Export which channel?', arg, options?.account);
  if (!account) return undefined;
  let sections = options?.sections;
  if (sections === undefined && !options) {
    const picked = await pickMany(
      CHANNEL_EXPORT_SECTIONS.map((section) => ({ label: section, picked: true })),
      { title: `Export ${channelName(account)} (1/3)`, placeHolder: 'Sections to export' },
    );
    if (!picked || picked.length === 0) return undefined;
    sections = picked.map((item) => item.label);
  }
  let posts = options?.posts;
  if (posts === undefined && !options) {
    const picked = await pickOne(
      [
        { label: 'Without posts', posts: false },
        {
          label: 'With posts',
          description: 'the default sections and the last three months of posts',
          posts: true,
        },
      ],
      { title: `Export ${channelName(account)} (2/3)` },
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
      saveLabel: 'Export',
      title: `Export ${channelName(account)} (3/3)`,
    });
    if (!uri) return undefined;
    destination = uri.fsPath;
  }
  const target = destination;
  const client = await context.accounts.client(account.id);
  const result = await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Exporting ${channelName(account)}`,
      cancellable: true,
    },
    async (progress, cancellation) => {
      const controller = new AbortController();
      const subscription = cancellation.onCancellationRequested(() => controller.abort());
      try {
        progress.report({
          increment: 5,
          message: `asking for ${sections?.join(', ') || 'the default sections'}${posts ? ' and posts' : ''}…`,
        });
        let exported = await client.exportChannel({ sections, posts, signal: controller.signal });
        // Real hubs ignore `posts` here: the posts come from item/export_page, a page at a time.
        if (posts && !('item' in exported)) {
          const items: unknown[] = [];
          for await (const page of client.exportItems({ signal: controller.signal })) {
            items.push(...page);
            progress.report({ message: `reading posts: ${items.length}…` });
          }
          if (items.length > 0) exported = { ...exported, item: items };
        }
        const data = (includePrivateKey ? exported : withoutPrivateKeys(exported)) as Record<string, unknown>;
        const text = `${JSON.stringify(data, null, 2)}\n`;
        progress.report({ increment: 75, message: `writing ${formatBytes(Buffer.byteLength(text))}…` });
        // Written next to the target and renamed: a failed export leaves no half file.
        const partial = `${target}.part`;
        try {
          // Readable by the user alone: it holds the channel's data, perhaps its private key.
          await writeFile(partial, text, { mode: 0o600 });
          await chmod(partial, 0o600);
          if (controller.signal.aborted) throw new CancelledError('GET', '/channel/export/basic');
          await rename(partial, target);
        } catch (error) {
          await rm(partial, { force: true });
          throw error;
        }
        progress.report({ increment: 20, message: 'done' });
        return {
          sections: Object.keys(data).filter((key) => key !== 'compatibility'),
          bytes: Buffer.byteLength(text),
        };
      } finally {
        subscription.dispose();
      }
    },
  );
  if (!options) {
    void showInformation(
      `Exported ${result.sections.length} section${result.sections.length === 1 ? '' : 's'} of ${channelName(account)} to ${target}.`,
      'Open',
    ).then((choice) => (choice === 'Open' ? openLocalFile(target) : undefined));
  }
  return { path: target, privateKeyIncluded: includePrivateKey, ...result };
}

// ---- registration -----------------------------------------------------------------------------------

/** Every `forge.channel.*` command but posting (see postCommands.ts). */
export function channelCommands(context: ChannelCommandContext): CommandDeclaration[] {
  const { tree } = context;
  const withOptions = <Options extends z.ZodType>(
    id: string,
    options: Options,
    run: (arg: ChannelArgument, options: z.output<Options> | undefined) => unknown,
  ): CommandDeclaration =>
    defineCommand({
      id,
      args: [ChannelArgumentSchema, options.optional()],
      run: (arg, given) => run(arg, given),
    });
  return [
    defineCommand({
      id: 'forge.channel.addAccount',
      args: [AddAccountOptionsSchema.optional()],
      run: (options) => addAccount(context, options),
    }),
    withOptions('forge.channel.removeAccount', RemoveAccountOptionsSchema, (arg, options) =>
      removeAccount(context, arg, options),
    ),
    withOptions('forge.channel.configureNetwork', NetworkOptionsSchema, (arg, options) =>
      configureChannelNetwork(context, arg, options),
    ),
    defineCommand({
      id: 'forge.channel.refresh',
      args: [ChannelRowSchema.optional()],
      run: (node) =>
        withProgress({ location: { viewId: 'forge.channel' } }, async () => {
          tree.refresh(node);
          await tree.getChildren(node);
        }),
    }),
    withOptions('forge.channel.filterFiles', FilterFilesOptionsSchema, (arg, options) =>
      filterFiles(context, arg, options),
    ),
    withOptions('forge.channel.downloadFile', DownloadOptionsSchema, (arg, options) =>
      downloadFile(context, arg, options),
    ),
    withOptions('forge.channel.openFile', DownloadOptionsSchema, (arg, options) =>
      openFile(context, arg, options),
    ),
    withOptions('forge.channel.lookupIdentity', LookupOptionsSchema, (arg, options) =>
      lookupIdentity(context, arg, options),
    ),
    withOptions('forge.channel.checkPermission', PermissionOptionsSchema, (arg, options) =>
      checkPermission(context, arg, options),
    ),
    withOptions('forge.channel.export', ExportOptionsSchema, (arg, options) =>
      exportChannel(context, arg, options),
    ),
  ];
}
