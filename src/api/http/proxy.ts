// Which proxy a server is reached through: VS Code's `http.proxy`, else the environment's
// HTTPS_PROXY / HTTP_PROXY / ALL_PROXY; none for hosts that `http.noProxy` or NO_PROXY name.
import { isIpAddress } from './hostNames';

export interface ProxySources {
  /** VS Code's `http.proxy`. */
  httpProxy?: string | undefined;
  /** VS Code's `http.noProxy`: host names, `.domain` suffixes, `host:port`, `*`. */
  noProxy?: readonly string[] | undefined;
  /** The process environment (both spellings of each variable are read). */
  env?: Readonly<Record<string, string | undefined>>;
}

function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name] ?? env[name.toLowerCase()];
  return value && value.trim() !== '' ? value.trim() : undefined;
}

/** Whether `url` is excluded by one NO_PROXY entry (`*`, `host`, `.domain`, `*.domain`, `host:port`). */
function excludedBy(entry: string, url: URL): boolean {
  const rule = entry.trim().toLowerCase();
  if (rule === '') return false;
  if (rule === '*') return true;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const colon = rule.lastIndexOf(':');
  // A port follows the last colon of `host:port` or `[v6]:port`; a bare IPv6 address has colons too.
  const hostPart = rule.slice(0, colon);
  const hasPort =
    colon > 0 &&
    /^\d+$/.test(rule.slice(colon + 1)) &&
    (!hostPart.includes(':') || (hostPart.startsWith('[') && hostPart.endsWith(']')));
  const ruleHost = (hasPort ? hostPart : rule).replace(/^\[|\]$/g, '').replace(/^\*?\./, '');
  if (hasPort && rule.slice(colon + 1) !== port) return false;
  // An address is matched whole (as curl does): `.1` is no domain of 10.0.0.1.
  return host === ruleHost || (!isIpAddress(host) && host.endsWith(`.${ruleHost}`));
}

/** The proxy URL to reach `serverUrl` through, or undefined for a direct connection. */
export function selectProxy(serverUrl: string, sources: ProxySources): string | undefined {
  const url = new URL(serverUrl);
  const env = sources.env ?? {};
  const exclusions = [...(sources.noProxy ?? []), ...(envValue(env, 'NO_PROXY') ?? '').split(/[,\s]+/)];
  if (exclusions.some((entry) => excludedBy(entry, url))) return undefined;
  if (sources.httpProxy && sources.httpProxy.trim() !== '') return sources.httpProxy.trim();
  return (
    (url.protocol === 'https:' ? envValue(env, 'HTTPS_PROXY') : envValue(env, 'HTTP_PROXY')) ??
    envValue(env, 'ALL_PROXY')
  );
}
