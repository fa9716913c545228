module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  overrides: [
    {
      // Benchmarks (*.bench.ts, run by `npm run bench` only) are dev code like tests: they use the test helpers and devDependencies.
      files: ['src/bench/**'],
      rules: { 'no-restricted-imports': 'off', '@backstage/no-undeclared-imports': 'off' },
    },
  ],
});
