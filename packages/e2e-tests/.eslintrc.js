module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  testRules: {
    // A browser test asserts by waiting: Playwright's waitFor and the harness's waitFor… helpers fail on timeout.
    'jest/expect-expect': ['warn', { assertFunctionNames: ['expect', '**.waitFor', 'waitFor*', 'cellDigestIs'] }],
  },
});
