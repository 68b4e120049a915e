import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { projectPath, projectRoot } from '../support/projectRoot';

/** Every `.ts` file below `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * A path built from `__dirname` that does not lead into a fixtures folder: in a mutation run it would
 * read Stryker's instrumented copy of the project instead of the sources as written.
 */
export function pathsAroundProjectRoot(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\b__dirname\s*[,)]/g)) {
    const call = text.slice(match.index, text.indexOf(')', match.index) + 1);
    if (!call.includes("'fixtures'") && !/[/\\]fixtures\b/.test(call)) found.push(call.replace(/\s+/g, ' '));
  }
  return found;
}

describe('unit tests find the project through projectRoot', () => {
  it('no unit test builds a path to the project from __dirname (a mutation run would read instrumented sources)', () => {
    const self = projectPath('test', 'unit', 'projectRoot.test.ts');
    const scanned = sources(projectPath('test', 'unit')).filter((file) => file !== self);
    assert.ok(scanned.length > 100, `${scanned.length} files`);
    const offenders = scanned.flatMap((file) =>
      pathsAroundProjectRoot(readFileSync(file, 'utf8')).map(
        (call) => `${relative(projectRoot, file)}: ${call}`,
      ),
    );
    assert.deepEqual(offenders, []);
  });

  it('tells a path into the fixtures from one to the sources', () => {
    assert.deepEqual(pathsAroundProjectRoot("join(__dirname, '..', 'fixtures', 'a.json')"), []);
    assert.deepEqual(pathsAroundProjectRoot("const root = join(__dirname, '..', '..');"), [
      "__dirname, '..', '..')",
    ]);
  });

  it('is the root the sandbox was copied from when the tests run in Stryker’s sandbox', () => {
    assert.ok(!projectRoot.includes(`${sep}.stryker-tmp${sep}`), projectRoot);
    assert.ok(readFileSync(projectPath('package.json'), 'utf8').includes('"forge-workbench"'));
  });
});
