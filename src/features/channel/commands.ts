import {
  AddAccountOptionsSchema,
  type ChannelArgument,
  ChannelArgumentSchema,
  ChannelRowSchema,
  DownloadOptionsSchema,
  ExportOptionsSchema,
  FilterFilesOptionsSchema,
  LookupOptionsSchema,
  PermissionOptionsSchema,
  RemoveAccountOptionsSchema,
} from './commandArguments';
import { type CommandDeclaration, defineCommand } from '../../platform/commands/defineCommand';
import type * as z from 'zod';
import { type ChannelCommandContext } from './channelTargets';
import { withProgress } from '../../platform/userMessages';
import { NetworkOptionsSchema } from '../../platform/network';
import { addAccount, configureChannelNetwork, removeAccount } from './channelAccountCommands';
import { filterFiles, downloadFile, openFile } from './fileCommands';
import { lookupIdentity, checkPermission } from './identityCommands';
import { exportChannel } from './exportCommand';

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
