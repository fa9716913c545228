import { InputError } from '@backstage/errors';
import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import {
  OVERVIEW_FILTERS,
  OverviewCriteria,
  OverviewFilter,
  isValidName,
  productAfterCursor,
} from '@refplat/plugin-promotions-common';
import { boundedQuote } from './boundedQuote';

export interface OverviewQuery {
  criteria: OverviewCriteria;
  /** The `team/product` the page starts after. */
  after?: string;
  limit: number;
}

export const OVERVIEW_DEFAULT_LIMIT = 50;
export const OVERVIEW_MAX_LIMIT = 200;

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new InputError(`Give ${name} once, as text`);
  return value;
}

function parseOwner(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return stringifyEntityRef(parseEntityRef(value, { defaultKind: 'group', defaultNamespace: 'default' }));
  } catch {
    throw new InputError(`Invalid owner ${boundedQuote(value)}: use an entity ref, e.g. group:default/alpha`);
  }
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return OVERVIEW_DEFAULT_LIMIT;
  const limit = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= OVERVIEW_MAX_LIMIT)) {
    throw new InputError(`Invalid limit ${boundedQuote(value)}: use a whole number from 1 to ${OVERVIEW_MAX_LIMIT}`);
  }
  return limit;
}

/** `?owner=&team=&filter=&cursor=&limit=` of GET /overview, or 400 saying what is wrong. */
export function parseOverviewQuery(query: Record<string, unknown>): OverviewQuery {
  const team = single(query, 'team');
  if (team !== undefined && !isValidName(team)) {
    throw new InputError(`Invalid team ${boundedQuote(team)}: use a team's name, e.g. alpha`);
  }
  const filter = single(query, 'filter');
  if (filter !== undefined && !OVERVIEW_FILTERS.includes(filter as OverviewFilter)) {
    throw new InputError(`Invalid filter ${boundedQuote(filter)}: use one of ${OVERVIEW_FILTERS.join(', ')}`);
  }
  const cursor = single(query, 'cursor');
  const after = cursor === undefined ? undefined : productAfterCursor(cursor);
  if (cursor !== undefined && after === undefined) {
    throw new InputError(`Invalid cursor ${boundedQuote(cursor)}: pass back the nextCursor of the previous page`);
  }
  return {
    criteria: { owner: parseOwner(single(query, 'owner')), team, filter: filter as OverviewFilter | undefined },
    after,
    limit: parseLimit(single(query, 'limit')),
  };
}
