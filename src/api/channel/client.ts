import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import * as z from 'zod';
import { HttpTransport, type QueryScalar, parseReply } from '../http';
import { loadUndici } from '../http/undici';
import { CHANNEL_API_PREFIX, channelEndpointLabel } from './endpoints';
import { ChannelReplyError } from './errors';
import {
  type Album,
  AlbumsReplySchema,
  type GroupMember,
  GroupMembersReplySchema,
  ItemFullReplySchema,
  ItemUpdateReplySchema,
  type PermissionAllowed,
  PermissionAllowedSchema,
  PhotoReplySchema,
  PhotosReplySchema,
  type PrivacyGroup,
  PrivacyGroupsReplySchema,
  type StreamItem,
  type Xchan,
  XchanSchema,
} from './schemas';
import {
  type ChannelCallOptions,
  type ChannelClientOptions,
  formatChannelDate,
  type XchanLookup,
  type GroupRef,
  type ItemRef,
  type ItemMedia,
  type ItemUpdateInput,
  type ItemUpdateResult,
} from './channelTypes';
import { type RequestSpec, decodeBase64 } from './channelCore';
import { ChannelFileEndpoints } from './channelFileEndpoints';
import * as l10n from '@vscode/l10n';

export * from './channelTypes';
export { FileListRequest } from './channelFileEndpoints';
export { NETWORK_THREADS_PER_PAGE } from './channelCore';

/**
 * The channel API (`/api/z/1.0`, Hubzilla-compatible). One method per endpoint of the spec; paths
 * come from `endpoints.ts`. Channel servers report most errors as a 200 with an empty body, `false`
 * or `{success: false}`: every method turns those into a `ChannelReplyError` naming the endpoint.
 */
export class ChannelClient extends ChannelFileEndpoints {
  static create(options: ChannelClientOptions): ChannelClient {
    const { login, password, ...rest } = options;
    const transport = new HttpTransport({
      ...rest,
      apiPrefix: CHANNEL_API_PREFIX,
      credentials: { kind: 'basic', username: login, password },
    });
    return new ChannelClient(transport, login, password);
  }

  // ---- photos -----------------------------------------------------------------------------------

  async listAlbums(options: ChannelCallOptions = {}): Promise<Album[]> {
    const reply = await this.call('albums.list', AlbumsReplySchema, {
      signal: options.signal,
      emptyMeans: l10n.t('the albums could not be listed'),
    });
    return reply.albums;
  }

  /** `photos`: photo metadata, one entry per image scale; `album` narrows it to one album. */
  async listPhotos(
    options: ChannelCallOptions & { album?: string } = {},
  ): Promise<Record<string, unknown>[]> {
    const reply = await this.call('photos.list', PhotosReplySchema, {
      query: { album: options.album },
      signal: options.signal,
      emptyMeans: l10n.t('the photos could not be listed'),
      allowUnsuccessful: true,
    });
    // An unknown album is an empty success on real hubs (a channel without photos says success: false).
    if (options.album !== undefined && reply.success === true && (reply.photos ?? []).length === 0) {
      throw this.notFound('photos.list', l10n.t('no album "{0}"', options.album));
    }
    return reply.photos ?? [];
  }

  /** `photo`: one scale of a photo (0 is the original) with its bytes, and the items about it. */
  async getPhoto(
    photoId: string,
    options: ChannelCallOptions & { scale?: number } = {},
  ): Promise<{ reply: unknown; bytes: Buffer }> {
    const reply = await this.request('photos.get', {
      query: { photo_id: photoId, scale: options.scale },
      signal: options.signal,
      emptyMeans:
        options.scale === undefined
          ? l10n.t('no photo "{0}"', photoId)
          : l10n.t('no photo "{0}" at scale {1}', photoId, options.scale),
    });
    const parsed = parseReply(PhotoReplySchema, reply, channelEndpointLabel('photos.get'));
    return {
      reply,
      bytes: decodeBase64(parsed.photo.content, l10n.t('{0} content', channelEndpointLabel('photos.get'))),
    };
  }

  // ---- privacy groups and connections -----------------------------------------------------------

  listGroups(options: ChannelCallOptions = {}): Promise<PrivacyGroup[]> {
    return this.call('groups.list', PrivacyGroupsReplySchema, {
      signal: options.signal,
      emptyMeans: l10n.t('the privacy groups could not be listed'),
    });
  }

  listGroupMembers(group: GroupRef, options: ChannelCallOptions = {}): Promise<GroupMember[]> {
    const query = 'id' in group ? { group_id: group.id } : { group_name: group.name };
    const which = 'id' in group ? l10n.t('id {0}', group.id) : `"${group.name}"`;
    return this.call('groups.members', GroupMembersReplySchema, {
      query,
      signal: options.signal,
      emptyMeans: l10n.t('no privacy group {0}', which),
    });
  }

  /** `xchan`: a channel identity by exactly one of address, hash or guid. */
  async getXchan(lookup: XchanLookup, options: ChannelCallOptions = {}): Promise<Xchan> {
    const keys = Object.keys(lookup).filter((key) => ['address', 'hash', 'guid'].includes(key));
    if (keys.length !== 1)
      throw new RangeError(l10n.t('getXchan needs exactly one of address, hash or guid'));
    const [key] = keys as ['address' | 'hash' | 'guid'];
    const value = (lookup as Record<string, string>)[key] ?? '';
    return await this.call('xchan.get', XchanSchema, {
      query: { [key]: value },
      signal: options.signal,
      emptyMeans: l10n.t('no channel identity with the {0} "{1}"', key, value),
    });
  }

  /** `abook`: the channel's connections (address-book rows joined with their identities). */
  async listConnections(
    options: ChannelCallOptions & { abookId?: number } = {},
  ): Promise<Record<string, unknown>[]> {
    const rows = await this.records('abook.list', {
      query: { abook_id: options.abookId },
      signal: options.signal,
      emptyMeans: l10n.t('the connections could not be listed'),
    });
    // An unknown `abook_id` is an empty success on real hubs.
    if (options.abookId !== undefined && rows.length === 0) {
      throw this.notFound('abook.list', l10n.t('no connection {0}', options.abookId));
    }
    return rows;
  }

  /**
   * The connection (`abook_id`) an address, hash or guid belongs to, looked up in the channel's
   * address book; undefined when that identity is not a connection.
   */
  async findConnection(lookup: XchanLookup, options: ChannelCallOptions = {}): Promise<number | undefined> {
    const rows = await this.listConnections(options);
    const [field, wanted] =
      'address' in lookup
        ? ['xchan_addr', lookup.address.toLowerCase()]
        : 'hash' in lookup
          ? ['xchan_hash', lookup.hash]
          : ['xchan_guid', lookup.guid];
    const row = rows.find((candidate) => {
      const value = candidate[field];
      return typeof value === 'string' && (field === 'xchan_addr' ? value.toLowerCase() : value) === wanted;
    });
    const id = row === undefined ? undefined : Number(row['abook_id']);
    return id !== undefined && Number.isSafeInteger(id) && id > 0 ? id : undefined;
  }

  /** `abconfig`: connection settings such as permissions; values are strings like "1". */
  listConnectionConfig(
    options: ChannelCallOptions & { abookId?: number } = {},
  ): Promise<Record<string, unknown>[]> {
    return this.records('abconfig.list', {
      query: { abook_id: options.abookId },
      signal: options.signal,
      emptyMeans: l10n.t('the connection settings could not be read'),
    });
  }

  /**
   * `perm_allowed`: whether a connection (by `abookId`) or identity has `perm`, or every
   * permission when `perm` is left out.
   */
  async permissionsAllowed(
    target: { abookId: number } | XchanLookup,
    options: ChannelCallOptions & { perm?: string } = {},
  ): Promise<PermissionAllowed[]> {
    const query: Record<string, QueryScalar | undefined> = { perm: options.perm };
    if ('abookId' in target) query['abook_id'] = target.abookId;
    else Object.assign(query, target);
    return this.call('permissions.allowed', z.array(PermissionAllowedSchema), {
      query,
      signal: options.signal,
      emptyMeans: l10n.t('no such connection or identity'),
    });
  }

  // ---- items ------------------------------------------------------------------------------------

  /**
   * `item/update`: creates an item, or edits the one `post_id` names. Sent as a form, multipart
   * when `media` is attached. Never retried: the server may have created the item.
   */
  async updateItem(input: ItemUpdateInput, options: ChannelCallOptions = {}): Promise<ItemUpdateResult> {
    const fields = itemFields(input);
    const spec: RequestSpec = {
      signal: options.signal,
      emptyMeans:
        input.post_id === undefined
          ? l10n.t('the item was not created')
          : l10n.t('item {0} was not updated', input.post_id),
    };
    if (input.media === undefined) {
      const form: Record<string, string | string[]> = {};
      for (const [key, value] of fields) {
        const existing = form[key];
        if (existing === undefined) form[key] = key.endsWith('[]') ? [value] : value;
        else if (Array.isArray(existing)) existing.push(value);
        else form[key] = [existing, value];
      }
      spec.form = form;
    } else {
      const { FormData } = await loadUndici();
      const body = new FormData();
      for (const [key, value] of fields) body.append(key, value);
      const media = await mediaPart(input.media);
      // A copy in a plain ArrayBuffer: what Blob takes (the caller's bytes may sit in a shared buffer).
      const bytes = new Uint8Array(media.data.byteLength);
      bytes.set(media.data);
      body.append('media', new Blob([bytes], { type: media.contentType }), media.filename);
      spec.multipart = body;
    }
    let reply;
    try {
      reply = await this.call('items.update', ItemUpdateReplySchema, { ...spec });
    } catch (error) {
      // Hubs refuse a body posted in the last couple of minutes and say only "operation cancelled".
      if (
        error instanceof ChannelReplyError &&
        error.problem === 'refused' &&
        /operation cancelled/i.test(error.detail)
      ) {
        throw new ChannelReplyError(
          error.endpoint,
          'duplicate',
          l10n.t(
            'the hub suppressed this post as a duplicate of one posted in the last couple of minutes (it answered "operation cancelled"); change the text, or wait a few minutes',
          ),
          { cause: error },
        );
      }
      throw error;
    }
    return { itemId: reply.item_id, item: reply.item };
  }

  /** `item/full`: every item of the thread `mid` or `itemId` names, with their ids. */
  async getItem(
    ref: ItemRef,
    options: ChannelCallOptions = {},
  ): Promise<{ reply: unknown; items: StreamItem[] }> {
    const query = 'mid' in ref ? { mid: ref.mid } : { item_id: ref.itemId };
    const which = 'mid' in ref ? l10n.t('message {0}', ref.mid) : l10n.t('item {0}', ref.itemId);
    const label = channelEndpointLabel('items.full');
    const reply = await this.request('items.full', {
      query,
      signal: options.signal,
      emptyMeans: l10n.t('no {0}', which),
    });
    if (Array.isArray(reply) && reply.length === 0) {
      throw new ChannelReplyError(
        label,
        'nothing-found',
        l10n.t('the server answered `[]`: no {0} visible to this channel', which),
      );
    }
    return { reply, items: parseReply(ItemFullReplySchema, reply, label).item };
  }
}

/** The form fields of `item/update`, in a stable order, arrays as `name[]`. */
export function itemFields(input: ItemUpdateInput): [string, string][] {
  const fields: [string, string][] = [['body', input.body]];
  const add = (key: string, value: string | number | boolean | Date | undefined): void => {
    if (value === undefined) return;
    if (typeof value === 'boolean') fields.push([key, value ? '1' : '0']);
    else if (value instanceof Date) fields.push([key, formatChannelDate(value)]);
    else fields.push([key, String(value)]);
  };
  const addList = (key: string, values: readonly string[] | undefined): void => {
    if (values === undefined) return;
    // An empty list must still reach the server: its presence is what overrides the default audience.
    if (values.length === 0) fields.push([key, '']);
    for (const value of values) fields.push([`${key}[]`, value]);
  };
  add('title', input.title);
  addList('contact_allow', input.contact_allow);
  addList('contact_deny', input.contact_deny);
  addList('group_allow', input.group_allow);
  addList('group_deny', input.group_deny);
  add('coord', input.coord);
  add('location', input.location);
  add('expire', input.expire);
  add('mimetype', input.mimetype);
  add('parent', input.parent);
  add('parent_mid', input.parent_mid);
  add('remote_xchan', input.remote_xchan);
  add('consensus', input.consensus);
  add('nocomment', input.nocomment);
  add('origin', input.origin);
  add('namespace', input.namespace);
  add('remote_id', input.remote_id);
  add('message_id', input.message_id);
  add('created', input.created);
  add('post_id', input.post_id);
  add('app', input.app);
  add('category', typeof input.category === 'string' ? input.category : input.category?.join(','));
  add('webpage', input.webpage);
  add('pagetitle', input.pagetitle);
  add('layout_mid', input.layout_mid);
  add('plink', input.plink);
  add('verb', input.verb);
  add('obj_type', input.obj_type);
  return fields;
}

interface MediaPart {
  filename: string;
  contentType: string;
  data: Uint8Array;
}

async function mediaPart(media: ItemMedia): Promise<MediaPart> {
  const contentType = media.contentType ?? 'application/octet-stream';
  if ('data' in media) return { filename: media.filename, contentType, data: media.data };
  return { filename: media.filename ?? basename(media.path), contentType, data: await readFile(media.path) };
}
