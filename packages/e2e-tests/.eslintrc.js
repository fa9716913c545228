module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  testRules: {
    // A browser test asserts by waiting: Playwright's waitFor and the harness's waitFor… helpers fail on timeout.
    'jest/expect-expect': ['warn', { assertFunctionNames: ['expect', '**.waitFor', 'waitFor*', 'cellDigestIs'] }],
  },
  overrides: [
    {
      // Suites are exported for the test files that run them on one shared stack (sharedStack.ts); no test file imports another.
      files: ['src/__testUtils__/suites/**'],
      rules: { 'jest/no-export': 'off' },
    },
    {
      // Benchmarks (*.bench.ts, run by `npm run bench` only) are dev code like tests: they use the test helpers and devDependencies.
      files: ['src/bench/**'],
      rules: { 'no-restricted-imports': 'off', '@backstage/no-undeclared-imports': 'off' },
    },
  ],
});
