// Jest resolver for the lowest-versions run: an import of a `@backstage/*`
// package from a published plugin's own source, where that plugin declares
// the package for run time, resolves to the lowest version its range admits
// (node_modules/.lowest-backstage). Test tooling (test-utils,
// backend-test-utils) and everything else keep the repository's versions, as
// an adopter's app supplies its own. From the lowest packages, Material UI
// resolves to the repository's copy: the theme is the app's, one copy.
//
// Each plugin's Jest config names an `id` of its own: Jest's workers keep one
// resolver per config id, and Backstage's CLI gives projects with the same
// transforms the same id, so without one a plugin ran on another package's
// resolver in `backstage-cli repo test` (the repository's versions).
const fs = require('node:fs');
const path = require('node:path');
const { repoRoot, declaredByPlugin } = require('./versions');

const lowestDir = path.join(repoRoot, 'node_modules/.lowest-backstage');
if (!fs.existsSync(path.join(lowestDir, 'node_modules/.installed.json'))) {
  throw new Error(
    'The plugins\' tests run against the lowest Backstage versions their ranges admit, which are not installed: run `node scripts/lowest-versions/install.js` (npm test does)',
  );
}
const lowestModules = `${path.join(lowestDir, 'node_modules')}${path.sep}`;
const sourceDirs = declaredByPlugin().map(({ dir, ranges }) => ({
  src: `${path.join(dir, 'src')}${path.sep}`,
  declared: new Set(Object.keys(ranges)),
}));
const SHARED_WITH_THE_APP = /^@material-ui\//;

function packageName(request) {
  const [scope, name] = request.split('/');
  return request.startsWith('@') ? `${scope}/${name}` : scope;
}

module.exports = (request, options) => {
  const from = options.basedir + path.sep;
  const source = sourceDirs.find(({ src }) => from.startsWith(src));
  if (source && source.declared.has(packageName(request))) {
    return options.defaultResolver(request, { ...options, basedir: lowestDir });
  }
  if (from.startsWith(lowestModules) && SHARED_WITH_THE_APP.test(request)) {
    return options.defaultResolver(request, { ...options, basedir: repoRoot });
  }
  return options.defaultResolver(request, options);
};
