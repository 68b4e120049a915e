import { type HttpClientOptions } from '../http';
import { type FileRecord, type Item, type StreamItem } from './schemas';

export interface ChannelCallOptions {
  signal?: AbortSignal;
}

export interface ChannelClientOptions extends Omit<HttpClientOptions, 'apiPrefix' | 'credentials' | 'sudo'> {
  /** The channel nickname or the account email. */
  login: string;
  password: string;
}

/** `'YYYY-MM-DD HH:MM:SS'` (UTC), the way channel servers write and read dates. */
export function formatChannelDate(value: string | Date): string {
  if (typeof value === 'string') return value;
  return value.toISOString().slice(0, 19).replace('T', ' ');
}

/** Exactly one way of naming an identity. */
export type XchanLookup = { address: string } | { hash: string } | { guid: string };

export type GroupRef = { id: number } | { name: string };

export type ItemRef = { mid: string } | { itemId: number };

/** A file to upload with a post: bytes in memory, or a path to read. */
export type ItemMedia =
  | { filename: string; data: Uint8Array; contentType?: string }
  | { path: string; filename?: string; contentType?: string };

/** Every input of `item/update`, named as the API names them. */
export interface ItemUpdateInput {
  /** bbcode unless `mimetype` says otherwise. */
  body: string;
  /** Uploaded with the post (sent as multipart); the server appends it to the body. */
  media?: ItemMedia;
  title?: string;
  /**
   * Access lists (xchan hashes, privacy group hashes). Leaving all four out gives the channel's
   * default audience, which may be a privacy group; an empty `contact_allow` makes the post public.
   */
  contact_allow?: readonly string[];
  contact_deny?: readonly string[];
  group_allow?: readonly string[];
  group_deny?: readonly string[];
  coord?: string;
  location?: string;
  /** When the item expires or is removed. */
  expire?: string | Date;
  mimetype?: string;
  /** Id of the parent item: makes this a comment. */
  parent?: number;
  /** The parent by message id instead. */
  parent_mid?: string;
  /** Author when not the channel owner. */
  remote_xchan?: string;
  /** A consensus (voting) item. */
  consensus?: boolean;
  /** Disables comments. */
  nocomment?: boolean;
  /** Internal use on the server; no contract given. */
  origin?: string | number;
  namespace?: string;
  remote_id?: string;
  /** Generated when unset. */
  message_id?: string;
  created?: string | Date;
  /** Edits this existing item instead of creating one. */
  post_id?: number;
  app?: string;
  /** Comma-separated, or a list joined with commas. */
  category?: string | readonly string[];
  /** Page type when not 0. */
  webpage?: number | string;
  pagetitle?: string;
  layout_mid?: string;
  plink?: string;
  verb?: string;
  obj_type?: string;
}

export interface ItemUpdateResult {
  itemId: number;
  item: Item;
}

export interface FileFilter {
  /** Exact hash. */
  filehash?: string;
  /** Substring of the name. */
  filename?: string;
  /** Substring of the mimetype. */
  filetype?: string;
}

export interface FilePage {
  items: FileRecord[];
  start: number;
  records: number;
  /** Where the next page starts; undefined when this one was short (the listing has no total). */
  nextStart: number | undefined;
}

export interface NetworkStreamFilter {
  /** Items created at or after this date. */
  dbegin?: string | Date;
  /** Items created before this date. */
  dend?: string | Date;
}

export interface NetworkStreamPage {
  items: StreamItem[];
  start: number;
  records: number;
  /** Threads in this page (the stream pages by thread, not by item). */
  threads: number;
  nextStart: number | undefined;
}
