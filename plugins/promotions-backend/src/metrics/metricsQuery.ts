import { InputError } from '@backstage/errors';
import { ProductRef, formatProductRef, isValidName, parseProductRef } from '@refplat/plugin-promotions-common';
import { boundedQuote } from '../service/boundedQuote';

export type MetricsScope =
  | { kind: 'org' }
  | { kind: 'team'; team: string }
  | { kind: 'product'; product: ProductRef };

export interface MetricsQuery {
  scope: MetricsScope;
  from: Date;
  to: Date;
}

/** Without `from`, a window this long before `to`. */
const DEFAULT_WINDOW_MS = 28 * 24 * 60 * 60 * 1000;

/** ISO 8601 calendar dates, with an optional time and zone (no time is UTC midnight). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function parseScope(value: unknown): MetricsScope {
  if (value === 'org') return { kind: 'org' };
  if (typeof value === 'string' && value.startsWith('team:') && isValidName(value.slice(5))) {
    return { kind: 'team', team: value.slice(5) };
  }
  const product = typeof value === 'string' && value.startsWith('product:') ? parseProductRef(value.slice(8)) : undefined;
  if (product) return { kind: 'product', product };
  const usage = 'use scope=org, scope=team:<team> or scope=product:<team>/<product>';
  throw new InputError(value === undefined ? `Missing scope: ${usage}` : `Invalid scope ${boundedQuote(value)}: ${usage}`);
}

/** True for a calendar day that exists: 2026-02-30 is not rolled over into March. */
function isRealDay(isoDate: string): boolean {
  const [year, month, day] = isoDate.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function parseDate(value: unknown, name: string): Date | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === 'string' && ISO_DATE.test(value) && isRealDay(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(ms)) {
    throw new InputError(
      `Invalid ${name} ${boundedQuote(value)}: use an ISO 8601 date, e.g. 2026-11-02 or 2026-11-02T09:00:00Z`,
    );
  }
  return new Date(ms);
}

/** `?scope=&from=&to=` of GET /metrics, or 400 saying what is wrong. `to` defaults to now, `from` to 4 weeks before `to`. */
export function parseMetricsQuery(query: Record<string, unknown>, now: Date): MetricsQuery {
  const scope = parseScope(query.scope);
  const to = parseDate(query.to, 'to') ?? now;
  const from = parseDate(query.from, 'from') ?? new Date(to.getTime() - DEFAULT_WINDOW_MS);
  if (from.getTime() >= to.getTime()) {
    throw new InputError(`from (${from.toISOString()}) must be before to (${to.toISOString()})`);
  }
  return { scope, from, to };
}

/** The scope as the query names it. */
export function formatScope(scope: MetricsScope): string {
  switch (scope.kind) {
    case 'org':
      return 'org';
    case 'team':
      return `team:${scope.team}`;
    default:
      return `product:${formatProductRef(scope.product)}`;
  }
}
