module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  overrides: [
    {
      // Benchmarks (*.bench.ts, run by `npm run bench` only) are dev code like tests: they use the test helpers and devDependencies.
      files: ['src/bench/**'],
      rules: { 'no-restricted-imports': 'off', '@backstage/no-undeclared-imports': 'off' },
    },
    {
      // Suites (*.suite.ts) are test files that a runner test file calls, on the file's shared simulators
      // (src/__testUtils__/sharedSimBackend.ts): they use the test helpers and devDependencies as test
      // files do, and export their describe.
      files: ['src/**/*.suite.ts'],
      rules: {
        'jest/no-export': 'off',
        'no-restricted-imports': 'off',
        '@backstage/no-undeclared-imports': 'off',
      },
    },
  ],
});
