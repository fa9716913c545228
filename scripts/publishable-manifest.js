#!/usr/bin/env node
/**
 * Runs after `backstage-cli package prepack`, in the package being packed:
 * drops what only this repository can use from the package.json that goes
 * into the tarball (the jest config and devDependencies on this
 * repository's private workspaces, which no registry serves).
 * `backstage-cli package postpack` restores the original from its backup.
 */
const fs = require('fs');
const path = require('path');

const workspaceRoot = path.resolve(__dirname, '..');
const privateWorkspaces = new Set(
  ['packages', 'plugins'].flatMap(group =>
    fs
      .readdirSync(path.join(workspaceRoot, group))
      .map(dir => path.join(workspaceRoot, group, dir, 'package.json'))
      .filter(file => fs.existsSync(file))
      .map(file => JSON.parse(fs.readFileSync(file, 'utf8')))
      .filter(manifest => manifest.private)
      .map(manifest => manifest.name),
  ),
);

const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
delete manifest.jest;
for (const name of Object.keys(manifest.devDependencies ?? {})) {
  if (privateWorkspaces.has(name)) delete manifest.devDependencies[name];
}
fs.writeFileSync('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
