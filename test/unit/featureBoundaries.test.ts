// A feature folder's index.ts is its only public face, and the pure layers never reach a feature.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { projectRoot } from '../support/projectRoot';

const root = projectRoot;
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative import names, as a path under src/ ('features/todos/index.ts'). */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base])
    if (existsSync(candidate) && statSync(candidate).isFile())
      return relative(src, candidate).split(sep).join('/');
  return undefined;
}

function importsOf(file: string): { specifier: string; target: string }[] {
  const text = readFileSync(file, 'utf8');
  const found: { specifier: string; target: string }[] = [];
  for (const match of text.matchAll(
    /(?:^|\n)\s*(?:import|export)[^'"]*?from\s*'(\.[^']+)'|import\('(\.[^']+)'\)/g,
  )) {
    const specifier = match[1] ?? match[2];
    if (!specifier) continue;
    const target = resolveImport(file, specifier);
    if (target) found.push({ specifier, target });
  }
  return found;
}

const featureOf = (path: string): string | undefined => /^features\/([^/]+)\//.exec(path)?.[1];

describe('feature boundaries', () => {
  const files = sourceFiles(src).map((file) => ({ file, path: relative(src, file).split(sep).join('/') }));

  it('finds the features and their imports (the check below has something to check)', () => {
    assert.ok(files.some(({ path }) => path === 'features/todos/index.ts'));
    assert.ok(files.some(({ file }) => importsOf(file).some(({ target }) => featureOf(target) === 'todos')));
  });

  it('reaches a feature from outside only through its index.ts', () => {
    const breaches = files.flatMap(({ file, path }) =>
      importsOf(file)
        .filter(({ target }) => {
          const feature = featureOf(target);
          return (
            feature !== undefined && feature !== featureOf(path) && target !== `features/${feature}/index.ts`
          );
        })
        .map(({ specifier }) => `${path} imports ${specifier}`),
    );
    assert.deepEqual(breaches, []);
  });

  it('keeps src/api, src/domain, src/state and src/text free of features, views and platform code', () => {
    const breaches = files
      .filter(({ path }) => /^(api|domain|state|text)\//.test(path))
      .flatMap(({ file, path }) =>
        importsOf(file)
          .filter(({ target }) => !/^(api|domain|state|text|types)\//.test(target))
          .map(({ specifier }) => `${path} imports ${specifier}`),
      );
    assert.deepEqual(breaches, []);
  });

  it('has our modules call each other directly, never through executeCommand of a forge command', () => {
    const detours = files.flatMap(({ file, path }) =>
      [...readFileSync(file, 'utf8').matchAll(/executeCommand(?:<[^>]*>)?\(\s*'(forge\.[^']+)'/g)].map(
        (match) => `${path} runs ${match[1]}`,
      ),
    );
    assert.deepEqual(detours, []);
  });

  it('keeps src/text at the bottom: it imports no other layer', () => {
    const breaches = files
      .filter(({ path }) => path.startsWith('text/'))
      .flatMap(({ file, path }) =>
        importsOf(file)
          .filter(({ target }) => !target.startsWith('text/'))
          .map(({ specifier }) => `${path} imports ${specifier}`),
      );
    assert.deepEqual(breaches, []);
  });
});
