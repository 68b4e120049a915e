/** Channel accounts: add (checking the login first), sign in again, network settings, remove. */
import { CancelledError } from '../../api/http';
import { normalizeChannelUrl } from '../../domain/channel';
import { checkServerUrl, problemOf } from '../../domain/inputValidation';
import type { ChannelAccountInfo } from '../../platform/channelAccounts';
import { type AddChannelAccountOptions, type ChannelArgument } from './commandArguments';
import { type ChannelCommandContext, channelName, pickChannelAccount } from './channelTargets';
import { InvalidInputError, describeError, valueOrThrow } from '../../platform/commands/registerCommand';
import {
  askText,
  showError,
  showInformation,
  showWarning,
  withCancellableProgress,
} from '../../platform/userMessages';
import {
  type AccountNetwork,
  type NetworkOptions,
  applyNetworkOptions,
  configureNetworkInteractively,
  confirmPlainHttp,
  isCertificateError,
  networkForNewAccount,
  offerToTrustCertificate,
} from '../../platform/network';
import * as l10n from '@vscode/l10n';

export async function addAccount(
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
    void showInformation(l10n.t('Signed in to the channel {0}.', channelName(account)));
    return { added: true, accountId: account.id };
  }
  let serverUrl = '';
  let login = '';
  for (;;) {
    const serverInput = await askText({
      title: l10n.t('Add Channel Account (1/3)'),
      prompt: l10n.t('Address of the channel server (Hubzilla-compatible)'),
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
      title: l10n.t('Add Channel Account (2/3)'),
      prompt: l10n.t('Channel nickname or account email on {0}', serverUrl),
      value: login,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? l10n.t('Enter the nickname or the email') : undefined),
    });
    if (loginInput === undefined) return { added: false };
    login = loginInput.trim();
    const password = await askText({
      title: l10n.t('Add Channel Account (3/3)'),
      prompt: l10n.t("Password of {0} on {1} (kept in VS Code's secret storage)", login, serverUrl),
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value === '' ? l10n.t('Enter the password') : undefined),
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
      const account = await withCancellableProgress(
        l10n.t('Checking the login with {0}…', input.serverUrl),
        (signal) => context.accounts.add({ ...input, network, signal }),
      );
      void showInformation(l10n.t('Signed in to the channel {0}.', channelName(account)));
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
      await showError(l10n.t('Channel account not added: {0}', describeError(error)), l10n.t('Try Again'));
      return undefined;
    }
  }
}

/** CA file and trusted certificate of a channel account; `options` as in NetworkOptions. */
export async function configureChannelNetwork(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: NetworkOptions | undefined,
): Promise<AccountNetwork | undefined> {
  const account = await pickChannelAccount(context.accounts, l10n.t('Channel account'), arg);
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

export async function removeAccount(
  context: ChannelCommandContext,
  arg: ChannelArgument,
  options: { confirmed?: boolean | undefined } | undefined,
): Promise<{ removed: boolean }> {
  const account = await pickChannelAccount(context.accounts, l10n.t('Channel account to remove'), arg);
  if (!account) return { removed: false };
  const confirm = options?.confirmed
    ? l10n.t('Remove')
    : await showWarning(
        l10n.t('Remove the channel account {0}? Its password is deleted from this machine.', account.label),
        { modal: true },
        l10n.t('Remove'),
      );
  if (confirm !== l10n.t('Remove')) return { removed: false };
  await context.accounts.remove(account.id);
  for (const key of context.drafts.keysOf(account.id)) await context.drafts.delete(key);
  await context.itemIds.forget(account.id);
  void showInformation(l10n.t('Removed the channel account {0}.', account.label));
  return { removed: true };
}
