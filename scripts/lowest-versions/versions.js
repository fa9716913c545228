// The lowest version of each `@backstage/*` package that the published
// plugins' ranges admit (dependencies and peerDependencies). The plugins
// must agree on it: two floors for one package would test neither.
const path = require('node:path');
const semver = require('semver');

const repoRoot = path.resolve(__dirname, '../..');
const PUBLISHED = [
  'promotions-common',
  'promotions-node',
  'promotions-backend',
  'promotions',
  'scaffolder-backend-module-promotions',
];

/** Each published plugin's folder and the `@backstage/*` names its manifest declares for run time. */
function declaredByPlugin() {
  return PUBLISHED.map(plugin => {
    const dir = path.join(repoRoot, 'plugins', plugin);
    const manifest = require(path.join(dir, 'package.json'));
    const ranges = { ...manifest.dependencies, ...manifest.peerDependencies };
    const backstage = Object.fromEntries(
      Object.entries(ranges).filter(([name]) => name.startsWith('@backstage/')),
    );
    return { dir, ranges: backstage };
  });
}

/** `{ name: lowestVersion }` over every published plugin; throws where two plugins' floors differ. */
function lowestVersions() {
  const lowest = {};
  const disagreements = [];
  for (const { dir, ranges } of declaredByPlugin()) {
    for (const [name, range] of Object.entries(ranges)) {
      const version = semver.minVersion(range).version;
      if (lowest[name] && lowest[name] !== version) {
        disagreements.push(`${name}: ${lowest[name]} and ${version} (${path.relative(repoRoot, dir)})`);
      }
      lowest[name] ??= version;
    }
  }
  if (disagreements.length > 0) {
    throw new Error(`The plugins' ranges start at different versions: ${disagreements.join('; ')}`);
  }
  return Object.fromEntries(Object.entries(lowest).sort(([a], [b]) => a.localeCompare(b)));
}

/** `[name, lowestVersion]` for each `@backstage/*` package one manifest declares for run time. */
function lowestOf(manifest) {
  return Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })
    .filter(([name]) => name.startsWith('@backstage/'))
    .map(([name, range]) => [name, semver.minVersion(range).version]);
}

module.exports = { repoRoot, declaredByPlugin, lowestVersions, lowestOf };
