// Installs the lowest `@backstage/*` versions the plugins' ranges admit into
// node_modules/.lowest-backstage (their own dependencies with them), for the
// tests that run the plugins against them (scripts/lowest-versions/run.sh).
// Peers (react, react-dom, react-router-dom) are not installed: they resolve
// up the tree to the repository's, one copy as in an app. Reinstalls only
// when the versions changed.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { repoRoot, lowestVersions } = require('./versions');

const dir = path.join(repoRoot, 'node_modules/.lowest-backstage');
const manifest = {
  name: 'lowest-backstage',
  private: true,
  description: 'The lowest Backstage versions the plugins declare (scripts/lowest-versions)',
  dependencies: lowestVersions(),
};
const manifestFile = path.join(dir, 'package.json');
const wanted = `${JSON.stringify(manifest, null, 2)}\n`;
const installedMarker = path.join(dir, 'node_modules/.installed.json');
if (fs.existsSync(installedMarker) && fs.readFileSync(installedMarker, 'utf8') === wanted) {
  console.log(`lowest Backstage versions already installed in ${path.relative(repoRoot, dir)}`);
  process.exit(0);
}
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(manifestFile, wanted);
execFileSync(
  'npm',
  ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps', '--no-package-lock', '--loglevel=error'],
  { cwd: dir, stdio: 'inherit' },
);
fs.writeFileSync(installedMarker, wanted);
console.log(
  `lowest Backstage versions installed in ${path.relative(repoRoot, dir)}:\n${Object.entries(manifest.dependencies)
    .map(([name, version]) => `  ${name} ${version}`)
    .join('\n')}`,
);
