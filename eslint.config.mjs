// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const pureLayers = ['src/api/**/*.ts', 'src/domain/**/*.ts', 'src/state/**/*.ts'];

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
const doors = ['src/platform/userMessages.ts', 'src/platform/serverLinks.ts'];

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
      'no-restricted-syntax': ['error', zodImport, vscodeOpen],
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
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
