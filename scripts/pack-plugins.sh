#!/usr/bin/env bash
# Builds and packs the publishable plugins as a publisher would (the README's
# Install section): type declarations, `backstage-cli package build`, then
# `npm pack`, whose prepack points the entry points at dist. Lists the
# tarballs in the destination's tarballs.txt, common first (the others
# depend on it).
#
# npm pack rewrites a package.json for its moment (prepack, postpack): it
# packs copies of the built plugins, so the workspace's own package.json files
# never change and tests that resolve the plugins through them can run beside.
# Usage: scripts/pack-plugins.sh <destination directory>
set -euo pipefail
destination=$(realpath -m "$1")
mkdir -p "$destination"
cd "$(dirname "$0")/.."
# The scaffolder module is packed for the tarball checks only; the consumer does not install it.
plugins=(promotions-common promotions-node promotions-backend promotions scaffolder-backend-module-promotions)
npx tsc
# Each build reads the others' type declarations only (dist-types): two at a time on two cores.
printf '%s\n' "${plugins[@]}" | xargs -P 2 -I{} sh -c 'cd "plugins/$1" && npx backstage-cli package build >/dev/null' _ {}
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
# The copies sit where they sit in the repository, beside links to its root files:
# the prepack scripts find the root (package.json, tsconfig.json, scripts) and
# the dependencies (node_modules) as in the workspace.
for file in package.json tsconfig.json node_modules scripts; do ln -s "$PWD/$file" "$staging/$file"; done
: >"$destination/tarballs.txt"
for plugin in "${plugins[@]}"; do
  mkdir -p "$staging/plugins/$plugin"
  tar -C "plugins/$plugin" --exclude=./node_modules -cf - . | tar -C "$staging/plugins/$plugin" -xf -
  (cd "$staging/plugins/$plugin" && npm pack --silent --pack-destination "$destination" | tail -n 1) >>"$destination/tarballs.txt"
done
