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

/** The regex syntax characters, escaped to match themselves. */
function literal(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** A hex number as a pattern that matches it in upper or lower case, `width` digits. */
function hexPattern(value: number, width: number): string {
  return [...value.toString(16).padStart(width, '0')]
    .map((digit) => (/[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit))
    .join('');
}

/**
 * Every spelling of one character a server may echo: as it is, JSON-escaped (`\/`, `\"`, `\\`,
 * `\u0061`, surrogate pairs as two escapes), percent-encoded (`%2F`, `%c3%a9`, `+` for a space).
 */
function characterSpellings(char: string): string {
  const spellings = [literal(char)];
  // One `\\uXXXX` per UTF-16 unit: a character outside the BMP is two escapes in a row.
  spellings.push(
    Array.from({ length: char.length }, (_, index) => `\\\\u${hexPattern(char.charCodeAt(index), 4)}`).join(
      '',
    ),
  );
  if (char === '/' || char === '"' || char === '\\') spellings.push(`\\\\${literal(char)}`);
  const escapes: Record<string, string> = { '\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f' };
  if (escapes[char]) spellings.push(`\\\\${escapes[char]}`);
  spellings.push([...UTF8.encode(char)].map((byte) => `%${hexPattern(byte, 2)}`).join(''));
  if (char === ' ') spellings.push('\\+');
  return `(?:${spellings.join('|')})`;
}

const UTF8 = new TextEncoder();
const patterns = new Map<string, RegExp>();
const MAX_PATTERNS = 64;

/** A pattern for a secret in any of its spellings; each character has a fixed set, so it runs in linear time. */
function secretPattern(secret: string): RegExp {
  let pattern = patterns.get(secret);
  if (!pattern) {
    pattern = new RegExp([...secret].map(characterSpellings).join(''), 'g');
    patterns.set(secret, pattern);
    if (patterns.size > MAX_PATTERNS) {
      const oldest = patterns.keys().next();
      if (oldest.done !== true) patterns.delete(oldest.value);
    }
  }
  pattern.lastIndex = 0;
  return pattern;
}

/**
 * Removes known secrets, whatever their length, in every spelling a server may echo them (raw,
 * JSON-escaped, percent-encoded), and secret-looking query parameters, from a text.
 */
export function redact(text: string, secrets: Iterable<string> = []): string {
  let out = text.replace(SECRET_QUERY_PARAMS, `$1${REDACTED}`);
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    out = out.split(secret).join(REDACTED).replace(secretPattern(secret), REDACTED);
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
