import type { Prng } from '../prng';
import { createHash } from 'node:crypto';
import type { ApiResponse } from '../http';
import { ChannelPresenter, type Row } from './present';
import type { ChannelParams } from './request';
import {
  type Acl,
  aclText,
  type ChannelState,
  formatDate,
  HUB_HOST,
  PERMISSIONS,
  PUBLIC_ACL,
  type ServedRequest,
  type StoredFile,
  type StoredItem,
} from './state';

/*
 * The routes of the fake channel server, one per endpoint of spec/channel-api-z1.md, answering the way the
 * real servers do: the method is not checked, and application errors are a 200 with an empty body, `false`,
 * `[]` or `{"success": false, ...}`.
 */

export interface ChannelReply {
  response: ApiResponse;
  outcome: ServedRequest['outcome'];
}

export interface ChannelContext {
  state: ChannelState;
  params: ChannelParams;
  present: ChannelPresenter;
  method: string;
}

export type ChannelHandler = (ctx: ChannelContext) => ChannelReply;

const ok = (json: unknown): ChannelReply => ({ response: { status: 200, json }, outcome: 'ok' });

/** What PHP sends when a handler returns false or dies without output. */
const emptyBody = (contentType = 'text/html; charset=utf-8'): ChannelReply => ({
  response: { status: 200, body: '', contentType },
  outcome: 'empty',
});
const falseBody = (): ChannelReply => ({ response: { status: 200, json: false }, outcome: 'false' });
const emptyList = (): ChannelReply => ({ response: { status: 200, json: [] }, outcome: 'empty-list' });
const unsuccessful = (message?: string): ChannelReply => ({
  response: { status: 200, json: message === undefined ? { success: false } : { success: false, message } },
  outcome: 'unsuccessful',
});

/** Stand-ins for the PEM keys a real export carries (not keys at all). */
export const FAKE_PRIVATE_KEY =
  '-----BEGIN PRIVATE KEY-----\nZmFrZSBjaGFubmVsIHByaXZhdGUga2V5\n-----END PRIVATE KEY-----\n';
const FAKE_PUBLIC_KEY =
  '-----BEGIN PUBLIC KEY-----\nZmFrZSBjaGFubmVsIHB1YmxpYyBrZXk=\n-----END PUBLIC KEY-----\n';

/** Sections of `channel/export/basic` when none are asked for. */
const DEFAULT_SECTIONS = [
  'channel',
  'connections',
  'config',
  'apps',
  'chatrooms',
  'events',
  'webpages',
  'mail',
  'wikis',
];

function fileByPrefix(state: ChannelState, prefix: string): StoredFile | undefined {
  return [...state.files].sort((a, b) => a.id - b.id).find((file) => file.hash.startsWith(prefix));
}

/**
 * Sorted by a one-second time column, the way a hub's SQL without a tiebreaker returns rows: rows
 * of the same second in an order drawn anew for every request.
 */
function orderedWithLooseTies(
  rows: readonly StoredItem[],
  key: (row: StoredItem) => string,
  direction: 'ascending' | 'descending',
  random: Prng,
): StoredItem[] {
  const drawn = new Map(rows.map((row) => [row, random.next()]));
  return [...rows].sort((a, b) => {
    const byTime = key(a).localeCompare(key(b));
    if (byTime !== 0) return direction === 'ascending' ? byTime : -byTime;
    return (drawn.get(a) ?? 0) - (drawn.get(b) ?? 0);
  });
}

function threadItems(ctx: ChannelContext, tops: readonly StoredItem[]): Row[] {
  return tops.flatMap((top) => ctx.state.thread(top).map((item) => ctx.present.encodedItem(item)));
}

/** PHP's urlencode: spaces as `+`. */
function phpUrlencode(text: string): string {
  return encodeURIComponent(text)
    .replace(/%20/g, '+')
    .replace(/[!'()*~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

// ---- channel ---------------------------------------------------------------------------------------

function exportBasic(ctx: ChannelContext): ChannelReply {
  const { state, params, present } = ctx;
  // Real hubs (8.8.7) ignore `posts`: the reply never has an `item` key (posts come from item/export_page).
  const sections = params.truthy('sections')
    ? params
        .text('sections')
        .split(',')
        .map((section) => section.trim())
    : DEFAULT_SECTIONS;
  const out: Row = {
    compatibility: { project: 'hubzilla', version: '8.8', database: 'postgres', server_role: 'pro' },
  };
  const channel = state.channel;
  for (const section of sections) {
    switch (section) {
      case 'channel':
        out['channel'] = present.row({
          channel_id: channel.uid,
          channel_account_id: state.account.id,
          channel_name: channel.name,
          channel_address: channel.nickname,
          channel_hash: channel.hash,
          channel_guid: channel.guid,
          channel_timezone: 'UTC',
          channel_allow_cid: channel.defaultAcl.allowCid,
          channel_allow_gid: channel.defaultAcl.allowGid,
          channel_deny_cid: channel.defaultAcl.denyCid,
          channel_deny_gid: channel.defaultAcl.denyGid,
          // Real hubs export the channel's keys: the private one lets an import act as the channel.
          channel_pubkey: FAKE_PUBLIC_KEY,
          channel_prvkey: FAKE_PRIVATE_KEY,
        });
        out['profile'] = [
          present.row({
            id: 1,
            uid: channel.uid,
            profile_name: 'default',
            fullname: channel.name,
            is_default: 1,
          }),
        ];
        break;
      case 'connections':
        out['abook'] = state.abook.map((abook) => present.abookRow(abook));
        out['xchan'] = state.abook.flatMap((abook) => {
          const xchan = state.xchans.get(abook.xchan);
          return xchan ? [present.xchanRow(xchan, 'xchan_')] : [];
        });
        out['hubloc'] = [
          present.row({
            hubloc_id: 1,
            hubloc_guid: channel.guid,
            hubloc_hash: channel.hash,
            hubloc_addr: state.ownAddress,
            hubloc_host: HUB_HOST,
            hubloc_url: present.origin,
            hubloc_primary: 1,
          }),
        ];
        out['group'] = state.groups.map((group) => groupRow(ctx, group.id));
        out['group_member'] = state.groupMembers.map((member) =>
          present.row({ id: member.id, uid: channel.uid, gid: member.gid, xchan: member.xchan }),
        );
        break;
      case 'config':
        if (state.config.length > 0) {
          out['config'] = state.config.map((row) =>
            present.row({ id: row.id, uid: channel.uid, cat: row.cat, k: row.k, v: row.v }),
          );
        }
        break;
      case 'events':
        if (state.events.length > 0) {
          out['event'] = state.events.map((event) =>
            present.row({
              id: event.id,
              uid: channel.uid,
              event_hash: event.hash,
              summary: event.summary,
              dtstart: event.dtstart,
              dtend: event.dtend,
              location: event.location,
            }),
          );
        }
        break;
      case 'webpages': {
        const pages = state.items.filter((item) => item.itemType !== 0 && item.itemDeleted === 0);
        if (pages.length > 0) out['webpages'] = pages.map((item) => present.encodedItem(item));
        break;
      }
      // apps, chatrooms, mail, wikis: nothing seeded, and empty sections are left out entirely.
      default:
        break;
    }
  }
  return ok(out);
}

/**
 * `item/export_page` (beyond the spec, as real hubs have it): the channel's items created between
 * `since` and `until`, oldest first, `records` (default 50) a page, `page` counted from 0. Past the
 * end the reply has no `item` key.
 */
function itemExportPage(ctx: ChannelContext): ChannelReply {
  const { state, params, present } = ctx;
  const records = params.int('records') > 0 ? params.int('records') : 50;
  const page = Math.max(0, params.int('page'));
  const since = params.text('since') || '0001-01-01 00:00:00';
  const until = params.text('until') || state.peekNow();
  const items = state.items
    .filter(
      (item) =>
        item.itemDeleted === 0 &&
        item.ownerXchan === state.channel.hash &&
        item.created >= since &&
        item.created <= until,
    )
    .sort((a, b) => a.created.localeCompare(b.created) || a.id - b.id)
    .slice(page * records, (page + 1) * records);
  const out: Row = { compatibility: { project: 'hubzilla', version: '8.8', database: 'postgres' } };
  if (items.length > 0) out['item'] = items.map((item) => present.encodedItem(item));
  return ok(out);
}

/** The channel's own conversations created after `mindate`, oldest first, up to a limit of threads. */
function channelStream(ctx: ChannelContext): ChannelReply {
  const { state, params } = ctx;
  // Without `mindate` the server answers the last 14 days only.
  const mindate =
    params.text('mindate') ||
    formatDate(Date.parse(`${state.peekNow().replace(' ', 'T')}Z`) - 14 * 86_400_000);
  // Strictly after `mindate`, to the second; oldest first, ties in no fixed order; capped.
  const tops = orderedWithLooseTies(
    state
      .threadTops()
      .filter((top) => top.itemWall === 1 && top.ownerXchan === state.channel.hash && top.created > mindate),
    (top) => top.created,
    'ascending',
    state.tieOrder,
  ).slice(0, state.channelStreamLimit);
  return ok(threadItems(ctx, tops));
}

/** Every conversation of the channel, latest activity first, paged by thread. */
function networkStream(ctx: ChannelContext): ChannelReply {
  const { state, params } = ctx;
  const dbegin = params.text('dbegin');
  const dend = params.text('dend');
  // Latest activity first by a one-second column, paged with LIMIT/OFFSET: ties move between pages.
  const tops = orderedWithLooseTies(
    state
      .threadTops()
      .filter((top) => (dbegin === '' || top.created >= dbegin) && (dend === '' || top.created <= dend)),
    (top) => top.commented,
    'descending',
    state.tieOrder,
  );
  let start = 0;
  let records = state.networkThreadsPerPage;
  if (params.has('records')) {
    start = Math.max(0, params.int('start'));
    records = params.int('records');
  } else if (params.has('page')) {
    start = (Math.max(1, params.int('page')) - 1) * state.networkThreadsPerPage;
  }
  const page = records > 0 ? tops.slice(start, start + records) : tops.slice(start);
  return ok(threadItems(ctx, page));
}

// ---- files -------------------------------------------------------------------------------------------

function listFiles(ctx: ChannelContext): ChannelReply {
  const { state, params, present } = ctx;
  const hash = params.text('filehash');
  const filename = params.text('filename').toLowerCase();
  const filetype = params.text('filetype').toLowerCase();
  let files = state.files
    .filter(
      (file) =>
        (hash === '' || file.hash === hash) &&
        (filename === '' || file.filename.toLowerCase().includes(filename)) &&
        (filetype === '' || file.filetype.toLowerCase().includes(filetype)),
    )
    .sort((a, b) => a.created.localeCompare(b.created) || a.id - b.id);
  const records = params.int('records');
  // `start` counts only together with `records`.
  const start = records > 0 ? Math.max(0, params.int('start')) : 0;
  if (records > 0) files = files.slice(start, start + records);
  const reply: Row = { success: true, results: files.map((file) => present.fileRow(file)) };
  if (params.truthy('start') || records > 0) {
    // PHP integers: JSON numbers even on servers that send columns as strings.
    reply['start'] = params.int('start');
    reply['records'] = files.length;
  }
  return ok(reply);
}

function fileData(ctx: ChannelContext): ChannelReply {
  const { state, params, present } = ctx;
  const fileId = params.text('file_id');
  if (!fileId) return emptyBody();
  const file = fileByPrefix(state, fileId);
  if (!file) return emptyBody('application/json');
  const attach: Row = { ...present.attachRow(file), content: '' };
  if (file.isDir === 0) {
    const start = params.int('start');
    const length = params.int('length') || file.filesize;
    const chunk = file.content.subarray(start, start + length);
    attach['content'] = wrapLines(chunk.toString('base64'), state.base64LineLength);
    attach['start'] = start;
    attach['length'] = chunk.length;
  }
  return ok({ attach });
}

function fileMeta(ctx: ChannelContext): ChannelReply {
  const file = ctx.state.findFile(ctx.params.text('file_id'));
  if (!file) return emptyBody('application/json');
  return ok({ attach: ctx.present.attachRow(file) });
}

/** A path on the server where the bytes are, not the bytes. */
function fileExport(ctx: ChannelContext): ChannelReply {
  const { state, present } = ctx;
  const file = state.findFile(ctx.params.text('file_id'));
  // Real hubs answer an unknown hash with an empty success, not an error.
  if (!file) return ok({ attach: [] });
  const path = `store/${state.channel.nickname}/${file.hash}`;
  const reply: Row = { attach: [{ ...present.attachRow(file), content: file.isDir ? '' : path }] };
  const photos = state.photos.filter((photo) => photo.resourceId === file.hash);
  if (photos.length > 0) {
    reply['photo'] = photos.map((photo) => ({
      ...present.photoRow(photo),
      content: `${path}-${photo.scale}`,
    }));
  }
  return ok(reply);
}

function fileDetail(ctx: ChannelContext): ChannelReply {
  const file = ctx.state.findFile(ctx.params.text('file_id'));
  if (!file) return emptyBody('application/json');
  return ok({
    attach: { ...ctx.present.attachRow(file), content: file.isDir ? '' : file.content.toString('base64') },
  });
}

// ---- photos --------------------------------------------------------------------------------------------

function albums(ctx: ChannelContext): ChannelReply {
  const { state, present } = ctx;
  const byAlbum = new Map<string, Set<string>>();
  for (const photo of state.photos) {
    const set = byAlbum.get(photo.album) ?? new Set<string>();
    set.add(photo.resourceId);
    byAlbum.set(photo.album, set);
  }
  const list = [...byAlbum.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([album, ids]) => {
      const hex = Buffer.from(album, 'utf8').toString('hex');
      return present.row({
        text: album === '' ? '/' : album,
        shorttext: album === '' ? '/' : album.slice(0, 32),
        jstext: album,
        total: ids.size,
        url: `${present.origin}/photos/${state.channel.nickname}/album/${hex}`,
        urlencode: phpUrlencode(album),
        bin2hex: hex,
      });
    });
  return ok({ success: true, albums: list });
}

function photos(ctx: ChannelContext): ChannelReply {
  const { state, params, present } = ctx;
  const album = params.has('album') ? params.text('album') : undefined;
  const rows = state.photos
    .filter((photo) => album === undefined || photo.album === album)
    .map((photo) => ({
      ...present.photoRow(photo),
      src: `${present.origin}/photo/${photo.resourceId}-${photo.scale}`,
    }));
  // An unknown album is an empty success on real hubs; a channel without any photo answers {"success": false}.
  if (album !== undefined && !state.photos.some((photo) => photo.album === album)) {
    return ok({ success: true, photos: [] });
  }
  if (rows.length === 0) return unsuccessful();
  return ok({ success: true, photos: rows });
}

function photoDetail(ctx: ChannelContext): ChannelReply {
  const { state, params, present } = ctx;
  const photoId = params.text('photo_id');
  if (!photoId) return emptyBody();
  const scale = params.int('scale');
  const photo = state.photos.find((each) => each.resourceId === photoId && each.scale === scale);
  if (!photo) return emptyBody('application/json');
  return ok({
    photo: {
      ...present.photoRow(photo),
      ...present.row({
        id: photo.id,
        aid: state.account.id,
        uid: state.channel.uid,
        os_storage: 1,
        is_nsfw: 0,
      }),
      xchan: state.channel.hash,
      os_path: `${state.channel.nickname}/${photo.resourceId}-${photo.scale}`,
      display_path: `Photos/${photo.filename}`,
      content: photo.content.toString('base64'),
    },
  });
}

// ---- groups and connections --------------------------------------------------------------------------

function groupRow(ctx: ChannelContext, id: number): Row {
  const group = ctx.state.groups.find((each) => each.id === id);
  if (!group) return {};
  return ctx.present.row({
    id: group.id,
    hash: group.hash,
    uid: ctx.state.channel.uid,
    visible: group.visible,
    deleted: group.deleted,
    gname: group.name,
  });
}

function groups(ctx: ChannelContext): ChannelReply {
  return ok(ctx.state.groups.map((group) => groupRow(ctx, group.id)));
}

function groupMembers(ctx: ChannelContext): ChannelReply {
  const { state, params, present } = ctx;
  let group;
  if (params.truthy('group_id')) group = state.groups.find((each) => each.id === params.int('group_id'));
  else if (params.truthy('group_name'))
    group = state.groups.find((each) => each.name === params.text('group_name'));
  if (!group) return emptyBody();
  const groupId = group.id;
  const rows = state.groupMembers
    .filter((member) => member.gid === groupId)
    .map((member) => {
      const abook = state.abook.find((each) => each.xchan === member.xchan);
      const xchan = state.xchans.get(member.xchan);
      return {
        ...present.row({ id: member.id, uid: state.channel.uid, gid: member.gid }),
        xchan: member.xchan,
        ...(abook ? present.abookRow(abook) : ChannelPresenter.NULL_ABOOK),
        ...(xchan ? present.xchanRow(xchan, 'xchan_') : {}),
      };
    });
  return ok(rows);
}

function xchanLookup(ctx: ChannelContext): ChannelReply {
  const { params } = ctx;
  const xchan = ctx.state.findXchan({
    hash: params.text('hash'),
    guid: params.text('guid'),
    address: params.text('address'),
  });
  if (!xchan) return falseBody();
  return ok(ctx.present.xchanRow(xchan, ''));
}

function abookRows(ctx: ChannelContext): ChannelReply {
  const { state, params, present } = ctx;
  const abookId = params.int('abook_id');
  const rows = state.abook
    .filter((abook) => abookId === 0 || abook.id === abookId)
    .map((abook) => {
      const xchan = state.xchans.get(abook.xchan);
      return { ...present.abookRow(abook), ...(xchan ? present.xchanRow(xchan, 'xchan_') : {}) };
    });
  return ok(rows);
}

function abconfigRows(ctx: ChannelContext): ChannelReply {
  const { state, params, present } = ctx;
  const abookId = params.int('abook_id');
  const xchans = new Set(
    state.abook.filter((abook) => abookId === 0 || abook.id === abookId).map((abook) => abook.xchan),
  );
  const rows = state.abconfig
    .filter((row) => xchans.has(row.xchan))
    .map((row) => ({
      ...present.row({ id: row.id, chan: state.channel.uid }),
      xchan: row.xchan,
      cat: row.cat,
      k: row.k,
      v: row.v,
    }));
  return ok(rows);
}

function permAllowed(ctx: ChannelContext): ChannelReply {
  const { state, params } = ctx;
  let hash: string | undefined;
  const abookId = params.int('abook_id');
  if (abookId > 0) hash = state.abook.find((abook) => abook.id === abookId)?.xchan;
  else
    hash = state.findXchan({
      hash: params.text('hash'),
      guid: params.text('guid'),
      address: params.text('address'),
    })?.hash;
  if (hash === undefined) return falseBody();
  const target = hash;
  // Real hubs answer `false` when asked by address, hash or guid where the same question by
  // `abook_id` answers true (design.md section 3, 2026-11).
  const allowed = (each: string): boolean => abookId > 0 && state.permissionAllowed(target, each);
  const perm = params.text('perm');
  if (perm) return ok([{ perm, allowed: allowed(perm) }]);
  return ok(PERMISSIONS.map((each) => ({ perm: each, allowed: allowed(each) ? 1 : 0 })));
}

// ---- items ---------------------------------------------------------------------------------------------

function itemFull(ctx: ChannelContext): ChannelReply {
  const { state, params, present } = ctx;
  let top: StoredItem | undefined;
  if (params.truthy('mid')) top = state.threadTops().find((item) => item.parentMid === params.text('mid'));
  else if (params.truthy('item_id'))
    top = state.threadTops().find((item) => item.id === params.int('item_id'));
  else return emptyList();
  if (!top) return emptyList();
  return ok({ item: state.thread(top).map((item) => present.encodedItem(item)) });
}

function aclFromParams(params: ChannelParams): Acl {
  return {
    allowCid: aclText(params.list('contact_allow')),
    allowGid: aclText(params.list('group_allow')),
    denyCid: aclText(params.list('contact_deny')),
    denyGid: aclText(params.list('group_deny')),
  };
}

function isRestricted(acl: Acl): boolean {
  return acl.allowCid !== '' || acl.allowGid !== '' || acl.denyCid !== '' || acl.denyGid !== '';
}

/** Creates or edits an item. The method is not checked: a GET creates a post too. */
function itemUpdate(ctx: ChannelContext): ChannelReply {
  const { state, params, present } = ctx;
  const own = state.channel.hash;
  const media = params.files.find((file) => file.field === 'media');
  let attachment: { hash: string; file: StoredFile } | undefined;
  let body = params.text('body');
  const title = params.text('title');

  const postId = params.int('post_id');
  const existing = postId > 0 ? state.findItem(postId) : undefined;
  if (postId > 0 && (!existing || (existing.ownerXchan !== own && existing.authorXchan !== own))) {
    return unsuccessful('invalid post id');
  }
  if (!existing && body === '' && title === '' && !media) return unsuccessful('no content');

  if (media) {
    const created = state.now();
    const hash = createHash('sha256')
      .update(`${state.channel.hash}/upload/${state.files.length}/${media.filename}`)
      .digest('hex');
    const file: StoredFile = {
      id: state.nextId('attach', 1000),
      hash,
      filename: media.filename,
      filetype: media.contentType,
      filesize: media.data.length,
      content: media.data,
      revision: 0,
      folder: '',
      osStorage: 1,
      isDir: 0,
      isPhoto: media.contentType.startsWith('image/') ? 1 : 0,
      flags: 0,
      created,
      edited: created,
      creator: own,
      displayPath: media.filename,
      acl: { ...PUBLIC_ACL },
    };
    state.files.push(file);
    attachment = { hash, file };
    body = `${body}\n\n[attachment]${hash},0[/attachment]`;
  }
  const attachText = attachment
    ? JSON.stringify([
        {
          href: `/attach/${attachment.hash}`,
          length: attachment.file.filesize,
          type: attachment.file.filetype,
          title: attachment.file.filename,
          revision: 0,
        },
      ])
    : undefined;
  const hasAccessFields = ['contact_allow', 'group_allow', 'contact_deny', 'group_deny'].some((name) =>
    params.has(name),
  );
  const categories = params
    .text('category')
    .split(',')
    .map((term) => term.trim())
    .filter((term) => term !== '');
  const iids: StoredItem['iids'] = [];
  if (params.truthy('pagetitle')) iids.push({ service: 'WEBPAGE', sid: params.text('pagetitle') });
  if (params.truthy('namespace') && params.truthy('remote_id')) {
    iids.push({ service: params.text('namespace'), sid: params.text('remote_id') });
  }

  if (existing) {
    const now = state.now();
    if (params.has('body') || attachment) existing.body = body;
    if (params.has('title')) existing.title = title;
    if (params.has('mimetype')) existing.mimetype = params.text('mimetype');
    if (params.has('location')) existing.location = params.text('location');
    if (params.has('coord')) existing.coord = params.text('coord');
    if (params.has('expire')) existing.expires = params.text('expire');
    if (params.has('app')) existing.app = params.text('app');
    if (params.has('category')) existing.categories = categories;
    if (attachText) existing.attach = attachText;
    if (hasAccessFields && existing.id === existing.parent) {
      existing.acl = aclFromParams(params);
      existing.itemPrivate = isRestricted(existing.acl) ? 1 : 0;
    }
    existing.iids.push(...iids);
    existing.edited = now;
    existing.changed = now;
    return ok({ success: true, ...present.row({ item_id: existing.id }), item: present.itemRow(existing) });
  }

  let parent: StoredItem | undefined;
  if (params.truthy('parent')) parent = state.findItem(params.int('parent'));
  else if (params.truthy('parent_mid')) parent = state.findItemByMid(params.text('parent_mid'));
  if ((params.truthy('parent') || params.truthy('parent_mid')) && !parent) {
    return unsuccessful('Unable to locate original post.');
  }
  const top = parent ? state.findItem(parent.parent) : undefined;
  if (top?.itemNocomment) return unsuccessful('Comments are closed on this post.');
  // Real hubs refuse a body identical to one posted in the last couple of minutes, and say only this.
  const recently = formatDate(Date.parse(`${state.peekNow().replace(' ', 'T')}Z`) - 120_000);
  if (
    body !== '' &&
    state.items.some((item) => item.authorXchan === own && item.body === body && item.created >= recently)
  ) {
    return unsuccessful('operation cancelled');
  }

  const created = params.text('created') || state.now();
  const id = state.nextId('item', 1000);
  const mid =
    params.text('message_id') ||
    `${createHash('sha256').update(`${own}/item/${id}`).digest('hex')}@${HUB_HOST}`;
  const acl = top ? top.acl : hasAccessFields ? aclFromParams(params) : { ...state.channel.defaultAcl };
  const item: StoredItem = {
    id,
    mid,
    parent: top?.id ?? id,
    parentMid: top?.mid ?? mid,
    thrParent: parent?.mid ?? mid,
    created,
    edited: created,
    expires: params.text('expire') || state.nullDate,
    commented: created,
    received: created,
    changed: created,
    ownerXchan: top?.ownerXchan ?? own,
    authorXchan: params.text('remote_xchan') || own,
    sourceXchan: '',
    mimetype: params.text('mimetype') || 'text/bbcode',
    title,
    body,
    app: params.text('app'),
    verb: params.text('verb') || 'Create',
    objType: params.text('obj_type') || (top ? 'Note' : 'Article'),
    location: params.text('location'),
    coord: params.text('coord'),
    layoutMid: params.text('layout_mid'),
    plink: params.text('plink') || `/channel/${state.channel.nickname}?mid=${encodeURIComponent(mid)}`,
    attach: attachText ?? '',
    acl,
    commentPolicy: 'contacts',
    itemPrivate: top ? top.itemPrivate : isRestricted(acl) ? 1 : 0,
    itemOrigin: params.has('origin') ? params.int('origin') : 1,
    itemWall: top ? top.itemWall : 1,
    itemConsensus: params.truthy('consensus') ? 1 : 0,
    itemNocomment: params.truthy('nocomment') ? 1 : 0,
    itemDeleted: 0,
    itemType: params.int('webpage'),
    categories,
    iids,
  };
  state.items.push(item);
  if (top && created > top.commented) {
    top.commented = created;
    top.changed = created;
  }
  return ok({ success: true, ...present.row({ item_id: id }), item: present.itemRow(item) });
}

/** Route (under /api/z/1.0) to handler. */
export const CHANNEL_ROUTES: ReadonlyMap<string, ChannelHandler> = new Map<string, ChannelHandler>([
  ['/channel/export/basic', exportBasic],
  ['/channel/stream', channelStream],
  ['/network/stream', networkStream],
  ['/files', listFiles],
  ['/filedata', fileData],
  ['/filemeta', fileMeta],
  ['/file/export', fileExport],
  ['/file', fileDetail],
  ['/albums', albums],
  ['/photos', photos],
  ['/photo', photoDetail],
  ['/group', groups],
  ['/group_members', groupMembers],
  ['/xchan', xchanLookup],
  ['/item/update', itemUpdate],
  ['/item/full', itemFull],
  ['/abook', abookRows],
  ['/abconfig', abconfigRows],
  ['/perm_allowed', permAllowed],
  ['/item/export_page', itemExportPage],
]);

/** Base64 in lines of `width` characters (CRLF between them), or as one line. */
function wrapLines(text: string, width: number | undefined): string {
  if (!width) return text;
  const lines: string[] = [];
  for (let index = 0; index < text.length; index += width) lines.push(text.slice(index, index + width));
  return lines.join('\r\n');
}
