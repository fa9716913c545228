#!/usr/bin/env bash
# One command: install if needed, build, start the platform simulator and
# Backstage (serving the app) on http://localhost:7007.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh

SIM_PORT="${PLATFORM_SIM_PORT:-7070}"
echo "Building the platform simulator..."
npm run build:sim --silent

# The app bundle is rebuilt only when something it is built from changed
# since the last build: a restart then skips the slowest step.
APP_BUILT=packages/app/dist/index.html
if [ ! -f "$APP_BUILT" ] || [ -n "$(find packages/app plugins/promotions plugins/promotions-common \
     app-config.yaml package-lock.json \
     \( -name node_modules -o -name dist -o -name dist-types \) -prune -o \
     -type f -newer "$APP_BUILT" -print -quit)" ]; then
  echo "Building the app..."
  npm run build:app --silent >/dev/null
else
  echo "The app is unchanged since its last build: not rebuilding it."
fi

# Provenance in enforce (app-config.provenance.yaml) where Debian's
# docker-registry is there: the simulator starts it and publishes the seed
# into it as signed, attested builds.
bash scripts/ensure-registry.sh
REGISTRY_PORT=7071
SIM_REGISTRY=()
BACKEND_CONFIG=(--config "$PWD/app-config.yaml")
if [ -x "${DOCKER_REGISTRY_PATH:-/usr/bin/docker-registry}" ]; then
  SIM_REGISTRY=(--registry-port "$REGISTRY_PORT")
  BACKEND_CONFIG+=(--config "$PWD/app-config.provenance.yaml")
else
  echo "Debian's docker-registry is not installed: the demo runs without provenance checks."
fi

# The demo's own Product (alpha/blog) as well, and incidents reported to the
# events ingress that app-config.yaml opens for the incident gate.
node packages/platform-sim/dist/cli/main.js --port "$SIM_PORT" --demo-products \
  --incidents-url http://localhost:7007/api/events/http/promotions.incidents "${SIM_REGISTRY[@]}" &
SIM_PID=$!
trap 'kill $SIM_PID 2>/dev/null || true' EXIT INT TERM
# Up to a minute: with a registry, the simulator first publishes the seed into it.
for _ in $(seq 1 300); do
  curl -fsS "http://127.0.0.1:$SIM_PORT/_sim/health" >/dev/null 2>&1 && break
  sleep 0.2
done

# Say where to go only once Backstage answers, not while it still starts.
(
  for _ in $(seq 1 600); do
    if curl -fsS http://localhost:7007/.backstage/health/v1/readiness >/dev/null 2>&1; then
      cat <<MSG

  Backstage with the promotions plugins is ready: http://localhost:7007
  Sign in as Alice (release-approver) or Bob (developer on alpha),
  then open a Product (Catalog, Kind: System):
    http://localhost:7007/catalog/default/system/shop (climbs on its own)
    http://localhost:7007/catalog/default/system/blog (by hand only)
  Play CI and the incident tool with:
    npm run sim:push -- alpha shop storefront
    npm run sim:incident -- alpha shop --open
  Ctrl-C stops Backstage and the simulator; a restart begins afresh.

MSG
      exit 0
    fi
    sleep 1
  done
  echo "Backstage did not answer on http://localhost:7007 within 10 minutes; see the log above." >&2
) &

echo "Starting Backstage (the link follows once it answers)..."
cd packages/backend
npx backstage-cli package start "${BACKEND_CONFIG[@]}"
