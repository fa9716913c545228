module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  overrides: [
    {
      // Suites are test files that src/simulator.test.ts runs, one simulator per set of
      // options for all of them (__testUtils__/testSim.ts): they import the test helpers
      // as test files do and export their describe; no test file imports another.
      files: ['src/**/*.suite.ts'],
      rules: {
        'jest/no-export': 'off',
        'no-restricted-imports': [2, { paths: [] }],
      },
    },
  ],
});
