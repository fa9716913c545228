// Writes testDurations.json from a Jest JSON report (`--json --outputFile`):
// each file's wall time in a full run, in ms, for durationSequencer.js.
// Files under a second are left out: the sequencer counts them as a second.
//   node scripts/jest/recordDurations.js <report.json>
const fs = require('node:fs');
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '../..');
const [reportPath] = process.argv.slice(2);
if (!reportPath) {
  console.error('usage: node scripts/jest/recordDurations.js <jest --json report>');
  process.exit(2);
}
const report = JSON.parse(fs.readFileSync(reportPath, 'utf8'));
const durations = Object.fromEntries(
  report.testResults
    .map(result => [
      path.relative(repoRoot, result.name).split(path.sep).join('/'),
      Math.round((result.endTime - result.startTime) / 1000) * 1000,
    ])
    .filter(([, ms]) => ms >= 1000)
    .sort(([a], [b]) => a.localeCompare(b)),
);
fs.writeFileSync(path.join(__dirname, 'testDurations.json'), `${JSON.stringify(durations, null, 2)}\n`);
console.log(`${Object.keys(durations).length} files of a second or more recorded`);
