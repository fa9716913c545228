#!/usr/bin/env bash
# Every test: type check, unit and API tests (SQLite, and PostgreSQL where
# 127.0.0.1:5432 answers), then the browser tests against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each phase prints its wall time when the next begins, and a table at the
# end: the README's Development section quotes these figures.
run_started=$SECONDS
phase_name=""
phase_started=$SECONDS
phase_times=""
phase() {
  if [ -n "$phase_name" ]; then
    phase_times+="$(printf '%6ss  %s' $((SECONDS - phase_started)) "$phase_name")"$'\n'
  fi
  phase_name="$1"
  phase_started=$SECONDS
  [ -n "$phase_name" ] && echo "== $phase_name"
  return 0
}
phase "dependencies, Chromium, mkdocs"
bash scripts/ensure-deps.sh
bash scripts/ensure-chromium.sh
bash scripts/ensure-mkdocs.sh

# Database tests run on SQLite always, and on PostgreSQL where one answers.
if [ -z "${BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING:-}" ] && \
   command -v pg_isready >/dev/null && pg_isready -h 127.0.0.1 -p 5432 -q; then
  export BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING="postgresql://postgres@127.0.0.1:5432"
  echo "PostgreSQL found at 127.0.0.1:5432: database tests run on it too"
fi

phase "type check"
npx tsc
phase "docs (mkdocs build --strict: every page in the nav, every link resolves)"
docs_site=$(mktemp -d)
mkdocs build --strict --quiet --site-dir "$docs_site"
rm -rf "$docs_site"
phase "import circles (none, type-only ones included)"
npx madge --circular --no-spinner --extensions ts,tsx --ts-config tsconfig.json plugins/*/src packages/*/src
phase "API reports"
node scripts/api-reports.js --ci
phase "build the app"
npm run build:app --silent >/dev/null
phase "unit and API tests"
# Three workers on two cores: the API suites mostly wait on the simulator's
# timers and the backend's polls (a full run used about one core of two).
# The backend's jest project ends the run by checking the traffic its test
# files recorded against the real API descriptions, once for all of them
# (packages/spec-conformance); a finding fails this phase.
npx backstage-cli repo test --ci --watchAll=false --maxWorkers=3
phase "browser tests"
npm run test:e2e --silent
phase "consumer install (the packed plugins in a clean Backstage)"
npm run test:install --silent
phase ""
printf '\nPhase times (wall clock):\n%s%6ss  total\n' "$phase_times" $((SECONDS - run_started))
