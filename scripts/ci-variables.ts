/*
 * Compares our list of predefined CI/CD variables (src/domain/ciPredefinedVariables.ts) with GitLab's
 * documentation page, doc/ci/variables/predefined_variables.md of gitlab-org/gitlab (download its raw
 * Markdown first). Prints the names GitLab added or removed and changed availabilities, and exits 1
 * when there are any; a new name then needs a row with a one-line description in our own words.
 *
 *   npm run ci:variables -- path/to/predefined_variables.md
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

interface PageVariable {
  name: string;
  availability: string;
}

const AVAILABILITY: Readonly<Record<string, string>> = {
  'pre-pipeline': 'pre-pipeline',
  pipeline: 'pipeline',
  'job-only': 'job',
};

/**
 * The variables of the page's tables: `| \`NAME\` | Availability | Description |` rows, and rows of
 * the merge request and external pull request tables (no availability column: pre-pipeline, as the
 * page says of them).
 */
export function parsePredefinedVariablesPage(markdown: string): PageVariable[] {
  const variables: PageVariable[] = [];
  for (const line of markdown.split(/\r?\n/)) {
    const cells = line.split('|').map((cell) => cell.trim());
    // ['', '`NAME`', ..., '']
    const match = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[1] ?? '');
    if (!match) continue;
    const availability = cells.length >= 5 ? AVAILABILITY[(cells[2] ?? '').toLowerCase()] : 'pre-pipeline';
    if (availability === undefined) continue;
    variables.push({ name: match[1] ?? '', availability });
  }
  return variables;
}

/** Our rows, read from the module's source: `['NAME', 'availability', ...`. */
export function readOurVariables(source: string): PageVariable[] {
  return [...source.matchAll(/\[\s*'([A-Z][A-Z0-9_]*)',\s*'([a-z-]+)'/g)].map((match) => ({
    name: match[1] ?? '',
    availability: match[2] ?? '',
  }));
}

export function compareVariables(
  page: readonly PageVariable[],
  ours: readonly PageVariable[],
): { added: string[]; removed: string[]; changed: string[] } {
  const oursByName = new Map(ours.map((variable) => [variable.name, variable]));
  const pageNames = new Set(page.map((variable) => variable.name));
  return {
    added: page.filter((variable) => !oursByName.has(variable.name)).map((variable) => variable.name),
    removed: ours.filter((variable) => !pageNames.has(variable.name)).map((variable) => variable.name),
    changed: page
      .filter((variable) => {
        const our = oursByName.get(variable.name);
        return our !== undefined && our.availability !== variable.availability;
      })
      .map(
        (variable) =>
          `${variable.name}: ${oursByName.get(variable.name)?.availability ?? ''} -> ${variable.availability}`,
      ),
  };
}

if (require.main === module) {
  const pagePath = process.argv[2];
  if (!pagePath) {
    console.error('usage: npm run ci:variables -- path/to/predefined_variables.md');
    process.exit(2);
  }
  const page = parsePredefinedVariablesPage(readFileSync(pagePath, 'utf8'));
  const ours = readOurVariables(
    readFileSync(path.join(__dirname, '..', 'src', 'domain', 'ciPredefinedVariables.ts'), 'utf8'),
  );
  const { added, removed, changed } = compareVariables(page, ours);
  console.log(`${page.length} variables on the page, ${ours.length} in our list.`);
  for (const name of added) console.log(`added by GitLab (describe it in our words): ${name}`);
  for (const name of removed) console.log(`no longer on the page: ${name}`);
  for (const line of changed) console.log(`availability changed: ${line}`);
  process.exit(added.length + removed.length + changed.length > 0 ? 1 : 0);
}
