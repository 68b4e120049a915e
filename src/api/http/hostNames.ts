/**
 * Whether a URL's host name is an IP address (`127.0.0.1`, `[::1]` or `::1`) rather than a name:
 * an address is never sent as the TLS server name (RFC 6066) and never matched by its end.
 * A WHATWG URL turns a name whose last label is a number into an IPv4 address, so a name that is
 * digits and dots only is an address.
 */
export function isIpAddress(hostname: string): boolean {
  return hostname.includes(':') || /^[\d.]+$/.test(hostname);
}
