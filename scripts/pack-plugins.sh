#!/usr/bin/env bash
# Builds and packs the publishable plugins as a publisher would (the README's
# Install section): type declarations, `backstage-cli package build`, then
# `npm pack`, whose prepack points the entry points at dist. Lists the
# tarballs in the destination's tarballs.txt, common first (the others
# depend on it).
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
# npm pack rewrites a package.json for its moment (prepack, postpack): one at a time.
: >"$destination/tarballs.txt"
for plugin in "${plugins[@]}"; do
  (cd "plugins/$plugin" && npm pack --silent --pack-destination "$destination" | tail -n 1) >>"$destination/tarballs.txt"
done
