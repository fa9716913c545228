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
phase "dependencies, Chromium, mkdocs, docker-registry"
bash scripts/ensure-ccache.sh
bash scripts/ensure-deps.sh
bash scripts/ensure-chromium.sh
bash scripts/ensure-mkdocs.sh
bash scripts/ensure-registry.sh

# Database tests run on SQLite always, and on PostgreSQL where one answers.
if [ -z "${BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING:-}" ] && \
   command -v pg_isready >/dev/null && pg_isready -h 127.0.0.1 -p 5432 -q; then
  export BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING="postgresql://postgres@127.0.0.1:5432"
  echo "PostgreSQL found at 127.0.0.1:5432: database tests run on it too"
fi

# What runs beside a phase runs in its own process group (setsid), so that
# when this script ends, on a failure too, all of it stops with it.
beside=()
stop_beside() {
  for pid in "${beside[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
}
trap stop_beside EXIT

phase "type check, docs, import circles and API reports (the app builds beside them)"
# The checks below mostly run on one core; the app's build takes the other.
app_build_log=$(mktemp)
setsid npm run build:app --silent >"$app_build_log" 2>&1 &
app_build_pid=$!
beside+=("$app_build_pid")
npx tsc
docs_site=$(mktemp -d)
mkdocs build --strict --quiet --site-dir "$docs_site"
rm -rf "$docs_site"
# Import circles: none, type-only ones included.
npx madge --circular --no-spinner --extensions ts,tsx --ts-config tsconfig.json plugins/*/src packages/*/src
node scripts/api-reports.js --ci
phase "build the app, until it ends"
# Before the pack below: a pack rewrites package.json files the build reads.
if ! wait $app_build_pid; then
  cat "$app_build_log"
  echo "The app's build failed: its output is above"
  exit 1
fi
rm -f "$app_build_log"
phase "pack the plugins (for the consumer install)"
# Packed before the unit tests start: a pack rewrites each plugin's package.json
# for a moment, and the tests resolve the plugins through them.
tarballs=$(mktemp -d)
bash scripts/pack-plugins.sh "$tarballs"
phase "unit and API tests; beside them the browser tests, then the consumer install"
# Beside Jest, one after the other: the browser tests (each of the three files
# runs a stack of its own, a worker each; they mostly wait on canaries, soaks
# and polls, at a quarter of the two cores), then the consumer install (it
# mostly waits on npm and a compiler). Run after Jest, the browser tests added
# 304 s to the run; beside it they fill the cores Jest leaves idle.
beside_dir=$(mktemp -d)
PROMOTIONS_TARBALLS_DIR="$tarballs" setsid bash -c '
  npm run test:e2e --silent >"$1/browser.log" 2>&1; echo $? >"$1/browser.status"; echo $SECONDS >"$1/browser.seconds"
  npm run test:install --silent >"$1/install.log" 2>&1; echo $? >"$1/install.status"; echo $SECONDS >"$1/install.seconds"
' _ "$beside_dir" &
beside_pid=$!
beside+=("$beside_pid")
# Three workers on two cores: the API suites mostly wait on the simulator's
# timers and the backend's polls (promotionsApi alone uses a third of a core),
# and the sequencer starts the longest files first (scripts/jest). Four
# workers beside the consumer install overloaded the machine: the API files
# took twice as long and an auto-promoter climb timed out.
# The backend's jest project ends the run by checking the traffic its test
# files recorded against the real API descriptions, once for all of them
# (packages/spec-conformance); a finding fails this phase.
npx backstage-cli repo test --ci --watchAll=false --maxWorkers=3 \
  --testSequencer="$PWD/scripts/jest/durationSequencer.js"
phase "browser tests and consumer install (beside Jest), until they end"
wait $beside_pid || true
failed=0
report_beside() {
  local name="$1" what="$2"
  cat "$beside_dir/$name.log"
  local status
  status=$(cat "$beside_dir/$name.status" 2>/dev/null || echo "not run")
  echo "$what: exit $status, $(cat "$beside_dir/$name.seconds" 2>/dev/null || echo '?') s after Jest started"
  if [ "$status" != 0 ]; then
    echo "$what failed: its output is above"
    failed=1
  fi
}
report_beside browser "The browser tests"
report_beside install "The consumer install test (the packed plugins in a clean Backstage)"
rm -rf "$tarballs" "$beside_dir"
[ "$failed" -eq 0 ] || exit 1
phase ""
printf '\nPhase times (wall clock):\n%s%6ss  total\n' "$phase_times" $((SECONDS - run_started))
