import { parseProductRef } from '../names';
import type { OverviewRow } from './types';

/** @public */
export const OVERVIEW_FILTERS = ['stuck', 'awaiting-approval', 'mine'] as const;

/** @public */
export type OverviewFilter = (typeof OVERVIEW_FILTERS)[number];

/** @public */
export interface OverviewCriteria {
  /** An owner's entity ref: only Products it owns. */
  owner?: string;
  team?: string;
  filter?: OverviewFilter;
}

const sameRef = (a: string, b: string) => a.toLocaleLowerCase('en-US') === b.toLocaleLowerCase('en-US');

/**
 * Whether a row passes the matrix's filters. `callerRefs` are the caller's
 * ownership entity refs (themselves and their groups), for `mine`.
 *
 * @public
 */
export function matchesOverview(
  row: OverviewRow,
  criteria: OverviewCriteria,
  callerRefs: string[],
): boolean {
  const { owner, team, filter } = criteria;
  if (owner && !row.owners.some(ref => sameRef(ref, owner))) return false;
  if (team && row.team !== team) return false;
  switch (filter) {
    case 'stuck':
      return row.cells.some(cell => cell.verdict === 'stuck');
    case 'awaiting-approval':
      return row.cells.some(cell => cell.awaitingApproval > 0);
    case 'mine':
      return row.owners.some(ref => callerRefs.some(mine => sameRef(ref, mine)));
    default:
      return true;
  }
}

const CURSOR_PREFIX = 'after:';

/**
 * The opaque cursor of the page that starts after `product` (`team/product`).
 *
 * @public
 */
export function overviewCursor(product: string): string {
  return btoa(`${CURSOR_PREFIX}${product}`).replace(/=+$/, '');
}

/**
 * The `team/product` a cursor continues after, or undefined when it is not
 * one this plugin made.
 *
 * @public
 */
export function productAfterCursor(cursor: string): string | undefined {
  let text: string;
  try {
    text = atob(cursor);
  } catch {
    return undefined;
  }
  if (!text.startsWith(CURSOR_PREFIX)) return undefined;
  const product = parseProductRef(text.slice(CURSOR_PREFIX.length));
  return product ? `${product.team}/${product.product}` : undefined;
}

/**
 * One page of rows in a stable order (by `team/product`): the `limit` rows
 * after the cursor's Product, and the cursor of the next page when more
 * follow. A Product added or removed between pages moves no other row.
 *
 * @public
 */
export function overviewPage<T extends { product: string }>(
  rows: T[],
  page: { after?: string; limit: number },
): { rows: T[]; total: number; nextCursor?: string } {
  const ordered = [...rows].sort((a, b) => compare(a.product, b.product));
  const start = page.after === undefined ? 0 : ordered.findIndex(row => compare(row.product, page.after!) > 0);
  const rest = start < 0 ? [] : ordered.slice(start);
  const taken = rest.slice(0, page.limit);
  return {
    rows: taken,
    total: ordered.length,
    nextCursor: rest.length > taken.length ? overviewCursor(taken[taken.length - 1].product) : undefined,
  };
}

function compare(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
