/**
 * Zod schemas and inferred types of the channel API (`/api/z/1.0`). Import from here.
 */
import * as z from 'zod';
import {
  AccessFieldsShape,
  ChannelDateSchema,
  FlagSchema,
  IntLikeSchema,
  OptionalTextSchema,
} from './common';

export * from './common';

// ---- files -------------------------------------------------------------------------------------

const FileFieldsShape = {
  id: IntLikeSchema,
  aid: IntLikeSchema.optional(),
  uid: IntLikeSchema.optional(),
  /** The file identifier (`filedata` matches its beginning, `file` and `filemeta` need all of it). */
  hash: z.string(),
  filename: z.string(),
  filetype: z.string(),
  filesize: IntLikeSchema,
  revision: IntLikeSchema.optional(),
  /** Hash of the parent folder, empty at the top. */
  folder: OptionalTextSchema,
  os_storage: FlagSchema.optional(),
  is_dir: FlagSchema.optional(),
  is_photo: FlagSchema.optional(),
  flags: IntLikeSchema.optional(),
  created: ChannelDateSchema.optional(),
  edited: ChannelDateSchema.optional(),
  ...AccessFieldsShape,
};

/** A row of the `files` listing. */
export const FileRecordSchema = z.looseObject(FileFieldsShape);
export type FileRecord = z.infer<typeof FileRecordSchema>;

/** The `attach` of a `filedata` reply: the file record plus one chunk of its bytes. */
export const AttachSchema = z.looseObject({
  ...FileFieldsShape,
  creator: OptionalTextSchema,
  os_path: OptionalTextSchema,
  display_path: OptionalTextSchema,
  /** Base64 of the requested chunk; empty for folders. */
  content: z.string(),
  /** First byte of the chunk (absent for folders). */
  start: IntLikeSchema.optional(),
  /** Bytes in the chunk before base64 (absent for folders). */
  length: IntLikeSchema.optional(),
});
export type Attach = z.infer<typeof AttachSchema>;

export const FilesReplySchema = z.looseObject({
  success: z.boolean(),
  results: z.array(FileRecordSchema),
  /** Echoed only when the request paged with `records`. */
  start: IntLikeSchema.optional(),
  /** Rows in this reply (not a total: the listing has no total count). */
  records: IntLikeSchema.optional(),
});
export type FilesReply = z.infer<typeof FilesReplySchema>;

export const FiledataReplySchema = z.looseObject({ attach: AttachSchema });
export type FiledataReply = z.infer<typeof FiledataReplySchema>;

// ---- photos ------------------------------------------------------------------------------------

export const AlbumSchema = z.looseObject({
  /** Album name; `/` for photos outside any album. */
  text: z.string(),
  /** Number of photos. */
  total: IntLikeSchema,
  url: z.string(),
  urlencode: z.string(),
  bin2hex: z.string(),
});
export type Album = z.infer<typeof AlbumSchema>;

export const AlbumsReplySchema = z.looseObject({
  success: z.boolean(),
  albums: z.array(AlbumSchema),
});
export type AlbumsReply = z.infer<typeof AlbumsReplySchema>;

// ---- privacy groups and identities -------------------------------------------------------------

export const PrivacyGroupSchema = z.looseObject({
  id: IntLikeSchema,
  hash: z.string(),
  uid: IntLikeSchema.optional(),
  visible: FlagSchema.optional(),
  deleted: FlagSchema.optional(),
  gname: z.string(),
});
export type PrivacyGroup = z.infer<typeof PrivacyGroupSchema>;

/**
 * A `group_members` row: membership, address-book entry and channel identity joined. The joins
 * are outer joins, so the `abook_*` and `xchan_*` columns are null for a member without them.
 */
export const GroupMemberSchema = z.looseObject({
  id: IntLikeSchema,
  uid: IntLikeSchema.optional(),
  gid: IntLikeSchema,
  /** Hash of the member's xchan. */
  xchan: z.string(),
  abook_id: IntLikeSchema.nullish(),
  abook_self: FlagSchema.nullish(),
  abook_blocked: FlagSchema.nullish(),
  abook_pending: FlagSchema.nullish(),
  xchan_hash: OptionalTextSchema,
  xchan_name: OptionalTextSchema,
  xchan_addr: OptionalTextSchema,
  xchan_url: OptionalTextSchema,
  xchan_network: OptionalTextSchema,
  xchan_photo_s: OptionalTextSchema,
});
export type GroupMember = z.infer<typeof GroupMemberSchema>;

/** A portable channel identity (the `xchan` reply; fields without the `xchan_` prefix). */
export const XchanSchema = z.looseObject({
  hash: z.string(),
  guid: z.string().optional(),
  name: z.string(),
  /** `nick@host`. */
  address: z.string(),
  url: z.string(),
  network: z.string().optional(),
  photo_s: z.string().optional(),
  photo_m: z.string().optional(),
  photo_l: z.string().optional(),
  photo_mimetype: z.string().optional(),
  connurl: z.string().optional(),
  connpage: z.string().optional(),
  instance_url: z.string().optional(),
  hidden: FlagSchema.optional(),
  orphan: FlagSchema.optional(),
  censored: FlagSchema.optional(),
  selfcensored: FlagSchema.optional(),
  system: FlagSchema.optional(),
  pubforum: FlagSchema.optional(),
  deleted: FlagSchema.optional(),
});
export type Xchan = z.infer<typeof XchanSchema>;

// ---- items -------------------------------------------------------------------------------------

/** An item row (the `item` of an `item/update` reply). */
export const ItemSchema = z.looseObject({
  id: IntLikeSchema,
  /** Message id, globally unique. */
  mid: z.string(),
  aid: IntLikeSchema.optional(),
  uid: IntLikeSchema.optional(),
  /** Id of the thread's top item (its own id for a top-level post). */
  parent: IntLikeSchema,
  parent_mid: z.string(),
  thr_parent: z.string().optional(),
  created: ChannelDateSchema,
  edited: ChannelDateSchema.optional(),
  expires: ChannelDateSchema.optional(),
  commented: ChannelDateSchema.optional(),
  owner_xchan: z.string(),
  author_xchan: z.string(),
  mimetype: z.string().optional(),
  title: OptionalTextSchema,
  body: z.string(),
  app: OptionalTextSchema,
  verb: OptionalTextSchema,
  obj_type: OptionalTextSchema,
  location: OptionalTextSchema,
  coord: OptionalTextSchema,
  llink: OptionalTextSchema,
  plink: OptionalTextSchema,
  layout_mid: OptionalTextSchema,
  /** JSON text describing attached files, empty when none. */
  attach: OptionalTextSchema,
  ...AccessFieldsShape,
  /** 0 public, 1 restricted to the access lists, 2 direct message. */
  item_private: IntLikeSchema.optional(),
  item_origin: FlagSchema.optional(),
  item_wall: FlagSchema.optional(),
  item_thread_top: FlagSchema.optional(),
  item_consensus: FlagSchema.optional(),
  item_nocomment: FlagSchema.optional(),
  item_deleted: FlagSchema.optional(),
  item_type: IntLikeSchema.optional(),
});
export type Item = z.infer<typeof ItemSchema>;

export const ItemUpdateReplySchema = z.looseObject({
  success: z.literal(true),
  item_id: IntLikeSchema,
  item: ItemSchema,
});
export type ItemUpdateReply = z.infer<typeof ItemUpdateReplySchema>;

/**
 * An item of `channel/stream`, `network/stream` or `item/full`. The spec does not show them: they
 * are kept whole, and the ids paging relies on are read by `streamItemKeys`.
 */
export const StreamItemSchema = z.looseObject({});
export type StreamItem = z.infer<typeof StreamItemSchema>;

// ---- replies of endpoints the spec does not show (facts from real servers) ---------------------

export const PrivacyGroupsReplySchema = z.array(PrivacyGroupSchema);
export const GroupMembersReplySchema = z.array(GroupMemberSchema);

/** `perm_allowed`: `allowed` is a boolean for one permission and 0/1 when listing all of them. */
export const PermissionAllowedSchema = z.looseObject({ perm: z.string(), allowed: FlagSchema });
export type PermissionAllowed = z.infer<typeof PermissionAllowedSchema>;

/** `file` and `filemeta` wrap one file row in `attach`; `file` adds the whole content in base64. */
export const FileDetailReplySchema = z.looseObject({
  attach: z.looseObject({ hash: z.string(), content: z.string().optional() }),
});

/** `photo` wraps one photo scale in `photo`, content in base64, plus the photo's items. */
export const PhotoReplySchema = z.looseObject({
  photo: z.looseObject({ resource_id: z.string().optional(), content: z.string() }),
});

/** `photos`: `{success, photos}`; a channel without photos answers `{success: false}`. */
export const PhotosReplySchema = z.looseObject({
  success: z.boolean(),
  photos: z.array(z.looseObject({})).optional(),
});

/** `item/full`: `{item: [...], item_id: [...]}`. */
export const ItemFullReplySchema = z.looseObject({ item: z.array(StreamItemSchema) });
