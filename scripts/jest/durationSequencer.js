// Orders Jest's test files longest first, so that no worker is still on a
// long simulator-backed file while the others sit idle at the end of a run.
//
// Jest's own sequencer does this from its cache of the last run's durations;
// a fresh clone (CI) has no cache, and Jest then falls back to file size. The
// API suites are small files that import many suites (promotions.api.test.ts
// is 2 KB and runs for ten minutes), so by size they ran last. Here a file
// Jest has no duration for takes the one committed in testDurations.json,
// measured by a full run (scripts/jest/recordDurations.js writes it).
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const repoRoot = path.resolve(__dirname, '../..');
const committed = require('./testDurations.json');

/** A file measured by no run yet: short, as most unit test files are. */
const UNMEASURED_MS = 1000;

class DurationSequencer extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) return cached;
    const relative = path.relative(repoRoot, test.path).split(path.sep).join('/');
    return committed[relative] ?? UNMEASURED_MS;
  }
}

module.exports = DurationSequencer;
