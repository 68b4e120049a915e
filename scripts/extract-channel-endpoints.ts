// Regenerates test/fixtures/spec/channel-endpoints.json from ../shared (when the channel spec changes):
//   npx tsx scripts/extract-channel-endpoints.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ChannelSpecEndpoint {
  /** `Endpoints` for rows of the endpoint table, `Named endpoints` for the list without details. */
  section: 'Endpoints' | 'Named endpoints';
  /** As the spec gives it, or `not shown`. */
  method: string;
  /** Under `/api/z/1.0`, with a leading slash. */
  path: string;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'not shown']);
const NAMED_LIST = 'Named endpoints without stated parameters or replies:';

/** Splits `a (x, y), b (z)` on the commas outside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/**
 * Reads the channel spec (markdown): every row of the table under `## Endpoints`, then every name of
 * the paragraph that lists the endpoints whose parameters and replies are not shown.
 */
export function extractChannelEndpoints(markdown: string): ChannelSpecEndpoint[] {
  const start = markdown.indexOf('\n## Endpoints');
  if (start < 0) throw new Error('The spec has no "## Endpoints" section');
  const rest = markdown.slice(start + 1);
  const end = rest.indexOf('\n## ', 3);
  const section = end < 0 ? rest : rest.slice(0, end);
  const endpoints: ChannelSpecEndpoint[] = [];

  let inTable = true;
  for (const line of section.split('\n')) {
    if (line.startsWith('### ')) inTable = false;
    if (!inTable) continue;
    const row = /^\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|/.exec(line);
    if (!row?.[1] || !row[2] || !METHODS.has(row[1])) continue;
    endpoints.push({ section: 'Endpoints', method: row[1], path: `/${row[2].replace(/`/g, '').trim()}` });
  }

  const listStart = section.indexOf(NAMED_LIST);
  if (listStart < 0) throw new Error(`The spec has no "${NAMED_LIST}" paragraph`);
  const afterColon = section.slice(listStart + NAMED_LIST.length);
  // The list ends at the first full stop outside parentheses.
  let depth = 0;
  let stop = afterColon.length;
  for (let index = 0; index < afterColon.length; index++) {
    const char = afterColon[index];
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (char === '.' && depth === 0) {
      stop = index;
      break;
    }
  }
  for (const entry of splitTopLevel(afterColon.slice(0, stop))) {
    const name = entry.replace(/\(.*$/s, '').replace(/`/g, '').trim();
    if (name) endpoints.push({ section: 'Named endpoints', method: 'not shown', path: `/${name}` });
  }
  return endpoints;
}

if (require.main === module) {
  const root = join(__dirname, '..');
  const spec = readFileSync(join(root, '..', 'shared', 'spec', 'channel-api-z1.md'), 'utf8');
  const endpoints = extractChannelEndpoints(spec);
  writeFileSync(
    join(root, 'test', 'fixtures', 'spec', 'channel-endpoints.json'),
    `${JSON.stringify(endpoints, null, 2)}\n`,
  );
  console.log(`${endpoints.length} channel endpoints written`);
}
