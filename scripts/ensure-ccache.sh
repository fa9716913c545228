#!/usr/bin/env bash
# ccache keeps what the native modules' compilers made (better-sqlite3's
# SQLite alone takes a minute of CPU), so that the next npm ci on this machine
# takes those objects from its cache. Optional: without it npm ci compiles.
set -euo pipefail
if command -v ccache >/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing ccache (apt)..."
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ccache >/dev/null 2>&1 ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ccache >/dev/null; } ||
    echo "ccache could not be installed: npm ci compiles the native modules from scratch"
fi
