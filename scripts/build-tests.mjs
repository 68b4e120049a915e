// Bundles the host suites for running inside VS Code: test/host/index.ts and every
// test/host/**/*.test.ts become out/host/<same relative path>.js (Node, CJS, `vscode` and `mocha`
// external, source maps). The runner extension is plain JS and is copied as it is, not built.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const hostDir = join(root, 'test', 'host');
const outDir = join(root, 'out', 'host');

/** @param {string} dir @returns {string[]} */
function suites(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'runner-extension' ? [] : suites(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const entryPoints = [join(hostDir, 'index.ts'), ...suites(hostDir)].map((file) => ({
  in: file,
  out: relative(hostDir, file).replace(/\.ts$/, ''),
}));

rmSync(outDir, { recursive: true, force: true });
await esbuild.build({
  entryPoints,
  outdir: outDir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode', 'mocha'],
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`[build-tests] ${entryPoints.length} file(s) -> ${relative(root, outDir)}/`);
