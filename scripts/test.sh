#!/usr/bin/env bash
# Every test: type check, unit and API tests (SQLite, and PostgreSQL where
# 127.0.0.1:5432 answers), then the browser tests against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-chromium.sh
bash scripts/ensure-mkdocs.sh

# Database tests run on SQLite always, and on PostgreSQL where one answers.
if [ -z "${BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING:-}" ] && \
   command -v pg_isready >/dev/null && pg_isready -h 127.0.0.1 -p 5432 -q; then
  export BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING="postgresql://postgres@127.0.0.1:5432"
  echo "PostgreSQL found at 127.0.0.1:5432: database tests run on it too"
fi

echo "== type check"
npx tsc
echo "== docs (mkdocs build --strict: every page in the nav, every link resolves)"
docs_site=$(mktemp -d)
mkdocs build --strict --quiet --site-dir "$docs_site"
rm -rf "$docs_site"
echo "== import circles (none, type-only ones included)"
npx madge --circular --no-spinner --extensions ts,tsx --ts-config tsconfig.json plugins/*/src packages/*/src
echo "== API reports"
node scripts/api-reports.js --ci
echo "== build the app"
npm run build:app --silent >/dev/null
echo "== unit and API tests"
# Three workers on two cores: the API suites mostly wait on the simulator's
# timers and the backend's polls (a full run used about one core of two).
npx backstage-cli repo test --ci --watchAll=false --maxWorkers=3
echo "== browser tests"
npm run test:e2e --silent
echo "== consumer install (the packed plugins in a clean Backstage)"
npm run test:install --silent
