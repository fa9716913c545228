#!/usr/bin/env bash
# The provenance tests read a real OCI registry: Debian's docker-registry
# (CNCF Distribution). Where it cannot be installed, those tests skip and say so.
set -uo pipefail
REGISTRY="${DOCKER_REGISTRY_PATH:-/usr/bin/docker-registry}"
if [ -x "$REGISTRY" ]; then
  exit 0
fi
install() {
  $1 apt-get update -qq && $1 env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-registry >/dev/null
}
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's docker-registry for the provenance tests..."
  install "" || echo "docker-registry could not be installed: the tests that need a registry skip" >&2
elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
  install sudo || echo "docker-registry could not be installed: the tests that need a registry skip" >&2
else
  echo "docker-registry not found at $REGISTRY (Debian: apt-get install docker-registry): the tests that need a registry skip" >&2
fi
# Debian's package enables a registry service on port 5000; the tests start their own.
exit 0
