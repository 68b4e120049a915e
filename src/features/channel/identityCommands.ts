/** Look up an identity (xchan) and check what a connection may do (permissions). */
import * as vscode from 'vscode';
import {
  type ChannelClient,
  ChannelReplyError,
  type PermissionAllowed,
  type Xchan,
  type XchanLookup,
} from '../../api/channel';
import { CHANNEL_PERMISSIONS, describePermission, identityQueryKinds } from '../../domain/channel';
import type { ChannelAccountInfo } from '../../platform/channelAccounts';
import { ConnectionNode, GroupMemberNode } from './directoryNodes';
import { type ChannelArgument, type LookupOptions, type PermissionOptions } from './commandArguments';
import { type ChannelCommandContext, pickChannelAccount } from './channelTargets';
import { askText, pickOne, showInformation, withProgress } from '../../platform/userMessages';

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

export async function lookupIdentity(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: LookupOptions | undefined,
): Promise<{ found: boolean; xchan?: Xchan; by?: string; document?: string } | undefined> {
  const account = await pickChannelAccount(
    context.accounts,
    vscode.l10n.t('Look up in which channel?'),
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
      title: vscode.l10n.t('Look Up Channel Identity'),
      prompt: vscode.l10n.t('Channel address (nick@host), hash or guid'),
      ignoreFocusOut: true,
      validateInput: (value) =>
        value.trim() === '' ? vscode.l10n.t('Enter an address, a hash or a guid') : undefined,
    });
    if (query === undefined) return undefined;
  }
  const client = await context.accounts.client(account.id);
  const found = await withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Looking up {0}…', query) },
    () => findIdentity(client, query, by),
  );
  if (!found) {
    const message = vscode.l10n.t(
      'No channel identity is known as "{0}" on {1}.',
      query.trim(),
      account.serverUrl,
    );
    if (options?.show !== 'none') void showInformation(message);
    return { found: false };
  }
  const { xchan } = found;
  const show = options?.show ?? 'pick';
  if (show === 'json') {
    const document = await openJson(xchan);
    return { found: true, xchan, by: found.by, document: document.uri.toString() };
  }
  if (show === 'pick' && (await pickIdentityValue(xchan)) === 'json') {
    const document = await openJson(xchan);
    return { found: true, xchan, by: found.by, document: document.uri.toString() };
  }
  return { found: true, xchan, by: found.by };
}

/** Shows the identity's fields; the one picked is copied. Answers 'json' when the user asks for every field. */
async function pickIdentityValue(xchan: Xchan): Promise<'json' | undefined> {
  const rows: { name: string; value: string }[] = [
    { name: vscode.l10n.t('Name'), value: xchan.name },
    { name: vscode.l10n.t('Address'), value: xchan.address },
    { name: vscode.l10n.t('Network'), value: xchan.network ?? '' },
    { name: vscode.l10n.t('Profile'), value: xchan.url },
    { name: vscode.l10n.t('Hash'), value: xchan.hash },
    { name: vscode.l10n.t('GUID'), value: xchan.guid ?? '' },
  ].filter((row) => row.value !== '');
  const picked = await pickOne(
    [
      ...rows.map((row) => ({ label: row.value, description: row.name, value: row.value })),
      {
        icon: 'json',
        label: vscode.l10n.t('Open as JSON'),
        description: vscode.l10n.t('every field'),
        value: undefined as string | undefined,
      },
    ],
    {
      title: vscode.l10n.t('{0} ({1})', xchan.name, xchan.address),
      placeHolder: vscode.l10n.t('Pick a value to copy it'),
    },
  );
  if (!picked) return undefined;
  if (picked.value === undefined) return 'json';
  await vscode.env.clipboard.writeText(picked.value);
  void showInformation(vscode.l10n.t('Copied the {0}: {1}', picked.description, picked.value));
  return undefined;
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
    return { target: { abookId: options.abookId }, name: vscode.l10n.t('connection {0}', options.abookId) };
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
        label: vscode.l10n.t('Someone else…'),
        description: vscode.l10n.t('by address, hash or guid'),
        abookId: NaN,
        name: '',
      },
    ],
    { placeHolder: vscode.l10n.t('Check a permission of whom?'), matchOnDescription: true },
  );
  if (!picked) return undefined;
  if (!Number.isNaN(picked.abookId)) return { target: { abookId: picked.abookId }, name: picked.name };
  const query = await askText({ prompt: vscode.l10n.t('Channel address (nick@host), hash or guid') });
  if (!query?.trim()) return undefined;
  const [kind] = identityQueryKinds(query);
  return { target: { [kind ?? 'hash']: query.trim() } as XchanLookup, name: query.trim() };
}

export async function checkPermission(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: PermissionOptions | undefined,
): Promise<{ name: string; results: { perm: string; allowed: boolean }[]; reliable: boolean } | undefined> {
  const account = await pickChannelAccount(
    context.accounts,
    vscode.l10n.t('Check a permission in which channel?'),
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
        { icon: 'list-unordered', label: vscode.l10n.t('All permissions'), description: '', perm: 'all' },
        ...CHANNEL_PERMISSIONS.map((name) => ({
          label: name,
          description: describePermission(name),
          perm: name,
        })),
      ],
      { placeHolder: vscode.l10n.t('Which permission of {0}?', who.name), matchOnDescription: true },
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
    ? undefined
    : vscode.l10n.t(
        '{0} is not one of your connections, and hubs may answer "not allowed" wrongly for such identities.',
        who.name,
      );
  if (options?.show !== false) {
    const [only] = results;
    if (results.length === 1 && only) {
      const answer = only.allowed
        ? vscode.l10n.t('{0} may {1} ({2}).', who.name, describePermission(only.perm), only.perm)
        : vscode.l10n.t('{0} may not {1} ({2}).', who.name, describePermission(only.perm), only.perm);
      void showInformation(caveat ? `${answer} ${caveat}` : answer);
    } else if (!options) {
      void pickOne(
        results.map((row) => ({
          icon: row.allowed ? 'check' : 'close',
          label: row.perm,
          description: row.allowed
            ? vscode.l10n.t('may {0}', describePermission(row.perm))
            : vscode.l10n.t('may not {0}', describePermission(row.perm)),
        })),
        {
          title: reliable
            ? vscode.l10n.t('What {0} may do', who.name)
            : vscode.l10n.t('What {0} may do (not a connection: the hub may be wrong)', who.name),
          placeHolder: vscode.l10n.t(
            '{0} of {1} allowed',
            results.filter((row) => row.allowed).length,
            results.length,
          ),
        },
      );
    }
  }
  return { name: who.name, results, reliable };
}
