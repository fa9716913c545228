#!/usr/bin/env bash
# One command: install if needed, build, start the platform simulator and
# Backstage (serving the app) on http://localhost:7007.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh

SIM_PORT="${PLATFORM_SIM_PORT:-7070}"
echo "Building the platform simulator and the app..."
npm run build:sim --silent
npm run build:app --silent >/dev/null

node packages/platform-sim/dist/cli/main.js --port "$SIM_PORT" &
SIM_PID=$!
trap 'kill $SIM_PID 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 1 50); do
  curl -fsS "http://127.0.0.1:$SIM_PORT/_sim/health" >/dev/null 2>&1 && break
  sleep 0.2
done

cat <<MSG

  Backstage with the promotions plugins: http://localhost:7007
  Sign in as Alice (release-approver) or Bob (developer on alpha),
  then open Catalog -> shop.  Play CI with:
    npm run sim:push -- alpha shop storefront

MSG
ROOT="$PWD"
cd packages/backend
npx backstage-cli package start \
  --config "$ROOT/app-config.yaml"
