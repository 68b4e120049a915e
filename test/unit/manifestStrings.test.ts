// Every user-facing string of the manifest is a %key% of package.nls.json, so that the extension can
// be translated (a package.nls.<locale>.json beside it); every key is used.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../support/projectRoot';

const root = projectRoot;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

/** Paths of the strings users read: top-level fields, and fields of contributions by name. */
const TOP_LEVEL = ['displayName', 'description'];
const SHOWN_FIELDS = new Set([
  'title',
  'name',
  'contextualTitle',
  'description',
  'markdownDescription',
  'contents',
  'category',
]);

function shownStrings(value: unknown, path: string, out: [string, string][]): void {
  if (Array.isArray(value)) {
    value.forEach((entry, index) => {
      if (path.endsWith('.enumDescriptions') && typeof entry === 'string')
        out.push([`${path}[${index}]`, entry]);
      else shownStrings(entry, `${path}[${index}]`, out);
    });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, entry] of Object.entries(value)) {
    const here = `${path}.${key}`;
    if (typeof entry === 'string' && SHOWN_FIELDS.has(key)) out.push([here, entry]);
    else shownStrings(entry, here, out);
  }
}

describe('manifest strings', () => {
  const strings: [string, string][] = TOP_LEVEL.map((field) => [field, String(manifest[field])]);
  shownStrings(manifest['contributes'], 'contributes', strings);

  it('are all %keys% of package.nls.json', () => {
    assert.ok(strings.length > 100, `${strings.length} strings found`);
    const literal = strings.filter(([, text]) => !/^%[\w.-]+%$/.test(text));
    assert.deepEqual(literal, [], 'strings written in package.json instead of package.nls.json');
    const missing = strings.filter(([, text]) => !(text.slice(1, -1) in nls));
    assert.deepEqual(missing, [], 'keys with no text in package.nls.json');
  });

  it('use every key of package.nls.json, and no key is empty', () => {
    const used = new Set(strings.map(([, text]) => text.slice(1, -1)));
    assert.deepEqual(
      Object.keys(nls).filter((key) => !used.has(key)),
      [],
    );
    assert.deepEqual(
      Object.entries(nls).filter(([, text]) => text.trim() === ''),
      [],
    );
  });

  it('ship with the extension, with the walkthrough pages', () => {
    const ignore = readFileSync(join(root, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!package\.nls\.json$/m);
    assert.match(ignore, /^!media\/walkthrough\/\*\.md$/m);
  });
});
