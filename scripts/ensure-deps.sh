#!/usr/bin/env bash
# Installs node_modules from the lockfile when they are missing or stale,
# saying how far the install has got: a first install takes minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  packages=$(grep -c '^    "node_modules/' package-lock.json || true)
  echo "Installing dependencies (npm ci, ${packages} packages, about 2 GB; a first install takes about 5 minutes)..."
  started=$SECONDS
  # npm prints nothing while it fetches and writes the packages (it lays out
  # the whole tree first, so counting folders says nothing): report what it
  # has written so far.
  (
    while sleep 20; do
      written=$(du -sm node_modules 2>/dev/null | cut -f1)
      echo "  ... $((SECONDS - started)) s: ${written:-0} MB written to node_modules"
    done
  ) &
  progress=$!
  trap 'kill $progress 2>/dev/null || true' EXIT
  # The lockfile names no tarball addresses, so npm asks the registry about
  # every package unless its cache may answer (--prefer-offline): a warm cache
  # installs offline, a cold one still fetches. Native modules compile through
  # ccache where it is installed (scripts/ensure-ccache.sh), with paths taken
  # relative to this checkout so that another clone's compile hits the cache.
  if command -v ccache >/dev/null; then
    export CC="ccache ${CC:-cc}" CXX="ccache ${CXX:-c++}" CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
  fi
  npm ci --no-audit --no-fund --loglevel=error --prefer-offline
  kill $progress 2>/dev/null || true
  echo "Dependencies installed in $((SECONDS - started)) s."
fi
