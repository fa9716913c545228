#!/usr/bin/env bash
# Installs node_modules from the lockfile when they are missing or stale,
# saying how far the install has got: a first install takes minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # The lockfile's top-level packages, the ones that appear in node_modules/ itself.
  total=$(grep -cE '^    "node_modules/(@[^/"]+/)?[^/"]+": \{' package-lock.json || true)
  echo "Installing dependencies (npm ci, ${total} packages; a first install takes about 5 minutes)..."
  started=$SECONDS
  # npm prints nothing while it fetches and unpacks: report the packages unpacked so far.
  (
    while sleep 20; do
      unpacked=$(ls -d node_modules/[!@.]* node_modules/@*/* 2>/dev/null | wc -l)
      echo "  ... $((SECONDS - started)) s: ${unpacked} of about ${total} packages unpacked"
    done
  ) &
  progress=$!
  trap 'kill $progress 2>/dev/null || true' EXIT
  npm ci --no-audit --no-fund --loglevel=error
  kill $progress 2>/dev/null || true
  echo "Dependencies installed in $((SECONDS - started)) s."
fi
