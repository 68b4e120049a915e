import {
  type AbookRecord,
  type ChannelState,
  type StoredFile,
  type StoredItem,
  type StoredPhoto,
  type XchanRecord,
} from './state';

/*
 * Rows as the real servers send them: database columns under their column names, integers as JSON numbers
 * (current servers) or as strings (older ones, and every documented sample), URLs of the hub itself made
 * absolute with the origin the request came to.
 */

export type Row = Record<string, unknown>;

export class ChannelPresenter {
  constructor(
    private readonly state: ChannelState,
    /** e.g. http://127.0.0.1:41234 */
    readonly origin: string,
  ) {}

  /** A database row: integer columns become strings when the server imitates an older version. */
  row(values: Row): Row {
    if (this.state.numbers === 'numbers') return values;
    const out: Row = {};
    for (const [key, value] of Object.entries(values))
      out[key] = typeof value === 'number' ? String(value) : value;
    return out;
  }

  url(value: string): string {
    return value.startsWith('/') ? `${this.origin}${value}` : value;
  }

  fileRow(file: StoredFile): Row {
    return this.row({
      id: file.id,
      aid: this.state.account.id,
      uid: this.state.channel.uid,
      hash: file.hash,
      filename: file.filename,
      filetype: file.filetype,
      filesize: file.filesize,
      revision: file.revision,
      folder: file.folder,
      os_storage: file.osStorage,
      is_dir: file.isDir,
      is_photo: file.isPhoto,
      flags: file.flags,
      created: file.created,
      edited: file.edited,
      allow_cid: file.acl.allowCid,
      allow_gid: file.acl.allowGid,
      deny_cid: file.acl.denyCid,
      deny_gid: file.acl.denyGid,
    });
  }

  /** The whole attach row (what `filedata`, `file` and `filemeta` start from). */
  attachRow(file: StoredFile): Row {
    return {
      ...this.fileRow(file),
      creator: file.creator,
      os_path: file.isDir ? '' : `${this.state.channel.nickname}/${file.hash}`,
      display_path: file.displayPath,
    };
  }

  xchanRow(xchan: XchanRecord, prefix: '' | 'xchan_'): Row {
    const values: Row = {
      hash: xchan.hash,
      guid: xchan.guid,
      guid_sig: xchan.guidSig,
      pubkey: xchan.pubkey,
      photo_mimetype: xchan.photoMimetype,
      photo_l: this.url(xchan.photoL),
      photo_m: this.url(xchan.photoM),
      photo_s: this.url(xchan.photoS),
      // The xchan reply says `address`; the prefixed table column is `xchan_addr`.
      [prefix === '' ? 'address' : 'addr']: xchan.address,
      url: this.url(xchan.url),
      connurl: this.url(xchan.connurl),
      follow: this.url(xchan.follow),
      connpage: this.url(xchan.connpage),
      name: xchan.name,
      network: xchan.network,
      instance_url: xchan.instanceUrl,
      flags: xchan.flags,
      photo_date: xchan.photoDate,
      name_date: xchan.nameDate,
      hidden: xchan.hidden,
      orphan: xchan.orphan,
      censored: xchan.censored,
      selfcensored: xchan.selfcensored,
      system: xchan.system,
      pubforum: xchan.pubforum,
      deleted: xchan.deleted,
    };
    const out: Row = {};
    for (const [key, value] of Object.entries(values)) out[`${prefix}${key}`] = value;
    return this.row(out);
  }

  abookRow(abook: AbookRecord): Row {
    return this.row({
      abook_id: abook.id,
      abook_account: this.state.account.id,
      abook_channel: this.state.channel.uid,
      abook_xchan: abook.xchan,
      abook_my_perms: abook.myPerms,
      abook_their_perms: abook.theirPerms,
      abook_closeness: abook.closeness,
      abook_created: abook.created,
      abook_updated: abook.updated,
      abook_connected: abook.connected,
      abook_dob: '0001-01-01 00:00:00',
      abook_flags: 0,
      abook_blocked: abook.blocked,
      abook_ignored: abook.ignored,
      abook_hidden: abook.hidden,
      abook_archived: abook.archived,
      abook_pending: abook.pending,
      abook_unconnected: abook.unconnected,
      abook_self: abook.self,
      abook_feed: abook.feed,
      abook_profile: '',
      abook_incl: '',
      abook_excl: '',
      abook_instance: '',
    });
  }

  /** The abook columns of a LEFT JOIN that found nothing. */
  static readonly NULL_ABOOK: Row = Object.fromEntries(
    [
      'abook_id',
      'abook_account',
      'abook_channel',
      'abook_xchan',
      'abook_my_perms',
      'abook_their_perms',
      'abook_closeness',
      'abook_created',
      'abook_updated',
      'abook_connected',
      'abook_dob',
      'abook_flags',
      'abook_blocked',
      'abook_ignored',
      'abook_hidden',
      'abook_archived',
      'abook_pending',
      'abook_unconnected',
      'abook_self',
      'abook_feed',
      'abook_profile',
      'abook_incl',
      'abook_excl',
      'abook_instance',
    ].map((key) => [key, null]),
  );

  photoRow(photo: StoredPhoto): Row {
    return this.row({
      resource_id: photo.resourceId,
      created: photo.created,
      edited: photo.edited,
      title: photo.title,
      description: photo.description,
      album: photo.album,
      filename: photo.filename,
      mimetype: photo.mimetype,
      height: photo.height,
      width: photo.width,
      filesize: photo.content.length,
      imgscale: photo.scale,
      photo_usage: photo.usage,
      allow_cid: photo.acl.allowCid,
      allow_gid: photo.acl.allowGid,
      deny_cid: photo.acl.denyCid,
      deny_gid: photo.acl.denyGid,
    });
  }

  /** An item row as `item/update` answers it. */
  itemRow(item: StoredItem): Row {
    return this.row({
      id: item.id,
      mid: item.mid,
      aid: this.state.account.id,
      uid: this.state.channel.uid,
      parent: item.parent,
      parent_mid: item.parentMid,
      thr_parent: item.thrParent,
      created: item.created,
      edited: item.edited,
      expires: item.expires,
      commented: item.commented,
      received: item.received,
      changed: item.changed,
      comments_closed: '0001-01-01 00:00:00',
      owner_xchan: item.ownerXchan,
      author_xchan: item.authorXchan,
      source_xchan: item.sourceXchan,
      mimetype: item.mimetype,
      title: item.title,
      body: item.body,
      html: '',
      app: item.app,
      lang: '',
      revision: 0,
      verb: item.verb,
      obj_type: item.objType,
      obj: '',
      tgt_type: '',
      target: '',
      layout_mid: item.layoutMid,
      postopts: '',
      route: '',
      llink: `${this.origin}/display/${encodeURIComponent(item.mid)}`,
      plink: this.url(item.plink),
      resource_id: '',
      resource_type: '',
      attach: item.attach,
      sig: '',
      diaspora_meta: '',
      location: item.location,
      coord: item.coord,
      public_policy: '',
      comment_policy: item.commentPolicy,
      allow_cid: item.acl.allowCid,
      allow_gid: item.acl.allowGid,
      deny_cid: item.acl.denyCid,
      deny_gid: item.acl.denyGid,
      item_restrict: 0,
      item_flags: 0,
      item_private: item.itemPrivate,
      item_origin: item.itemOrigin,
      item_unseen: 0,
      item_starred: 0,
      item_uplink: 0,
      item_consensus: item.itemConsensus,
      item_wall: item.itemWall,
      item_thread_top: item.id === item.parent ? 1 : 0,
      item_notshown: 0,
      item_nsfw: 0,
      item_relay: 0,
      item_mentionsme: 0,
      item_nocomment: item.itemNocomment,
      item_obscured: 0,
      item_verified: 1,
      item_retained: 0,
      item_rss: 0,
      item_deleted: item.itemDeleted,
      item_type: item.itemType,
      item_hidden: 0,
      item_unpublished: 0,
      item_delayed: 0,
      item_pending_remove: 0,
      item_blocked: 0,
    });
  }

  /** A person as items embed them. */
  private encodedXchan(hash: string): Row {
    const xchan = this.state.xchans.get(hash);
    if (!xchan) return { name: '', address: '', url: '', network: '', photo: { mimetype: '', src: '' } };
    return {
      name: xchan.name,
      address: xchan.address,
      url: this.url(xchan.url),
      network: xchan.network,
      photo: { mimetype: xchan.photoMimetype, src: this.url(xchan.photoM) },
      guid: xchan.guid,
      guid_sig: xchan.guidSig,
    };
  }

  /** An item as the streams and `item/full` carry it (the portable encoding: text only, no row ids). */
  encodedItem(item: StoredItem): Row {
    const flags: string[] = [];
    if (item.id === item.parent) flags.push('thread_parent');
    if (item.itemConsensus) flags.push('consensus');
    if (item.itemNocomment) flags.push('nocomment');
    if (item.itemPrivate) flags.push('private');
    return {
      type: 'activity',
      encoding: 'zot',
      message_id: item.mid,
      message_top: item.parentMid,
      message_parent: item.thrParent,
      created: item.created,
      edited: item.edited,
      expires: item.expires,
      commented: item.commented,
      mimetype: item.mimetype,
      title: item.title,
      body: item.body,
      app: item.app,
      verb: item.verb,
      object_type: item.objType,
      permalink: this.url(item.plink),
      location: item.location,
      longlat: item.coord,
      owner: this.encodedXchan(item.ownerXchan),
      author: this.encodedXchan(item.authorXchan),
      // Real hubs (8.8.7) send an empty scope on every item; `private` in flags marks a restricted one.
      public_scope: '',
      comment_scope: item.itemNocomment ? 'none' : item.commentPolicy,
      flags,
      ...(item.categories.length > 0
        ? { tags: item.categories.map((term) => ({ type: 'category', tag: term, url: '' })) }
        : {}),
      ...(item.attach !== '' ? { attach: JSON.parse(item.attach) as unknown } : {}),
    };
  }
}
