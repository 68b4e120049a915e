/**
 * Reads the endpoint tables of the project-hosting spec (markdown) and writes shorthand rows out
 * in full, so the registry can be checked row by row.
 */
export interface SpecEndpoint {
  section: string;
  method: string;
  path: string;
}

const NOTE_PARENTS = [
  '/projects/:id/issues/:issue_iid',
  '/projects/:id/snippets/:snippet_id',
  '/projects/:id/merge_requests/:merge_request_iid',
];
// The spec names issue notes and states the same pattern works for merge request notes.
const AWARD_PARENTS = [
  ...NOTE_PARENTS,
  '/projects/:id/issues/:issue_iid/notes/:note_id',
  '/projects/:id/merge_requests/:merge_request_iid/notes/:note_id',
];
const MERGE_REQUESTS = '/projects/:id/merge_requests';

export function extractSpecEndpoints(markdown: string): SpecEndpoint[] {
  const endpointsStart = markdown.indexOf('\n## Endpoints');
  if (endpointsStart < 0) throw new Error('The spec has no "## Endpoints" section');
  const rest = markdown.slice(endpointsStart + 1);
  const nextTopSection = rest.indexOf('\n## ', 3);
  const body = nextTopSection < 0 ? rest : rest.slice(0, nextTopSection);
  const endpoints: SpecEndpoint[] = [];
  let section = '';
  for (const line of body.split('\n')) {
    const heading = /^### (.+)$/.exec(line);
    if (heading?.[1]) {
      section = heading[1].trim();
      continue;
    }
    const row = /^\|\s*(GET|POST|PUT|DELETE|PATCH|HEAD)\s*\|\s*([^|\s]+)\s*\|/.exec(line);
    if (!row?.[1] || !row[2]) continue;
    const method = row[1];
    const path = row[2].replace(/`/g, '');
    for (const full of expand(section, path)) endpoints.push({ section, method, path: full });
  }
  return endpoints;
}

function expand(section: string, path: string): string[] {
  if (path.startsWith('.../')) return [`${MERGE_REQUESTS}/${path.slice(4)}`];
  if (section === 'Notes') return NOTE_PARENTS.map((parent) => `${parent}${path}`);
  if (section === 'Award emoji') return AWARD_PARENTS.map((parent) => `${parent}${path}`);
  return [path];
}
