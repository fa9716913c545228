#!/usr/bin/env bash
# Benchmarks against the simulator (results in test-results/bench/):
#  - ladder.json: one ladder view through the real backend over HTTP —
#    upstream calls per view and per cacheTtl, latency percentiles for one
#    viewer (BENCH_VIEWS, default 200) and many at once (BENCH_VIEWERS, default 20),
#    and the ladder's size (raw and gzip) at 3 Services
#  - ladder-30-services.json: a 30-Service Product's ladder size (in full, as
#    the summary the frontend loads, and one cell's details), and its views
#    while dev canaries all 30 (BENCH_WIDE_VIEWS, default 30; cacheTtl 0)
#  - auto-promoter.json (and auto-promoter-<n>.json): GitHub requests of
#    auto-promoter runs over many Products, cold, unchanged and after one
#    Release change (BENCH_PRODUCTS, default 1000,10000; whole runs only up to
#    BENCH_AUTO_PROMOTER_MAX, default 1000)
#  - repo-reads-<n>.json: the same scans' reads of the platform repo alone
#  - overview.json: GET /overview over 1,000 added Products from a warm model —
#    latency percentiles and GitHub requests added (BENCH_OVERVIEW_PRODUCTS,
#    BENCH_OVERVIEW_REQUESTS, BENCH_OVERVIEW_SWEEP_SECONDS)
#  - gate.json: Gate runs over open promotions with nothing changing
#    (BENCH_GATE_PROMOTIONS, default 100; 0 leaves it out)
#  - climb.json: a rebuild giving BENCH_CLIMBING Products (default 10) a new
#    digest in dev at once: one auto-promoter run opens their promotions and
#    the Gate merges them, against a simulator enforcing GitHub's secondary
#    write limit — time to the last PR and merge, GitHub writes, charged reads
#    and resource-tree reads per promotion, writes refused, the bench process's
#    CPU seconds and peak memory. Issue 26's organisation:
#    BENCH_IDLE_PRODUCTS=9900 BENCH_CLIMBING=100 BENCH_NEXT_REBUILD=false
#    (climb-10000-argocd<3|2>.json; BENCH_ARGOCD=2 for ArgoCD 2.x; run it with
#    NODE_OPTIONS=--max-old-space-size=8000, the simulator shares the process)
#  - webhook.json: a PR merged by hand on GitHub until an open ladder in the
#    browser shows it (the browser suite's measurement, over
#    BENCH_WEBHOOK_MERGES merges, default 10; the Gate polls hourly)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-chromium.sh
npm run build:app --silent >/dev/null
# The benchmarks are *.bench.ts, which Jest's default testMatch (*.test.ts)
# leaves out of `npm test`: they are run here only, by naming the pattern.
# One alone, from its package: `npx backstage-cli package test --ci
# --watchAll=false src/bench/webhook --testMatch '**/src/bench/*.bench.ts'`
# (the path before --testMatch, which would read it as one more pattern).
BENCH_FILES=(--testMatch '**/src/bench/*.bench.ts')
# The plugins' Jest runs against the lowest Backstage versions they admit (scripts/lowest-versions).
node scripts/lowest-versions/install.js
(cd packages/e2e-tests && npx backstage-cli package test --ci --watchAll=false "${BENCH_FILES[@]}")
(cd plugins/promotions-backend && npx backstage-cli package test --ci --watchAll=false "${BENCH_FILES[@]}")
