/** Who sees a post: the channel's default, public, privacy groups or connections, resolved and described. */
import type { ChannelClient, ItemUpdateInput, PrivacyGroup } from '../../api/channel';
import { describeAudience } from '../../domain/channel';
import type { ChannelAccountInfo } from '../../platform/channelAccounts';
import { type DraftAudience } from '../../state/channelDrafts';
import { type ChannelCommandContext } from './channelTargets';
import { type AudienceOption } from './commandArguments';
import { pickMany, pickOne } from '../../platform/userMessages';
import * as l10n from '@vscode/l10n';

/** The privacy groups and connections of a channel, to name audiences and resolve names. */
export interface Directory {
  groups: PrivacyGroup[];
  connections: { hash: string; name: string; address: string }[];
}

export async function loadDirectory(client: ChannelClient): Promise<Directory> {
  const [groups, rows] = await Promise.all([
    client.listGroups().catch(() => [] as PrivacyGroup[]),
    client.listConnections().catch(() => [] as Record<string, unknown>[]),
  ]);
  const text = (row: Record<string, unknown>, key: string): string =>
    typeof row[key] === 'string' ? row[key] : '';
  return {
    groups: groups.filter((group) => group.deleted !== true),
    connections: rows
      .filter((row) => !(row['abook_self'] === 1 || row['abook_self'] === '1' || row['abook_self'] === true))
      .map((row) => ({
        hash: text(row, 'xchan_hash') || text(row, 'abook_xchan'),
        name: text(row, 'xchan_name'),
        address: text(row, 'xchan_addr'),
      }))
      .filter((connection) => connection.hash !== ''),
  };
}

export function nameOf(directory: Directory): (hash: string) => string | undefined {
  return (hash) =>
    directory.groups.find((group) => group.hash === hash)?.gname ??
    directory.connections.find((connection) => connection.hash === hash)?.name;
}

/** Resolves `allow`/`deny` names (group name or hash; connection name, address or hash). */
export function resolveAudience(option: AudienceOption, directory: Directory): DraftAudience {
  if (option === 'default' || option === 'public') return { kind: option };
  const audience = {
    kind: 'custom' as const,
    allowGroups: [] as string[],
    allowConnections: [] as string[],
    denyGroups: [] as string[],
    denyConnections: [] as string[],
  };
  const place = (name: string, groups: string[], connections: string[]): void => {
    const wanted = name.trim().toLowerCase();
    const group = directory.groups.find(
      (each) => each.gname.toLowerCase() === wanted || each.hash.toLowerCase() === wanted,
    );
    if (group) {
      groups.push(group.hash);
      return;
    }
    const connection = directory.connections.find(
      (each) =>
        each.name.toLowerCase() === wanted ||
        each.address.toLowerCase() === wanted ||
        each.hash.toLowerCase() === wanted,
    );
    if (!connection) throw new Error(l10n.t('No privacy group or connection is called "{0}".', name));
    connections.push(connection.hash);
  };
  for (const name of option.allow ?? []) place(name, audience.allowGroups, audience.allowConnections);
  for (const name of option.deny ?? []) place(name, audience.denyGroups, audience.denyConnections);
  return audience;
}

/** The access fields of `item/update` for an audience. */
export function accessFields(audience: DraftAudience): Partial<ItemUpdateInput> {
  if (audience.kind === 'default') return {};
  if (audience.kind === 'public') return { contact_allow: [] };
  const fields: Partial<ItemUpdateInput> = {};
  if (audience.allowGroups.length > 0) fields.group_allow = audience.allowGroups;
  if (audience.allowConnections.length > 0) fields.contact_allow = audience.allowConnections;
  if (audience.denyGroups.length > 0) fields.group_deny = audience.denyGroups;
  if (audience.denyConnections.length > 0) fields.contact_deny = audience.denyConnections;
  // Nobody named on either side: that is a public post.
  return Object.keys(fields).length > 0 ? fields : { contact_allow: [] };
}

export async function describePostAudience(
  context: ChannelCommandContext,
  account: ChannelAccountInfo,
  audience: DraftAudience,
  directory: Directory,
): Promise<string> {
  const names = nameOf(directory);
  if (audience.kind === 'public') return l10n.t('everyone (public)');
  if (audience.kind === 'custom') {
    return describeAudience(
      {
        allowCid: audience.allowConnections.map((hash) => `<${hash}>`).join(''),
        allowGid: audience.allowGroups.map((hash) => `<${hash}>`).join(''),
        denyCid: audience.denyConnections.map((hash) => `<${hash}>`).join(''),
        denyGid: audience.denyGroups.map((hash) => `<${hash}>`).join(''),
      },
      names,
    );
  }
  try {
    const profile = await context.accounts.profile(account.id);
    return l10n.t("{0} (the channel's default audience)", describeAudience(profile.defaultAudience, names));
  } catch {
    return l10n.t("the channel's default audience");
  }
}

export async function askAudience(
  context: ChannelCommandContext,
  account: ChannelAccountInfo,
  directory: Directory,
  current: DraftAudience | undefined,
): Promise<DraftAudience | undefined> {
  const defaultText = await describePostAudience(context, account, { kind: 'default' }, directory);
  const picked = await pickOne(
    [
      { icon: 'globe', label: l10n.t('Everyone'), description: l10n.t('public'), choice: 'public' as const },
      {
        icon: 'home',
        label: l10n.t('Channel default'),
        description: defaultText,
        choice: 'default' as const,
      },
      {
        icon: 'lock',
        label: l10n.t('Only…'),
        description: l10n.t('privacy groups and connections you choose'),
        choice: 'only' as const,
      },
      {
        icon: 'circle-slash',
        label: l10n.t('Everyone except…'),
        description: l10n.t('hidden from the ones you choose'),
        choice: 'except' as const,
      },
    ].map((item) => ({ ...item, picked: current?.kind === item.choice })),
    {
      title: l10n.t('Post to Channel: who will see it?'),
      placeHolder: l10n.t('Audience'),
      ignoreFocusOut: true,
    },
  );
  if (!picked) return undefined;
  if (picked.choice === 'public' || picked.choice === 'default') return { kind: picked.choice };
  const entries = [
    ...directory.groups.map((group) => ({
      icon: 'organization',
      label: group.gname,
      description: l10n.t('privacy group'),
      hash: group.hash,
      group: true,
    })),
    ...directory.connections.map((connection) => ({
      icon: 'person',
      label: connection.name || connection.address,
      description: connection.address,
      hash: connection.hash,
      group: false,
    })),
  ];
  const chosen = await pickMany(entries, {
    title: picked.choice === 'only' ? l10n.t('Who may see the post?') : l10n.t('Who must not see the post?'),
    ignoreFocusOut: true,
    matchOnDescription: true,
  });
  if (!chosen || chosen.length === 0) return undefined;
  const groups = chosen.filter((entry) => entry.group).map((entry) => entry.hash);
  const connections = chosen.filter((entry) => !entry.group).map((entry) => entry.hash);
  return picked.choice === 'only'
    ? {
        kind: 'custom',
        allowGroups: groups,
        allowConnections: connections,
        denyGroups: [],
        denyConnections: [],
      }
    : {
        kind: 'custom',
        allowGroups: [],
        allowConnections: [],
        denyGroups: groups,
        denyConnections: connections,
      };
}
