import * as vscode from 'vscode';
import * as z from 'zod';
import { defineCommand } from '../../platform/commands/defineCommand';
import { type AccountArgument, AccountArgumentSchema, accountTarget } from '../projects';
import { CancelledError } from '../../api/http';
import { checkServerUrl, problemOf } from '../../domain/inputValidation';
import type { AccountInfo, AccountManager, TokenKind } from '../../platform/accounts';
import { InvalidInputError, registerCommands, valueOrThrow } from '../../platform/commands/registerCommand';
import { describeError, describeSignInError } from '../../platform/commands/errorMessages';
import {
  askText,
  pickOne,
  showError,
  showInformation,
  showWarning,
  withCancellableProgress,
  withProgress,
} from '../../platform/userMessages';
import {
  type AccountNetwork,
  type NetworkOptions,
  NetworkOptionsSchema,
  applyNetworkOptions,
  chooseCaFile,
  configureNetworkInteractively,
  confirmPlainHttp,
  isCertificateError,
  networkForNewAccount,
  offerToTrustCertificate,
} from '../../platform/network';

async function askToken(serverUrl: string, kind: TokenKind): Promise<string | undefined> {
  return askText({
    title: vscode.l10n.t('Add Account (3/3)'),
    prompt:
      kind === 'oauth'
        ? vscode.l10n.t('OAuth access token for {0}', serverUrl)
        : vscode.l10n.t(
            'Personal access token for {0} (scope "api"); create one under User Settings → Access Tokens',
            serverUrl,
          ),
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('Paste the token') : undefined),
  });
}

/** Answers to "Add Account"'s questions, for tests and automation; menus never pass them. */
const AddAccountOptionsSchema = z.strictObject({
  serverUrl: z.string().optional(),
  token: z.string().optional(),
  tokenKind: z.enum(['private-token', 'oauth']).optional(),
  label: z.string().optional(),
  caFile: z.string().optional(),
  /** Trust the server's certificate only if its SHA-256 fingerprint is this one. */
  trustCertificateFingerprint: z.string().optional(),
  /** Agree that the token goes over plain http to another machine (asked in a modal otherwise). */
  confirmPlainHttp: z.boolean().optional(),
});
type AddAccountOptions = z.output<typeof AddAccountOptionsSchema>;

export interface AddAccountResult {
  added: boolean;
  accountId?: string;
  /** Why it was not added, as the notification said it. */
  message?: string;
}

/** "Add Account" with every answer given: the address is checked before anything is sent. */
async function addAccountWithOptions(
  accounts: AccountManager,
  options: AddAccountOptions,
): Promise<AddAccountResult> {
  const serverUrl = valueOrThrow(checkServerUrl(options.serverUrl ?? ''));
  const token = options.token?.trim();
  if (!token) throw new InvalidInputError(vscode.l10n.t('Give the access token of the account'));
  try {
    const applied = await networkForNewAccount(serverUrl, options, 'token');
    if ('problem' in applied) {
      const message = vscode.l10n.t('Account not added: {0}', applied.problem);
      void showError(message);
      return { added: false, message };
    }
    const account = await accounts.add({
      serverUrl,
      token,
      tokenKind: options.tokenKind ?? 'private-token',
      label: options.label,
      network: applied.network,
    });
    void showInformation(vscode.l10n.t('Signed in to {0}.', account.label));
    return { added: true, accountId: account.id };
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    const message = vscode.l10n.t('Account not added: {0}', describeSignInError(error, serverUrl));
    void showError(message);
    return { added: false, message };
  }
}

async function addAccountFlow(accounts: AccountManager, initialUrl = ''): Promise<void> {
  const serverInput = await askText({
    title: vscode.l10n.t('Add Account (1/3)'),
    prompt: vscode.l10n.t('Address of the server'),
    placeHolder: 'https://gitlab.example.com',
    value: initialUrl,
    ignoreFocusOut: true,
    validateInput: (value) => problemOf(checkServerUrl(value)),
  });
  if (serverInput === undefined) return;
  const checked = checkServerUrl(serverInput);
  if (!checked.ok) return;
  const normalized = { url: checked.value };
  const kindPick = await pickOne(
    [
      {
        label: vscode.l10n.t('Personal access token'),
        description: vscode.l10n.t('sent as PRIVATE-TOKEN'),
        tokenKind: 'private-token' as const,
      },
      {
        label: vscode.l10n.t('OAuth token'),
        description: vscode.l10n.t('sent as Authorization: Bearer'),
        tokenKind: 'oauth' as const,
      },
    ],
    {
      title: vscode.l10n.t('Add Account (2/3)'),
      placeHolder: vscode.l10n.t('Kind of token'),
      ignoreFocusOut: true,
    },
  );
  if (!kindPick) return;
  const token = await askToken(normalized.url, kindPick.tokenKind);
  if (!token) return;
  let network: AccountInfo['network'] | undefined = await confirmPlainHttp(normalized.url, {}, 'token');
  if (!network) return;
  for (;;) {
    try {
      const account = await signIn(accounts, normalized.url, token.trim(), kindPick.tokenKind, network);
      void showInformation(
        account.isAdmin
          ? vscode.l10n.t('Signed in to {0} as an administrator.', account.label)
          : vscode.l10n.t('Signed in to {0}.', account.label),
      );
      return;
    } catch (error) {
      const certificateProblem = isCertificateError(error);
      if (certificateProblem) {
        // The certificate itself, in a modal: trusting it pins its fingerprint, nothing more.
        const outcome = await offerToTrustCertificate(normalized.url, network);
        if (outcome.trusted) {
          network = outcome.network;
          continue;
        }
      }
      const actions = certificateProblem ? [vscode.l10n.t('Choose CA File…')] : [vscode.l10n.t('Try Again')];
      const choice = await showError(
        vscode.l10n.t('Account not added: {0}', describeSignInError(error, normalized.url)),
        ...actions,
      );
      if (choice === vscode.l10n.t('Choose CA File…')) {
        const caFile = await chooseCaFile();
        if (!caFile) return;
        network = { ...network, caFile };
      } else if (choice === vscode.l10n.t('Try Again')) {
        return addAccountFlow(accounts, normalized.url);
      } else return;
    }
  }
}

/** Adds the account once the server accepts the token, with a cancellable progress notification. */
function signIn(
  accounts: AccountManager,
  serverUrl: string,
  token: string,
  tokenKind: 'private-token' | 'oauth',
  network: NonNullable<AccountInfo['network']>,
): Thenable<AccountInfo> {
  return withCancellableProgress(vscode.l10n.t('Checking the token with {0}…', serverUrl), (signal) => {
    return accounts.add({ serverUrl, token, tokenKind, network, signal });
  });
}

/** Add, remove and move accounts, their tokens, network settings and sudo. */
export function registerAccountCommands(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  accounts: AccountManager,
): void {
  registerCommands(context, log, [
    defineCommand({
      id: 'forge.account.add',
      args: [AddAccountOptionsSchema.optional()],
      run: async (options) => {
        if (options) return addAccountWithOptions(accounts, options);
        await addAccountFlow(accounts);
        return undefined;
      },
    }),
    // `confirmed` is for tests and automation; menus never pass it.
    defineCommand({
      id: 'forge.account.remove',
      args: [AccountArgumentSchema, z.strictObject({ confirmed: z.boolean().optional() }).optional()],
      run: (given, options) => removeAccount(accounts, given, options?.confirmed === true),
    }),
    defineCommand({
      id: 'forge.account.updateToken',
      args: [AccountArgumentSchema],
      run: (given) => updateToken(accounts, given),
    }),
    // The new address, and whether plain http is confirmed (tests and automation).
    defineCommand({
      id: 'forge.account.changeServerUrl',
      args: [AccountArgumentSchema, ChangeServerOptionsSchema.optional()],
      run: (given, options) => changeServerAddress(accounts, given, options),
    }),
    // `username` is for tests and automation ('' acts as yourself again).
    defineCommand({
      id: 'forge.account.sudo',
      args: [AccountArgumentSchema, z.strictObject({ username: z.string().optional() }).optional()],
      run: (given, options) => actAs(accounts, given, options?.username),
    }),
    defineCommand({
      id: 'forge.account.configureNetwork',
      args: [AccountArgumentSchema, NetworkOptionsSchema.optional()],
      run: (given, options) => configureNetwork(accounts, given, options),
    }),
  ]);
}

async function removeAccount(
  accounts: AccountManager,
  given: AccountArgument,
  confirmed: boolean,
): Promise<void> {
  const account = await accountTarget(accounts, given, vscode.l10n.t('Account to remove'));
  if (!account) return;
  const confirm = confirmed
    ? vscode.l10n.t('Remove')
    : await showWarning(
        vscode.l10n.t('Remove the account {0}? Its token is deleted from this machine.', account.label),
        { modal: true },
        vscode.l10n.t('Remove'),
      );
  if (confirm !== vscode.l10n.t('Remove')) return;
  await accounts.remove(account.id);
  void showInformation(vscode.l10n.t('Removed {0}.', account.label));
}

async function updateToken(accounts: AccountManager, given: AccountArgument): Promise<void> {
  const account = await accountTarget(accounts, given, vscode.l10n.t('Account whose token to update'));
  if (!account) return;
  const token = await askToken(account.serverUrl, account.tokenKind);
  if (!token) return;
  await withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Checking the new token with {0}…', account.serverUrl),
    },
    () => accounts.updateToken(account.id, token.trim()),
  );
  void showInformation(vscode.l10n.t('Token updated for {0}.', account.label));
}

async function actAs(
  accounts: AccountManager,
  given: AccountArgument,
  username: string | undefined,
): Promise<void> {
  const account = await accountTarget(
    accounts,
    given,
    vscode.l10n.t('Administrator account'),
    (candidate) => candidate.isAdmin,
  );
  if (!account) return;
  const current = accounts.sudoOf(account.id);
  const chosen =
    username ??
    (await askText({
      title: vscode.l10n.t('Act as another user on {0}', account.label),
      prompt: vscode.l10n.t(
        'User name or id to act as for this session; leave empty to act as yourself again',
      ),
      value: current ?? '',
      validateInput: (value) =>
        /^[\w.-]*$/.test(value.trim()) ? undefined : vscode.l10n.t('A user name or a numeric id'),
    }));
  if (chosen === undefined) return;
  const user = chosen.trim() || undefined;
  try {
    await withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Checking the user') },
      () => accounts.setSudo(account.id, user),
    );
  } catch (error) {
    void showError(
      vscode.l10n.t(
        'Could not act as {0} on {1}: {2} Check the user name; you still act as {3}.',
        user ?? 'yourself',
        account.label,
        describeError(error),
        current ?? 'yourself',
      ),
    );
    return;
  }
  const admin = accounts.actsAsAdmin(account);
  void showInformation(
    user
      ? admin
        ? vscode.l10n.t('Acting as {0} on {1} until VS Code restarts.', user, account.label)
        : vscode.l10n.t(
            'Acting as {0} on {1} until VS Code restarts (not an administrator: the Admin view is hidden until you act as yourself again).',
            user,
            account.label,
          )
      : vscode.l10n.t('Acting as yourself on {0}.', account.label),
  );
}

async function configureNetwork(
  accounts: AccountManager,
  given: AccountArgument,
  options: NetworkOptions | undefined,
): Promise<AccountNetwork | undefined> {
  const account = await accountTarget(
    accounts,
    given,
    vscode.l10n.t('Account'),
    (candidate) => !candidate.fromEnvironment,
  );
  if (!account) return undefined;
  const network = options
    ? await applyNetworkOptions(account.serverUrl, account.network, options)
    : await configureNetworkInteractively(account.label, account.serverUrl, account.network).then((chosen) =>
        chosen ? { network: chosen } : undefined,
      );
  if (!network) return undefined;
  if ('problem' in network) throw new InvalidInputError(network.problem);
  await accounts.updateNetwork(account.id, network.network);
  return network.network;
}

const ChangeServerOptionsSchema = z.strictObject({
  serverUrl: z.string().optional(),
  confirmPlainHttp: z.boolean().optional(),
});
type ChangeServerOptions = z.output<typeof ChangeServerOptionsSchema>;

/** Moves an account to its server's new address; the token is checked there first. */
async function changeServerAddress(
  accounts: AccountManager,
  given: AccountArgument,
  options: ChangeServerOptions | undefined,
): Promise<AccountInfo | undefined> {
  const account = await accountTarget(
    accounts,
    given,
    vscode.l10n.t('Account whose server address to change'),
    (candidate) => !candidate.fromEnvironment,
  );
  if (!account) return undefined;
  const serverUrl =
    options?.serverUrl ??
    (await askText({
      title: vscode.l10n.t('New address of {0}', account.label),
      prompt: vscode.l10n.t(
        'The server moved, or is reached another way: its new web address. The token stays.',
      ),
      value: account.serverUrl,
      validateInput: (value) => problemOf(checkServerUrl(value)),
    }));
  if (serverUrl === undefined || serverUrl.trim() === account.serverUrl) return undefined;
  const checked = checkServerUrl(serverUrl);
  if (!checked.ok) {
    void showError(
      vscode.l10n.t('{0} still connects to {1}: {2}.', account.label, account.serverUrl, checked.problem),
    );
    return undefined;
  }
  const network = await confirmPlainHttp(
    serverUrl.trim(),
    account.network,
    'token',
    options?.confirmPlainHttp === undefined ? undefined : () => options.confirmPlainHttp === true,
  );
  if (!network) return undefined;
  try {
    const moved = await withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Checking the token with {0}…', serverUrl.trim()),
      },
      () => accounts.changeServerUrl(account.id, serverUrl.trim(), network),
    );
    void showInformation(vscode.l10n.t('{0} now connects to {1}.', moved.label, moved.serverUrl));
    return moved;
  } catch (error) {
    void showError(
      vscode.l10n.t(
        '{0} still connects to {1}: {2}',
        account.label,
        account.serverUrl,
        describeSignInError(error, serverUrl.trim()),
      ),
    );
    return undefined;
  }
}
