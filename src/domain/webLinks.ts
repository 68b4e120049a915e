import * as l10n from '@vscode/l10n';
// Which links from a server may be opened: web links only. Pure, so every scheme is tested in Node.

export type WebLinkCheck = { ok: true; url: string } | { ok: false; reason: string };

const LONGEST_SHOWN = 200;

/** The link as it may be named in a message: a long one is cut, with an ellipsis. */
export function shownLink(link: string): string {
  return link.length > LONGEST_SHOWN ? `${link.slice(0, LONGEST_SHOWN)}…` : link;
}

/**
 * `http:` and `https:` links with a host and no user name or password are web links; anything else
 * (`file:`, `vscode:`, `command:`, `javascript:`, `ms-msdt:`, a custom protocol, a relative or broken
 * address) is not, and the reason says why.
 */
export function checkWebLink(link: string | null | undefined): WebLinkCheck {
  if (link === null || link === undefined || link.trim() === '') {
    return { ok: false, reason: l10n.t('the server sent no address') };
  }
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return { ok: false, reason: l10n.t('it is not a complete web address') };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      reason: l10n.t('only http and https links are opened, and this one is {0}', url.protocol),
    };
  }
  if (url.hostname === '') return { ok: false, reason: l10n.t('it names no host') };
  // `https://good.example@evil.example/` reads as the first host and goes to the second.
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: l10n.t('it carries a user name before the host, which hides where it goes') };
  }
  return { ok: true, url: url.href };
}
