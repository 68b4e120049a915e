import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CHANNEL_API_PREFIX,
  CHANNEL_ENDPOINTS,
  type ChannelEndpointDefinition,
  channelEndpointLabel,
} from '../../../src/api/channel/endpoints';
import {
  type ChannelSpecEndpoint,
  extractChannelEndpoints,
} from '../../../scripts/extract-channel-endpoints';
import { projectRoot } from '../../support/projectRoot';

const root = projectRoot;
const specEndpoints = JSON.parse(
  readFileSync(join(root, 'test', 'fixtures', 'spec', 'channel-endpoints.json'), 'utf8'),
) as ChannelSpecEndpoint[];
const sharedSpecPath = join(root, '..', 'shared', 'spec', 'channel-api-z1.md');
const definitions: [string, ChannelEndpointDefinition][] = Object.entries(CHANNEL_ENDPOINTS);

function matches(entry: ChannelEndpointDefinition, row: ChannelSpecEndpoint): boolean {
  return entry.path === row.path && entry.specMethod === row.method;
}

describe('channel endpoint registry', () => {
  it('lists the 8 table rows and the 11 named endpoints of the spec', () => {
    assert.equal(specEndpoints.filter((row) => row.section === 'Endpoints').length, 8);
    assert.equal(specEndpoints.filter((row) => row.section === 'Named endpoints').length, 11);
  });

  it('has an entry for every endpoint the spec names', () => {
    const missing = specEndpoints.filter((row) => !definitions.some(([, entry]) => matches(entry, row)));
    assert.deepEqual(missing, [], `spec endpoints without a registry entry: ${JSON.stringify(missing)}`);
  });

  it('has no entry that is not in the spec (one entry per endpoint)', () => {
    const extra = definitions.filter(([, entry]) => !specEndpoints.some((row) => matches(entry, row)));
    assert.deepEqual(
      extra.map(([id]) => id),
      [],
    );
    assert.equal(definitions.length, specEndpoints.length);
    assert.equal(new Set(definitions.map(([, entry]) => entry.path)).size, definitions.length);
  });

  it('uses the method the spec states, and explains every method it had to choose', () => {
    for (const [id, entry] of definitions) {
      if (entry.specMethod === 'not shown') {
        assert.ok(entry.note, `${id}: the spec shows no method, so the entry needs a note`);
        assert.equal(entry.method, 'GET', `${id}: reads without a stated method go as GET`);
      } else {
        assert.equal(entry.method, entry.specMethod, id);
      }
    }
    assert.equal(CHANNEL_ENDPOINTS['items.update'].method, 'POST');
  });

  it('keeps paths relative to /api/z/1.0 and names endpoints by method and path', () => {
    assert.equal(CHANNEL_API_PREFIX, '/api/z/1.0');
    for (const [, entry] of definitions) {
      assert.match(entry.path, /^\/[a-z_]+(\/[a-z_]+)*$/);
      assert.ok(!entry.path.startsWith('/api/'), entry.path);
    }
    assert.equal(channelEndpointLabel('files.data'), 'GET /filedata');
    assert.equal(channelEndpointLabel('items.update'), 'POST /item/update');
  });

  if (existsSync(sharedSpecPath)) {
    it('matches the endpoint list of the spec in ../shared', () => {
      assert.deepEqual(extractChannelEndpoints(readFileSync(sharedSpecPath, 'utf8')), specEndpoints);
    });
  }
});

describe('extractChannelEndpoints', () => {
  const sample = [
    '# Channel API',
    '',
    '## Endpoints',
    '',
    '| Method | Path | Parameters | Response |',
    '|---|---|---|---|',
    '| GET | files | `start` (integer) | {success, results} |',
    '| not shown | channel/export/basic | `sections` (a, b) | data |',
    '',
    '### item/update inputs',
    '',
    '| Field | Type | Required |',
    '|---|---|---|',
    '| body | text | yes |',
    '',
    'Named endpoints without stated parameters or replies: channel/stream (fetch, with dates), filemeta (export file metadata). Parameters: not shown.',
    '',
    '## Authentication',
    '',
    '| GET | not/an/endpoint | x | y |',
  ].join('\n');

  it('reads the table rows and the named list, and nothing after the section', () => {
    assert.deepEqual(extractChannelEndpoints(sample), [
      { section: 'Endpoints', method: 'GET', path: '/files' },
      { section: 'Endpoints', method: 'not shown', path: '/channel/export/basic' },
      { section: 'Named endpoints', method: 'not shown', path: '/channel/stream' },
      { section: 'Named endpoints', method: 'not shown', path: '/filemeta' },
    ]);
  });

  it('fails loudly when the spec loses its endpoint section', () => {
    assert.throws(() => extractChannelEndpoints('# nothing here'), /no "## Endpoints" section/);
  });
});
