import { trimEndOf } from '../text/linearText';
import * as l10n from '@vscode/l10n';
/** Normalises what a person typed as the server address, or says what is wrong with it. */
export function normalizeServerUrl(input: string): { url: string } | { problem: string } {
  const trimmed = input.trim();
  if (trimmed === '')
    return { problem: l10n.t('Enter the address of the server, e.g. https://gitlab.example.com') };
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    return { problem: l10n.t('"{0}" is not a valid address', trimmed) };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { problem: l10n.t('The address must start with https:// or http://') };
  }
  if (url.username || url.password)
    return { problem: l10n.t('Leave the user name and password out of the address') };
  if (url.search || url.hash)
    return { problem: l10n.t('Leave query parameters and fragments out of the address') };
  const path = trimEndOf(url.pathname, '/').replace(/\/api\/v4$/, '');
  return { url: `${url.origin}${path}` };
}
