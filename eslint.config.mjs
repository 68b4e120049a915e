// @ts-check
import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import regexp from 'eslint-plugin-regexp';

const pureLayers = ['src/api/**/*.ts', 'src/domain/**/*.ts', 'src/state/**/*.ts', 'src/text/**/*.ts'];

const zodImport = {
  selector:
    "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
  message: "Use `import * as z from 'zod'`: the `z` export drags all of zod (every locale) into the bundle.",
};

// Server text reaches the user through one door (src/platform/userMessages.ts), and server links
// open through one function (src/platform/serverLinks.ts): see docs/security.md.
const throughTheDoor =
  'Server text reaches the user only through src/platform/userMessages.ts, which makes it inert: use showInformation/showWarning/showError, withProgress, showStatusMessage, pickOne/pickMany/createSearchPick or askText.';
const messageApis = [
  'showInformationMessage',
  'showWarningMessage',
  'showErrorMessage',
  'withProgress',
  'setStatusBarMessage',
  'showQuickPick',
  'createQuickPick',
  'showInputBox',
  'createInputBox',
].map((property) => ({ property, message: throughTheDoor }));
const linkApis = [
  {
    property: 'openExternal',
    message:
      'Links open only through openServerLink (src/platform/serverLinks.ts), which lets http(s) links through and refuses the rest.',
  },
];
const vscodeOpen = {
  selector: "Literal[value='vscode.open']",
  message:
    'Open server links with openServerLink and local files with openLocalFile (src/platform/serverLinks.ts).',
};
const serverMarkdownDoor = {
  selector: "NewExpression[callee.property.name='MarkdownString']",
  message:
    'Server Markdown goes through serverMarkdown, tooltips through tooltipMarkdown (src/platform/serverMarkdown.ts): web links only, not trusted, server text never autolinked.',
};
const webviewHtmlDoor = {
  selector: "AssignmentExpression[left.property.name='html']",
  message:
    'A page is set only by PanelHost (src/webviews/shared/panelHost.ts) from webviewHtml: a strict CSP, and host text only as SafeHtml (escaped).',
};
const doors = [
  'src/platform/userMessages.ts',
  'src/platform/quickSteps.ts',
  'src/platform/serverLinks.ts',
  'src/platform/serverMarkdown.ts',
];

// What a webview page may import, relative to src/: each panel's app/ and protocol, the shared page
// code, and the pure domain.
const panelFeatures = readdirSync('src/features').filter((feature) =>
  existsSync(`src/features/${feature}/panel`),
);
const pageSide = [
  './domain',
  './types',
  './webviews/shared/app',
  './webviews/shared/pageMessages.ts',
  './webviews/shared/discussionTypes.ts',
  './webviews/shared/restoreKey.ts',
  ...panelFeatures.flatMap((feature) => [
    `./features/${feature}/panel/app`,
    `./features/${feature}/panel/protocol.ts`,
  ]),
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      '.cache/**',
      'test-results/**',
      'out/**',
      'test/fixtures/**',
      'reports/**',
      '.stryker-tmp/**',
      '*.vsix',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', zodImport],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: doors,
    rules: {
      'no-restricted-properties': ['error', ...messageApis, ...linkApis],
      'no-restricted-syntax': ['error', zodImport, vscodeOpen, serverMarkdownDoor, webviewHtmlDoor],
    },
  },
  {
    // The one place a webview's HTML is set.
    files: ['src/webviews/shared/panelHost.ts'],
    rules: {
      'no-restricted-syntax': ['error', zodImport, vscodeOpen, serverMarkdownDoor],
    },
  },
  {
    // Budgets a newcomer can read (issue 21): a file, a function. Blank lines and comments are free.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Every regex applied to server text runs in linear time (design.md section 6): the static check
    // here, the run-time guard in test/unit/security/linearTime.test.ts.
    files: ['src/**/*.ts'],
    plugins: { regexp },
    rules: { 'regexp/no-super-linear-backtracking': 'error' },
  },
  {
    // Import loops are how layers rot (issue 21): none at run time (type-only imports are erased).
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // A webview page runs in the browser: it may import other page code, the panel's protocol, the
    // shared page helpers and the pure domain, never the extension host's modules.
    files: ['src/**/app/**/*.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'Webview pages run in the browser: no vscode.' }],
          patterns: [{ regex: '^node:', message: 'Webview pages run in the browser: no Node modules.' }],
        },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/**/app/**',
              from: './src',
              except: pageSide,
              message: 'Webview pages import only page-side code (app/, the panel protocol, src/domain).',
            },
          ],
        },
      ],
    },
  },
  {
    files: pureLayers,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'src/api, src/domain and src/state are pure layers: no vscode.' },
          ],
        },
      ],
    },
  },
  {
    // Dependencies point down: the domain and the text helpers never lean on the HTTP layer.
    files: ['src/domain/**/*.ts', 'src/text/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'src/api, src/domain and src/state are pure layers: no vscode.' },
          ],
          patterns: [
            {
              group: ['**/api/http', '**/api/http/*'],
              message:
                'src/domain and src/text sit above nothing of the HTTP layer; shared text helpers are in src/text.',
            },
          ],
        },
      ],
    },
  },
  {
    // The runner loads the compiled host suites from a path known only at run time (FORGE_HOST_TESTS).
    files: ['test/host/runner-extension/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', setTimeout: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  {
    // Mocha loads a reporter with require(): the UI tests' reporter is CommonJS.
    files: ['test/e2e/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
