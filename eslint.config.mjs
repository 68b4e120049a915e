// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const pureLayers = ['src/api/**/*.ts', 'src/domain/**/*.ts', 'src/state/**/*.ts'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', '.cache/**', 'test-results/**', 'test/fixtures/**', '*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: pureLayers,
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/api, src/domain and src/state are pure layers: no vscode.' }] },
      ],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
