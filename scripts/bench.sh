#!/usr/bin/env bash
# Ladder-view benchmark against the simulator: upstream calls per view and
# latency percentiles. Results: test-results/bench/ladder.json
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
npm run build:app --silent >/dev/null
cd packages/e2e-tests
BENCH=1 npx backstage-cli package test --ci --watchAll=false src/bench
