// Type-aware lint for src/, test/, bench/ and scripts/: every promise awaited or handled, no promise where
// a callback's result is ignored, exhaustive switches over unions. Formatting is Prettier's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const rules = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': 'error',
  // A `default:` does not make a switch over a union exhaustive: a new member (a task outcome, say)
  // must be named where it is shown, or the lint fails.
  '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: false }],
  '@typescript-eslint/await-thenable': 'error',
  '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
  '@typescript-eslint/no-explicit-any': 'error',
  'no-control-regex': 'off',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/.out/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    ignores: ['src/ui/web/**'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.test.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules,
  },
  // The dashboard's front end: its own tsconfig (DOM, JSX), the same rules.
  {
    files: ['src/ui/web/**/*.ts', 'src/ui/web/**/*.tsx'],
    languageOptions: {
      parserOptions: { project: ['./src/ui/web/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules,
  },
  // Switches over open sets, where `default:` is the point: the SDK's dozen server-tool block types,
  // node's parser error codes, transcript origins that carry no statement, unknown spawner lines.
  {
    files: ['src/agent/context/history.ts', 'src/llm/tokens.ts', 'src/daemon/server.ts', 'src/memory/candidates/collect.ts', 'src/tasks/spawner/report.ts'],
    rules: { '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }] },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' } },
  },
);
