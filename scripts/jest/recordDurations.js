// Writes testDurations.json from a Jest JSON report (`--json --outputFile`):
// each file's wall time in a full run, in ms, for durationSequencer.js.
// Files under a second are left out: the sequencer counts them as a second.
// The report's files replace their entries; the others' stay (the unit and
// API run and the browser run are two reports).
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
const durationsFile = path.join(__dirname, 'testDurations.json');
const measured = report.testResults.map(result => [
  path.relative(repoRoot, result.name).split(path.sep).join('/'),
  Math.round((result.endTime - result.startTime) / 1000) * 1000,
]);
const reported = new Set(measured.map(([file]) => file));
const kept = Object.entries(JSON.parse(fs.readFileSync(durationsFile, 'utf8'))).filter(([file]) => !reported.has(file));
const durations = Object.fromEntries(
  [...kept, ...measured.filter(([, ms]) => ms >= 1000)].sort(([a], [b]) => a.localeCompare(b)),
);
fs.writeFileSync(durationsFile, `${JSON.stringify(durations, null, 2)}\n`);
console.log(`${measured.filter(([, ms]) => ms >= 1000).length} files of a second or more recorded, ${kept.length} kept`);
