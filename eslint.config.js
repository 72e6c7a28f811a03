import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The engine's folders, bottom to top (DESIGN.md "arrows point down only"). A folder may import
 * its own files and any folder of a lower layer, never one of its own layer or above:
 *
 *   7  explore                                   violation search and shrinking, above the runner
 *   6  scenario                                  the format, the runner, the world wiring, state fold
 *   5  redisson naive resource topology check    the models on the kernel, and the checker
 *   4  sim                                       kernel, effects, prng, recorder, host interfaces
 *   3  trace                                     the trace's types and actor ids
 *   2  redis net                                 a Redis server, the network
 *   1  clock lock_types                          leaf files
 *
 * Tests and test helpers (`testing/`) may import anything; production code of the engine may
 * never import src/ui, src/cli or test helpers.
 */
export const ENGINE_LAYERS = [
  ['clock', 'lock_types'],
  ['redis', 'net'],
  ['trace'],
  ['sim'],
  ['redisson', 'naive', 'resource', 'topology', 'check'],
  ['scenario'],
  ['explore'],
];

function engineLayers() {
  const outside = [
    { regex: '^(\\.\\./)+(ui|cli)(/|$)', message: 'The engine never imports the UI or the CLI.' },
    { regex: '(^|/)testing(/|$)', message: 'Production code never imports test helpers.' },
  ];
  return ENGINE_LAYERS.flatMap((layer, level) =>
    layer.map((folder) => {
      const banned = ENGINE_LAYERS.slice(level)
        .flat()
        .filter((f) => f !== folder);
      const isFile = folder === 'clock' || folder === 'lock_types';
      // A leaf file sits in src/engine itself, so its imports of other folders start with './'.
      const up = isFile ? '\\./' : '(\\.\\./)+';
      const patterns = [...outside];
      if (banned.length > 0) {
        patterns.push({
          regex: `^${up}(${banned.join('|')})(/|$)`,
          message: `${folder} is on layer ${level + 1} of the engine: it may import only lower layers (eslint.config.js ENGINE_LAYERS).`,
        });
      }
      return {
        files: [isFile ? `src/engine/${folder}.ts` : `src/engine/${folder}/**/*.ts`],
        ignores: ['src/engine/**/*.test.ts', 'src/engine/**/testing/**'],
        rules: { 'no-restricted-imports': ['error', { patterns }] },
      };
    }),
  );
}

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The engine is a pure function of the scenario: no wall clock, no ambient randomness.
    files: ['src/engine/**/*.ts'],
    ignores: ['src/engine/**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', 'setTimeout', 'setInterval', 'performance', 'document', 'window'],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the scenario seeded PRNG.' },
        { object: 'Date', property: 'now', message: 'Use the virtual clock.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date']", message: 'Use the virtual clock.' },
        {
          // An inline import('…') type escapes no-restricted-imports, so the layers below could not see it.
          selector: 'TSImportType, ImportExpression',
          message: 'Use a static import (the layer rule checks those).',
        },
      ],
    },
  },
  ...engineLayers(),
);
