import { ExchangeResult } from '../exchange';
import { FieldProblem, FieldRow } from '../fields/fieldChecker';
import { KNOWN_DEVIATIONS, KnownDeviation } from '../knownDeviations';
import { Finding, FindingGroups, normaliseProblem } from './findings';

export interface OperationStats {
  operation: string;
  count: number;
  statuses: Record<string, number>;
  requestInvalid: number;
  responseDiffers: number;
}

export interface TrafficCounts {
  exchanges: number;
  product: number;
  harness: number;
  /** Product exchanges whose response was judged. */
  judged: number;
  injected: number;
  teardown: number;
  dropped: number;
  /** Product responses whose read fields were checked. */
  fieldResponses: number;
}

/** The verdict on one recording: what fails, what is only reported, and the numbers. */
export interface Verdict {
  counts: TrafficCounts;
  operations: OperationStats[];
  /** The real API would not accept the product's request, or shapes a field the product reads differently. */
  failures: Finding[];
  /** Failures listed in knownDeviations.ts, with the fix they wait for. */
  excepted: Array<Finding & { reason: string }>;
  /** The simulator differs where the product does not look. */
  warnings: Finding[];
  notes: Finding[];
}

/** A 500 answered after a test had stopped its simulator (data dir gone): teardown, not API behaviour. */
const isTeardown = (r: ExchangeResult) => r.exchange.status === 500 && /"Server Error"/.test(r.exchange.resBody);

const operationOf = (r: ExchangeResult) =>
  `${r.api} ${r.exchange.method} ${r.template ?? r.exchange.path} (${r.operationId ?? 'no operation'})`;

const REQUIRED = /^response \d+(?: \(swagger\))?: (\S*) is required$/;
// Errors that a missing required field causes in the other branches of an anyOf / nullable.
const SIDE_EFFECT = /^response \d+(?: \(swagger\))?: \S* (must be null|must NOT have additional properties|must be object|must be array)$/;

/** Missing fields by the object they belong in: "/user" → [login, id]. */
function missingByParent(fields: string[]): Map<string, string[]> {
  const byParent = new Map<string, string[]>();
  for (const field of fields.map(normaliseProblem)) {
    const cut = field.lastIndexOf('/');
    const parent = field.slice(0, cut) || '/';
    const names = byParent.get(parent) ?? [];
    if (!names.includes(field.slice(cut + 1))) names.push(field.slice(cut + 1));
    byParent.set(parent, names);
  }
  return byParent;
}

function judgeResponse(r: ExchangeResult, operation: string, warnings: FindingGroups): void {
  const required = r.responseProblems.map(p => REQUIRED.exec(p)?.[1]).filter((f): f is string => Boolean(f));
  for (const problem of r.responseProblems) {
    if (REQUIRED.test(problem) || (required.length && SIDE_EFFECT.test(problem))) continue;
    warnings.add('simulator response differs', `${operation} ${r.exchange.status}: ${normaliseProblem(problem)}`, r.exchange);
  }
  if (required.length) {
    // One line per operation and set of objects; the fields themselves go into the example.
    const byParent = missingByParent(required);
    const fields = [...byParent].map(([parent, names]) => `${parent}{${names.sort().join(',')}}`).join(' ');
    const key = `${operation} ${r.exchange.status}: the simulator leaves out required fields of ${[...byParent.keys()].join(' ')}`;
    warnings.add('simulator response differs', key, r.exchange, fields);
  }
}

/**
 * Judges the checked exchanges of one recording. Failures: product requests
 * the real API would not accept; read fields the real description lacks
 * (without a fallback) or that the simulator shapes differently. Everything
 * else the simulator does differently is a warning.
 */
export function judge(
  results: ExchangeResult[],
  fieldRows: FieldRow[],
  fieldProblems: Map<ExchangeResult, FieldProblem[]>,
  knownDeviations: KnownDeviation[] = KNOWN_DEVIATIONS,
): Verdict {
  const failures = new FindingGroups();
  const warnings = new FindingGroups();
  const notes = new FindingGroups();
  const operations = new Map<string, OperationStats>();
  const product = results.filter(r => r.source === 'product');
  const judged = product.filter(r => !r.injected && !isTeardown(r) && r.exchange.status !== 0);

  for (const r of product) {
    const operation = operationOf(r);
    const stats = operations.get(operation) ?? { operation, count: 0, statuses: {}, requestInvalid: 0, responseDiffers: 0 };
    stats.count++;
    stats.statuses[r.exchange.status] = (stats.statuses[r.exchange.status] ?? 0) + 1;
    if (r.requestProblems.length) stats.requestInvalid++;
    operations.set(operation, stats);
    for (const problem of r.requestProblems) failures.add('product request invalid', `${operation}: ${normaliseProblem(problem)}`, r.exchange, r.exchange.reqBody.slice(0, 160) || undefined);
    for (const note of r.notes) if (!/ items$/.test(note)) notes.add('note', `${operation} ${r.exchange.status}: ${normaliseProblem(note)}`, r.exchange);
  }
  for (const r of judged) {
    if (r.responseProblems.length) operations.get(operationOf(r))!.responseDiffers++;
    judgeResponse(r, operationOf(r), warnings);
  }

  for (const row of fieldRows.filter(read => !read.found)) {
    const key = `${row.api} ${row.op} ${row.field}: the product reads it; the real description has no such field`;
    if (row.tolerant) warnings.add('product-read field', `${key} (read with a fallback)`);
    else failures.add('product-read field', key);
  }
  for (const [r, problems] of fieldProblems) {
    for (const p of problems) {
      const key = `${operationOf(r)} ${p.field}: the simulator's value ${p.problem.replace(/\(.*?\)/, '(…)')}`;
      failures.add('product-read field', key, r.exchange, `${p.at} ${p.problem}`);
    }
  }

  const deviationOf = (f: Finding) => knownDeviations.find(d => d.matches.test(f.key));
  const excepted = failures.take(f => Boolean(deviationOf(f))).map(f => ({ ...f, reason: deviationOf(f)!.reason }));

  return {
    counts: {
      exchanges: results.length,
      product: product.length,
      harness: results.length - product.length,
      judged: judged.length,
      injected: product.filter(r => r.injected).length,
      teardown: product.filter(isTeardown).length,
      dropped: product.filter(r => r.exchange.status === 0).length,
      fieldResponses: fieldProblems.size,
    },
    operations: [...operations.values()].sort((a, b) => a.operation.localeCompare(b.operation)),
    failures: failures.list(),
    excepted,
    warnings: warnings.list(),
    notes: notes.list(),
  };
}
