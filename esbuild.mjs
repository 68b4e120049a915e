// Bundles the extension (Node, `vscode` external) and the webview apps (browser IIFEs).
// `--production` minifies and drops source maps; `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/**
 * undici loads on the first request, not at activation: the extension bundle leaves
 * `./undiciRuntime.js` to be required at run time, and it is built as its own file next to it.
 * @type {import('esbuild').Plugin}
 */
const lazyUndici = {
  name: 'lazy-undici',
  setup(build) {
    build.onResolve({ filter: /^\.\/undiciRuntime(\.js)?$/ }, () => ({
      path: './undiciRuntime.js',
      external: true,
    }));
  },
};

/** @type {import('esbuild').BuildOptions} */
const undiciRuntime = {
  entryPoints: ['src/api/http/undiciRuntime.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/undiciRuntime.js',
  minify: production,
  sourcemap: !production,
  logLevel: 'info',
};

/**
 * The entry VS Code loads at activation stays small: the rest of the extension (`src/core.ts`) is
 * built as dist/core.js and required on first use.
 * @type {import('esbuild').Plugin}
 */
const lazyCore = {
  name: 'lazy-core',
  setup(build) {
    build.onResolve({ filter: /^\.\/core$/ }, (args) =>
      args.importer.endsWith(join('src', 'extension.ts')) ? { path: './core.js', external: true } : undefined,
    );
  },
};

/** @type {import('esbuild').BuildOptions} */
const extension = {
  entryPoints: ['src/extension.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/extension.js',
  external: ['vscode'],
  plugins: [lazyCore],
  minify: production,
  sourcemap: !production,
  metafile: true,
  logLevel: 'info',
};

/** @type {import('esbuild').BuildOptions} */
const core = {
  entryPoints: ['src/core.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/core.js',
  external: ['vscode'],
  plugins: [lazyUndici],
  minify: production,
  sourcemap: !production,
  metafile: true,
  logLevel: 'info',
};

/**
 * The CI file's checks as typed run on a thread of their own in the extension host
 * (`src/features/ciConfig/ciCheckThread.ts` starts dist/ciCheckWorker.js).
 * @type {import('esbuild').BuildOptions}
 */
const ciCheckWorker = {
  entryPoints: ['src/features/ciConfig/ciCheckWorker.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/ciCheckWorker.js',
  minify: production,
  sourcemap: !production,
  logLevel: 'info',
};

/**
 * `import source from 'worker:./traceWorker'` bundles that module on its own and gives its code as
 * a string: webviews start workers only from blob: or data: URLs, not from the extension's files.
 * @type {import('esbuild').Plugin}
 */
const workerSource = {
  name: 'worker-source',
  setup(build) {
    build.onResolve({ filter: /^worker:/ }, (args) => ({
      path: join(args.resolveDir, `${args.path.slice('worker:'.length)}.ts`),
      namespace: 'worker-source',
    }));
    build.onLoad({ filter: /.*/, namespace: 'worker-source' }, async (args) => {
      const result = await esbuild.build({
        entryPoints: [args.path],
        bundle: true,
        platform: 'browser',
        target: 'es2022',
        format: 'iife',
        write: false,
        minify: production,
        metafile: true,
        logLevel: 'warning',
      });
      const code = result.outputFiles[0]?.text ?? '';
      return {
        contents: `export default ${JSON.stringify(code)};`,
        loader: 'js',
        watchFiles: Object.keys(result.metafile.inputs).map((input) => join(process.cwd(), input)),
      };
    });
  },
};

// A feature's panel, src/features/<feature>/panel/app/main.ts, becomes dist/webviews/<feature>.js.
const featureRoot = 'src/features';
/** @param {string} feature */
const panelApp = (feature) => join(featureRoot, feature, 'panel', 'app', 'main.ts');
const webviewEntries = readdirSync(featureRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(panelApp(entry.name)))
  .map((entry) => ({ in: panelApp(entry.name), out: entry.name }));

/** @type {import('esbuild').BuildOptions} */
const webviews = {
  entryPoints: webviewEntries,
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  format: 'iife',
  outdir: 'dist/webviews',
  minify: production,
  sourcemap: !production,
  // The codicon font is copied next to its stylesheet below; pages load it from there.
  external: ['*.ttf'],
  plugins: [workerSource],
  logLevel: 'info',
};

// vscode-icon finds the codicon stylesheet by id: the page shell links dist/webviews/codicon.css.
function copyCodicons() {
  mkdirSync('dist/webviews', { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) {
    copyFileSync(join('node_modules/@vscode/codicons/dist', file), join('dist/webviews', file));
  }
}

if (webviewEntries.length > 0) copyCodicons();

const builds =
  webviewEntries.length > 0
    ? [extension, core, undiciRuntime, ciCheckWorker, webviews]
    : [extension, core, undiciRuntime, ciCheckWorker];

if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
