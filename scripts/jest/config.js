// Backstage's Jest config (what `backstage-cli repo test` uses without
// --config), with its swc transforms wrapped by portableTransform.js so that
// a checkout in any folder reuses the transform cache of another: a fresh
// clone in CI then starts warm where this machine ran the tests before.
const path = require('node:path');

// Resolved from @backstage/cli, which depends on it (this repository does not).
const backstageConfig = require(
  require.resolve('@backstage/cli-module-test-jest/config/jest.js', {
    paths: [path.dirname(require.resolve('@backstage/cli/package.json'))],
  }),
);

const SWC_TRANSFORM = /[\\/]jestSwcTransform\.js$/;
const PORTABLE_TRANSFORM = path.join(__dirname, 'portableTransform.js');

function withPortableTransforms(project) {
  if (!project.transform) return project;
  const transform = Object.fromEntries(
    Object.entries(project.transform).map(([pattern, entry]) => {
      const [transformer, options] = Array.isArray(entry) ? entry : [entry, {}];
      return SWC_TRANSFORM.test(transformer)
        ? [pattern, [PORTABLE_TRANSFORM, { transformer, options }]]
        : [pattern, entry];
    }),
  );
  return { ...project, transform };
}

module.exports = backstageConfig.then(config =>
  config.projects
    ? { ...config, projects: config.projects.map(withPortableTransforms) }
    : withPortableTransforms(config),
);
