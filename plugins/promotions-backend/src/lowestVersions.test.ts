// This plugin's tests run against the lowest version of each `@backstage/*`
// package its ranges admit (scripts/lowest-versions/resolver.js), as an
// adopter on the oldest Backstage it accepts has them: a newer API used by
// mistake fails its tests.
const { lowestOf } = require('../../../scripts/lowest-versions/versions');

it.each(lowestOf(require('../package.json')))('runs against %s %s', (name: string, lowest: string) => {
  expect(require(`${name}/package.json`).version).toBe(lowest);
});
