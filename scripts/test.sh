#!/usr/bin/env bash
# Every test: type check, unit and API tests (SQLite, and PostgreSQL where
# 127.0.0.1:5432 answers), then the browser tests against the built app.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each phase prints its wall time when the next begins, and a table at the
# end: docs/development.md ("How long the tests take") quotes these figures.
run_started=$SECONDS
phase_name=""
phase_started=$SECONDS
phase_times=""
# The machine's busy CPU time so far, in seconds (all processes, from /proc/stat):
# with the wall time it says whether a phase waits or computes.
busy_cpu_seconds() {
  awk '/^cpu / { print int(($2 + $3 + $4 + $7 + $8) / 100) }' /proc/stat
}
phase_cpu_started=$(busy_cpu_seconds)
phase() {
  if [ -n "$phase_name" ]; then
    phase_times+="$(printf '%6ss %6s CPU-s  %s' $((SECONDS - phase_started)) $(($(busy_cpu_seconds) - phase_cpu_started)) "$phase_name")"$'\n'
  fi
  phase_name="$1"
  phase_started=$SECONDS
  phase_cpu_started=$(busy_cpu_seconds)
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
# Waits for a job started beside; on its failure, shows its log and stops here.
wait_for() {
  local pid=$1 log=$2 what=$3
  if ! wait "$pid"; then
    cat "$log"
    echo "$what failed: its output is above"
    exit 1
  fi
  rm -f "$log"
}

phase "type check, docs, import circles and API reports (the app builds and the plugins pack beside them)"
# The checks below mostly run on one core; the app's build takes the other,
# and the packing (for the consumer install) once tsc has written the types it
# builds on: after tsc, not before, as packing builds the plugins on both cores.
app_build_log=$(mktemp)
setsid npm run build:app --silent >"$app_build_log" 2>&1 &
app_build_pid=$!
beside+=("$app_build_pid")
# The plugins' unit tests run against the lowest Backstage versions their
# ranges admit (scripts/lowest-versions): installed beside, mostly npm's wait.
lowest_log=$(mktemp)
setsid node scripts/lowest-versions/install.js >"$lowest_log" 2>&1 &
lowest_pid=$!
beside+=("$lowest_pid")
npx tsc
tarballs=$(mktemp -d)
pack_log=$(mktemp)
setsid bash scripts/pack-plugins.sh "$tarballs" >"$pack_log" 2>&1 &
pack_pid=$!
beside+=("$pack_pid")
docs_site=$(mktemp -d)
mkdocs build --strict --quiet --site-dir "$docs_site"
rm -rf "$docs_site"
# Import circles: none, type-only ones included.
npx madge --circular --no-spinner --extensions ts,tsx --ts-config tsconfig.json plugins/*/src packages/*/src
node scripts/api-reports.js --ci
phase "build the app and pack the plugins, until they end"
# Not beside the unit tests: beside the API suites the packing cost them more time than it saved.
wait_for "$app_build_pid" "$app_build_log" "The app's build"
wait_for "$pack_pid" "$pack_log" "Packing the plugins"
wait_for "$lowest_pid" "$lowest_log" "Installing the lowest Backstage versions"
phase "unit and API tests, the consumer install beside them"
# The consumer install mostly waits on npm and a compiler while the API suites
# mostly wait on timers: beside each other they use the two cores.
install_log=$(mktemp)
PROMOTIONS_TARBALLS_DIR="$tarballs" setsid npm run test:install --silent >"$install_log" 2>&1 &
install_pid=$!
beside+=("$install_pid")
# Four workers on two cores: the API suites mostly wait on the simulator's
# timers and the backend's polls, and the sequencer starts the longest files
# first (scripts/jest). With three, the machine was 25 to 60% idle through
# the simulator-backed files' first 180 s. Alone on a 2-core machine the
# phase took 487 s (753 CPU-s) with three, and 400 s (696 CPU-s) with four,
# together with two fixes that cut waits and CPU of their own. On a slower
# machine four workers beside the consumer install once overloaded it (an
# auto-promoter climb timed out): if that recurs, three is the fallback.
# The backend's jest project ends the run by checking the traffic its test
# files recorded against the real API descriptions, once for all of them
# (packages/spec-conformance); a finding fails this phase.
# Backstage's Jest config with transform cache keys that hold no absolute
# path (scripts/jest/config.js): a clone in another folder starts warm.
npx backstage-cli repo test --ci --watchAll=false --maxWorkers=4 \
  --config "$PWD/scripts/jest/config.js" \
  --testSequencer="$PWD/scripts/jest/durationSequencer.js"
phase "browser tests"
# Each of the four browser files runs a stack of its own: a backend, a
# simulator and a Chromium, whose page loads are most of the phase's CPU. Two
# at a time, the longest first (durationSequencer): four side by side kept the
# machine at a load of 12 and the phase took 343 s; two at a time, 310 s in
# file-size order, and 299 s with the longest first in a fresh-clone run.
npm run test:e2e --silent
phase "consumer install (the packed plugins in a clean Backstage), until it ends"
install_status=0
wait $install_pid || install_status=$?
cat "$install_log"
rm -rf "$tarballs" "$install_log"
if [ "$install_status" -ne 0 ]; then
  echo "The consumer install test failed (exit $install_status): its output is above"
  exit "$install_status"
fi
phase ""
printf '\nPhase times (wall clock, and the CPU time the machine spent meanwhile):\n%s%6ss  total\n' "$phase_times" $((SECONDS - run_started))
