// A test for a plugin's own test file: each `@backstage/*` package its
// manifest declares resolves, from that file, to the lowest version its range
// admits, i.e. resolver.js is at work. `versionOf` requires the package from
// the plugin's source (where the resolver redirects), not from here.
const { lowestOf } = require('./versions');

module.exports = function itRunsAgainstLowest(manifest, versionOf) {
  it.each(lowestOf(manifest))('runs against %s %s', (name, lowest) => {
    expect(versionOf(name)).toBe(lowest);
  });
};
