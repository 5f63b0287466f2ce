// Lint rules: typescript-eslint's recommended type-aware set, plus the house rules.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'eslint.config.js',
      '**/dist/',
      'data/',
      'coverage/',
      'node_modules/',
      'bench/results/',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Plain JavaScript scripts (run by node alone) are linted without a tsconfig.
        projectService: { allowDefaultProject: ['scripts/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      'no-console': ['error', { allow: ['error'] }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // A module is reached only through its index.ts (docs/architecture.md); the folder
    // layers and the absence of cycles are checked by test/unit/architecture.test.ts.
    files: ['src/modules/*/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index\\.js$)',
              message: 'Import another module only through its index.ts (its public surface).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/*.ts', 'src/*/*.ts', 'src/cli/**/*.ts'],
    ignores: ['src/modules/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: 'modules/[^/]+/(?!index\\.js$)',
              message: 'Import a module only through its index.ts (its public surface).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli.ts', 'src/cli/**', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['test/**', 'eslint.config.js', 'vitest.config.ts', 'vitest.cluster.config.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
