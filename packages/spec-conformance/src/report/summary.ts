import { Conformance } from '../checkExchanges';
import { KNOWN_DEVIATIONS } from '../knownDeviations';
import { Finding } from './findings';

/** The conformance of one test file's traffic, as stored in suites/<name>.json. */
export interface SuiteReport extends Conformance {
  suite: string;
  recordedAt: string;
  /** How long loading the descriptions and checking took. */
  checkMs: number;
}

/** Equal findings of several suites as one, counts added. */
function merge<T extends Finding>(lists: T[][]): T[] {
  const byKey = new Map<string, T>();
  for (const finding of lists.flat()) {
    const id = `${finding.kind} ${finding.key}`;
    const seen = byKey.get(id);
    if (!seen) byKey.set(id, { ...finding, suites: [...finding.suites] });
    else {
      seen.count += finding.count;
      for (const suite of finding.suites) if (!seen.suites.includes(suite)) seen.suites.push(suite);
    }
  }
  return [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
}

function findingLines(findings: Finding[], extra: (f: Finding) => string[] = () => []): string[] {
  return findings.flatMap(f => [
    `- [${f.kind}] ${f.count ? `${f.count}× ` : ''}${f.key}${f.suites.length ? ` — in ${f.suites.join(', ')}` : ''}`,
    ...(f.example ? [`  e.g. ${f.example}`] : []),
    ...extra(f),
  ]);
}

/** test-results/spec-conformance/summary.md over every suite report present. */
export function renderSummary(reports: SuiteReport[]): string {
  const failures = merge(reports.map(r => r.failures));
  const excepted = merge(reports.map(r => r.excepted));
  const warnings = merge(reports.map(r => r.warnings));
  const notes = merge(reports.map(r => r.notes));
  const unusedDeviations = KNOWN_DEVIATIONS.filter(d => !excepted.some(f => d.matches.test(f.key)));
  const lines = [
    '# Spec conformance',
    '',
    'The traffic between the promotions backend and the platform simulator in the backend API tests, checked against the real API descriptions (packages/spec-conformance/README.md).',
    '',
    `references: ${[...new Set(reports.flatMap(r => r.references))].join('; ')}`,
    '',
    '| test file | recorded | exchanges | product | judged | not judged (injected, teardown, dropped) | read-field responses | failures | known | warnings | check (ms) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...reports.map(r => {
      const c = r.counts;
      return `| ${r.suite} | ${r.recordedAt} | ${c.exchanges} | ${c.product} | ${c.judged} | ${c.injected}, ${c.teardown}, ${c.dropped} | ${c.fieldResponses} | ${r.failures.length} | ${r.excepted.length} | ${r.warnings.length} | ${r.checkMs} |`;
    }),
    '',
    `## Verdict: ${failures.length ? 'FAILED' : 'passed'}`,
    `failures: ${failures.length}; known deviations: ${excepted.length}; warnings: ${warnings.length}`,
    '',
  ];
  if (failures.length) lines.push('### Failures', ...findingLines(failures), '');
  if (excepted.length) {
    lines.push('### Known deviations (knownDeviations.ts; not failing until fixed)', ...findingLines(excepted, f => [`  reason: ${(f as Finding & { reason: string }).reason}`]), '');
  }
  if (unusedDeviations.length) {
    lines.push('### Known deviations no longer seen (remove them from knownDeviations.ts if the suites that showed them ran)', ...unusedDeviations.map(d => `- ${d.matches} — ${d.reason}`), '');
  }
  if (warnings.length) lines.push('### Warnings (the simulator differs from the real API where the product does not look)', ...findingLines(warnings), '');
  if (notes.length) lines.push('### Notes', ...findingLines(notes), '');

  const operations = new Map<string, { count: number; statuses: Record<string, number>; requestInvalid: number; responseDiffers: number }>();
  for (const op of reports.flatMap(r => r.operations)) {
    const total = operations.get(op.operation) ?? { count: 0, statuses: {}, requestInvalid: 0, responseDiffers: 0 };
    total.count += op.count;
    total.requestInvalid += op.requestInvalid;
    total.responseDiffers += op.responseDiffers;
    for (const [status, n] of Object.entries(op.statuses)) total.statuses[status] = (total.statuses[status] ?? 0) + n;
    operations.set(op.operation, total);
  }
  lines.push('## Product operations', '', '| operation | n | statuses | request invalid | response differs |', '|---|---|---|---|---|');
  for (const [operation, o] of [...operations].sort(([a], [b]) => a.localeCompare(b))) {
    const statuses = Object.entries(o.statuses).map(([s, n]) => `${s}×${n}`).join(' ');
    lines.push(`| ${operation} | ${o.count} | ${statuses} | ${o.requestInvalid} | ${o.responseDiffers} |`);
  }

  const rows = new Map(reports.flatMap(r => r.fieldRows).map(row => [`${row.api} ${row.op} ${row.field}`, row]));
  lines.push('', '## Field reads (src/fields/fieldReads.ts)', '');
  for (const [key, row] of rows) {
    let state = row.found ? 'ok     ' : 'MISSING';
    if (!row.found && row.tolerant) state = 'absent (read with a fallback)';
    lines.push(`- ${state} ${key}${row.found ? ` : ${row.type}${row.nullable ? ' (nullable)' : ''}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
