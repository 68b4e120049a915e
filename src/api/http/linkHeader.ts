/**
 * Parses an RFC 8288 `Link` header into rel -> URL. Written as a single forward scan (no regex
 * with nested quantifiers) so hostile headers cannot make it backtrack.
 */
export function parseLinkHeader(header: string | undefined): Map<string, string> {
  const links = new Map<string, string>();
  if (!header) return links;
  let index = 0;
  const length = header.length;
  while (index < length) {
    const open = header.indexOf('<', index);
    if (open < 0) break;
    const close = header.indexOf('>', open + 1);
    if (close < 0) break;
    const target = header.slice(open + 1, close).trim();
    // Parameters run until the next comma that is outside quotes.
    let cursor = close + 1;
    let inQuotes = false;
    while (cursor < length) {
      const char = header[cursor];
      if (char === '"') inQuotes = !inQuotes;
      else if (char === ',' && !inQuotes) break;
      cursor++;
    }
    const params = header.slice(close + 1, cursor);
    for (const param of params.split(';')) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      if (param.slice(0, eq).trim().toLowerCase() !== 'rel') continue;
      const value = param
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
      for (const rel of value.split(/\s+/)) {
        if (rel && !links.has(rel.toLowerCase())) links.set(rel.toLowerCase(), target);
      }
    }
    index = cursor + 1;
  }
  return links;
}
