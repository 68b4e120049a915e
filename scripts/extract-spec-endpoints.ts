// Regenerates test/fixtures/spec/project-hosting-endpoints.json from ../shared (when the spec changes).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractSpecEndpoints } from '../test/support/specEndpoints';

const root = join(__dirname, '..');
const spec = readFileSync(join(root, '..', 'shared', 'spec', 'project-hosting-api-v4.md'), 'utf8');
const endpoints = extractSpecEndpoints(spec);
writeFileSync(
  join(root, 'test', 'fixtures', 'spec', 'project-hosting-endpoints.json'),
  `${JSON.stringify(endpoints, null, 2)}\n`,
);
console.log(`${endpoints.length} endpoints written`);
