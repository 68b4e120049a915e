import * as vscode from 'vscode';
import * as z from 'zod';
import { type TreeNode, isTreeNode } from '../../platform/tree/treeNode';

/*
 * What each `forge.channel.*` command takes, as schemas: the first argument (the row it was run on,
 * an account id, or nothing: the command asks) and the trailing options that answer its questions
 * (tests and automation; menus never pass them). Checked by `defineCommand` before the command runs.
 */

/** Any row of the Channel view. */
export const ChannelRowSchema = z.custom<TreeNode>(isTreeNode, {
  error: vscode.l10n.t('expected a row of the Channel view'),
});

/** The row a command was run on, the id of a channel account, or nothing. */
export const ChannelArgumentSchema = z
  .union([ChannelRowSchema, z.string({ error: vscode.l10n.t('expected a channel account id') })])
  .optional();
export type ChannelArgument = z.output<typeof ChannelArgumentSchema>;

const AccountIdSchema = z.string().optional();

export const AddAccountOptionsSchema = z.strictObject({
  serverUrl: z.string().optional(),
  login: z.string().optional(),
  password: z.string().optional(),
  label: z.string().optional(),
  caFile: z.string().optional(),
  trustCertificateFingerprint: z.string().optional(),
  confirmPlainHttp: z.boolean().optional(),
});
export type AddChannelAccountOptions = z.output<typeof AddAccountOptionsSchema>;

export const RemoveAccountOptionsSchema = z.strictObject({ confirmed: z.boolean().optional() });

export const FilterFilesOptionsSchema = z.strictObject({
  account: AccountIdSchema,
  filename: z.string().optional(),
  filetype: z.string().optional(),
  clear: z.boolean().optional(),
});
export type FilterFilesOptions = z.output<typeof FilterFilesOptionsSchema>;

export const DownloadOptionsSchema = z.strictObject({
  account: AccountIdSchema,
  hash: z.string().optional(),
  filename: z.string().optional(),
  destination: z.string().optional(),
  open: z.boolean().optional(),
  /** Bytes per `filedata` request (default 512 KiB). */
  chunkSize: z.number().int().positive().optional(),
});
export type DownloadOptions = z.output<typeof DownloadOptionsSchema>;

export const LookupOptionsSchema = z.strictObject({
  account: AccountIdSchema,
  query: z.string().optional(),
  by: z.enum(['address', 'hash', 'guid']).optional(),
  /** 'pick' (default): a quick pick of the fields; 'json': an untitled JSON document; 'none'. */
  show: z.enum(['pick', 'json', 'none']).optional(),
});
export type LookupOptions = z.output<typeof LookupOptionsSchema>;

export const PermissionOptionsSchema = z.strictObject({
  account: AccountIdSchema,
  abookId: z.number().int().optional(),
  address: z.string().optional(),
  hash: z.string().optional(),
  guid: z.string().optional(),
  /** One permission, or every permission when left out (or 'all'). */
  perm: z.string().optional(),
  show: z.boolean().optional(),
});
export type PermissionOptions = z.output<typeof PermissionOptionsSchema>;

export const ExportOptionsSchema = z.strictObject({
  account: AccountIdSchema,
  sections: z.array(z.string()).optional(),
  posts: z.boolean().optional(),
  destination: z.string().optional(),
  /** The channel's private key is left out unless this is true (the command asks when run by hand). */
  includePrivateKey: z.boolean().optional(),
});
export type ExportOptions = z.output<typeof ExportOptionsSchema>;

/** Who may see a post: names, addresses or hashes of groups and connections. */
const AudienceOptionSchema = z.union([
  z.literal('default'),
  z.literal('public'),
  z.strictObject({ allow: z.array(z.string()).optional(), deny: z.array(z.string()).optional() }),
]);
export type AudienceOption = z.output<typeof AudienceOptionSchema>;

export const PostOptionsSchema = z.strictObject({
  account: AccountIdSchema,
  /** Where the text comes from; without it `body`, then `file`, then the unsent draft. */
  source: z.enum(['selection', 'file', 'input']).optional(),
  body: z.string().optional(),
  /** A text file becomes the body; any other file is attached as media. */
  file: z.string().optional(),
  title: z.string().optional(),
  categories: z.union([z.array(z.string()), z.string()]).optional(),
  audience: AudienceOptionSchema.optional(),
  nocomment: z.boolean().optional(),
});
export type PostOptions = z.output<typeof PostOptionsSchema>;

const UriSchema = z.custom<vscode.Uri>((value) => value instanceof vscode.Uri, {
  error: vscode.l10n.t('expected a file'),
});

/**
 * What `forge.channel.post` is run on: a row, an account id, a file (the explorer's and the editor's
 * menus), nothing, or its options given first.
 */
export const PostArgumentSchema = z
  .union([
    ChannelRowSchema,
    UriSchema,
    z.string({ error: vscode.l10n.t('expected a channel account id') }),
    PostOptionsSchema,
  ])
  .optional();
export type PostArgument = z.output<typeof PostArgumentSchema>;

/** Post options, or the files the explorer passes after the one clicked (not options). */
export const PostOptionsOrSelectionSchema = z.preprocess(
  (value) => (Array.isArray(value) && value.every((each) => each instanceof vscode.Uri) ? undefined : value),
  PostOptionsSchema.optional(),
);

export const CommentOptionsSchema = z.strictObject({
  account: AccountIdSchema,
  /** Message id of the item to answer (palette, tests). */
  mid: z.string().optional(),
  body: z.string().optional(),
});
export type CommentOptions = z.output<typeof CommentOptionsSchema>;

export const EditOptionsSchema = z.strictObject({
  account: AccountIdSchema,
  mid: z.string().optional(),
  body: z.string().optional(),
  title: z.string().optional(),
  /** The item's number, when neither the stream nor this editor knows it. */
  itemId: z.number().int().optional(),
});
export type EditOptions = z.output<typeof EditOptionsSchema>;
