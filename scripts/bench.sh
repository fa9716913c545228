#!/usr/bin/env bash
# Benchmarks against the simulator (results in test-results/bench/):
#  - ladder.json: one ladder view through the real backend over HTTP —
#    upstream calls per view and per cacheTtl, latency percentiles for one
#    viewer (BENCH_VIEWS, default 200) and many at once (BENCH_VIEWERS, default 20)
#  - auto-promoter.json: an auto-promoter run over many Products, cold and
#    unchanged (BENCH_PRODUCTS, default 1000; the cold run reads every file)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
npm run build:app --silent >/dev/null
(cd packages/e2e-tests && BENCH=1 npx backstage-cli package test --ci --watchAll=false src/bench)
(cd plugins/promotions-backend && BENCH=1 npx backstage-cli package test --ci --watchAll=false src/bench)
