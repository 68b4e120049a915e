/*
 * The one function that opens links: web links from a server (`web_url`, `target_url`, avatars,
 * channel addresses) in the browser, after `checkWebLink` let them through, and our own local files
 * in an editor. Lint forbids `openExternal` and `vscode.open` anywhere else (eslint.config.mjs).
 */
import * as vscode from 'vscode';
import { checkWebLink, shownLink } from '../domain/webLinks';
import { showError } from './userMessages';

/**
 * Opens a server's link in the browser when it is an http(s) link; otherwise says which link was
 * refused and why. `what` names it for the user ("the merge request's web page"). Resolves with
 * whether the browser was asked to open it.
 */
export async function openServerLink(link: string | null | undefined, what: string): Promise<boolean> {
  const check = checkWebLink(link);
  if (!check.ok) {
    void showError(
      link
        ? vscode.l10n.t('Did not open {0} "{1}": {2}.', what, shownLink(link), check.reason)
        : vscode.l10n.t('Cannot open {0}: {1}.', what, check.reason),
    );
    return false;
  }
  // `true`: the address is already encoded as the server sent it; do not encode it twice.
  return vscode.env.openExternal(vscode.Uri.parse(check.url, true));
}

/** Opens a file we wrote (a download, an export) in an editor. */
export async function openLocalFile(path: string): Promise<void> {
  await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(path));
}
