/** Keeps secrets out of anything a person or a log can see. */

const SECRET_QUERY_PARAMS = /([?&](?:private_token|access_token|token|password)=)[^&#\s]*/gi;
const SECRET_HEADERS = new Set([
  'private-token',
  'authorization',
  'cookie',
  'set-cookie',
  'proxy-authorization',
]);

export const REDACTED = '«redacted»';

/** Removes known secrets and secret-looking query parameters from a text. */
export function redact(text: string, secrets: Iterable<string> = []): string {
  let out = text.replace(SECRET_QUERY_PARAMS, `$1${REDACTED}`);
  for (const secret of secrets) {
    // Very short values would blank out ordinary words; real tokens are long.
    if (secret.length >= 6) out = out.split(secret).join(REDACTED);
  }
  return out;
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : value;
  }
  return out;
}

/** A URL's path without its query string, safe to show in an error. */
export function pathForDisplay(url: URL, apiRoot: URL): string {
  // apiRoot ends with '/'; keep that slash as the start of the shown path.
  return url.origin === apiRoot.origin && url.pathname.startsWith(apiRoot.pathname)
    ? url.pathname.slice(apiRoot.pathname.length - 1)
    : `${url.origin}${url.pathname}`;
}
