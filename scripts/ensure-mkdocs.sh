#!/usr/bin/env bash
# mkdocs builds docs/ (TechDocs-ready) in the test run; Debian's package
# suffices: the docs use no theme or plugin beyond mkdocs' own.
set -euo pipefail
if command -v mkdocs >/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing mkdocs (apt)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mkdocs >/dev/null
else
  echo "mkdocs is missing: install it (apt-get install mkdocs, or pip install mkdocs)" >&2
  exit 1
fi
