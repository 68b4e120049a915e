// A merge request's rows (the merge request, its Changes folder and files) show in two views: the
// Merge Requests view and a project's Merge Requests folder in the Projects view. A row's menu must be
// the same in both, so no row menu entry may name only the first (its notes, shown only there today,
// keep the same rule so that showing them in both needs no menu change).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../support/projectRoot';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}

const root = projectRoot;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { menus: Record<string, MenuEntry[]> };
};
const rowMenus = manifest.contributes.menus['view/item/context'] ?? [];

describe('row menus shared by the Projects and Merge Requests views', () => {
  it('has row menus to check', () => {
    assert.ok(rowMenus.length > 50);
  });

  it('names both views wherever it names the Merge Requests view', () => {
    const onlyOneView = rowMenus.filter((entry) => /\bview == forge\.mergeRequests\b/.test(entry.when ?? ''));
    assert.deepEqual(
      onlyOneView.map((entry) => `${entry.command} (${entry.group ?? ''})`),
      [],
    );
  });
});
