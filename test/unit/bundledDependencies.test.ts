// Every library the bundles carry is a production dependency, so an audit of production
// dependencies (`npm audit --omit=dev`) sees what users run (docs/security.md).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../support/projectRoot';

const root = projectRoot;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? specifier);
}

describe('bundled libraries', () => {
  it('are listed under dependencies, and nothing only tests use is', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const imported = new Set<string>();
    for (const file of sourceFiles(join(root, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s+'([^'.][^']*)'/g)) {
        const specifier = match[1] ?? '';
        if (specifier === 'vscode' || specifier.startsWith('node:') || builtinModules.includes(specifier))
          continue;
        // esbuild.mjs bundles `worker:<path>` imports of our own code on their own.
        if (specifier.startsWith('worker:')) continue;
        imported.add(packageOf(specifier));
      }
    }
    // The codicon font is copied into the bundle by esbuild.mjs, not imported.
    imported.add('@vscode/codicons');
    assert.deepEqual([...imported].sort(), Object.keys(manifest.dependencies).sort());
  });
});
