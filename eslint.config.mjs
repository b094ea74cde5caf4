// Lint of the hand-written TypeScript: a few type-aware rules, and the layering of the packages (README, "Layout").
// Generated code is the generator's to get right and is not linted; formatting is not this file's business.
import tseslint from 'typescript-eslint';

const BACKENDS = ['@tongate/devnet', '@tongate/liteserver', '@tongate/indexer'];

/** Imports no file may make: another package's sources by path (a package is used through its exports). */
const BY_PATH = [
  {
    group: ['@tongate/*/src', '@tongate/*/src/*', '@tongate/*/src/**'],
    message: "import the package itself: another package's src/ is not its interface",
  },
  {
    group: ['**/packages/*/src', '**/packages/*/src/**', '../../*/src', '../../*/src/**'],
    message: "import the package by name: another package's src/ is not its interface",
  },
];

/** no-restricted-imports with the path rule and `names` forbidden for the reason given (later blocks replace earlier ones, so each block says all). */
const restrict = (names, message) => [
  'error',
  {
    paths: names.map((name) => ({ name, message })),
    patterns: [...BY_PATH, ...(names.length ? [{ group: names.map((n) => `${n}/*`), message }] : [])],
  },
];

export default tseslint.config(
  { ignores: ['generated/**', '**/dist/**', '**/node_modules/**', 'packages/client/.pack/**', 'data/**'] },
  {
    files: ['packages/*/src/**/*.ts', 'packages/*/test/**/*.ts', 'bench/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      // One program over the root tsconfig (the type check's, which includes every file linted here): a project
      // service would build one per package tsconfig, each loading the shared declarations again (2.5 times the CPU).
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    // Directives written for rules this config does not turn on are not errors.
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      // Type-aware: what the type checker knows and tsc does not report.
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/no-implied-eval': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/restrict-plus-operands': 'error',
      // Syntax.
      'no-debugger': 'error',
      'no-dupe-keys': 'error',
      'no-self-compare': 'error',
      'no-unsafe-finally': 'error',
      'no-restricted-imports': restrict([], ''),
    },
  },
  // Tests throw whatever a fake is told to fail with.
  { files: ['packages/*/test/**/*.ts'], rules: { '@typescript-eslint/only-throw-error': 'off' } },
  // Handlers read the chain through ChainSource and the index through the store and the read model; a concrete backend
  // is chosen by the composition root (packages/cli) only.
  {
    files: ['packages/handlers-v2/src/**/*.ts', 'packages/domain/src/**/*.ts', 'packages/read-model/src/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        BACKENDS,
        'handlers and the layers under them never import a chain backend or the indexer (README, "Layout")',
      ),
    },
  },
  {
    files: ['packages/handlers-v3/src/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [...BACKENDS, '@tongate/handlers-v2'],
        'handlers-v3 reads through @tongate/read-model and @tongate/domain; it imports no backend, no indexer and not handlers-v2',
      ),
    },
  },
  {
    files: ['packages/handlers-v3/test/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['@tongate/indexer', '@tongate/handlers-v2'],
        'handlers-v3 depends on neither the indexer nor handlers-v2; tests that need both sides live in packages/cli',
      ),
    },
  },
  {
    files: ['packages/read-model/**/*.ts', 'packages/domain/**/*.ts', 'packages/chain/**/*.ts', 'packages/store/**/*.ts'],
    ignores: ['packages/*/test/**'],
    rules: {
      'no-restricted-imports': restrict(
        [...BACKENDS, '@tongate/handlers-v2', '@tongate/handlers-v3', '@tongate/server', '@tongate/cli'],
        'a lower layer imports nothing above it',
      ),
    },
  },
);
