// Every command a user can run is run by a test in a real VS Code (test/host or test/e2e): three
// commands once had none, and nothing said so.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../support/projectRoot';

const root = projectRoot;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[] };
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [readFileSync(join(dir, entry.name), 'utf8')]
        : [],
  );
}

describe('commands run by tests in VS Code', () => {
  it('runs every contributed command in a host or UI test', () => {
    const tests = [...sources(join(root, 'test', 'host')), ...sources(join(root, 'test', 'e2e'))].join('\n');
    const ids = manifest.contributes.commands.map((each) => each.command);
    assert.ok(ids.length > 100);
    const untested = ids.filter(
      (id) => !["'", '"', '`'].some((quote) => tests.includes(`${quote}${id}${quote}`)),
    );
    assert.deepEqual(untested, []);
  });
});
