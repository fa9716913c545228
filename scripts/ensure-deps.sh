#!/usr/bin/env bash
# Installs node_modules from the lockfile when they are missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing dependencies (npm ci)..."
  npm ci --no-audit --no-fund
fi
