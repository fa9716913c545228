import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import { OverviewCriteria, OverviewRow } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';

/** The rows read so far for one set of filters, and whether more pages follow. */
export interface OverviewPages {
  stages: string[];
  rows: OverviewRow[];
  total: number;
  loading: boolean;
  error?: Error;
  hasMore: boolean;
  loadMore: () => void;
}

const PAGE_SIZE = 100;

/**
 * The matrix page by page, filtered by the backend: the first page when the
 * filters change, the next one on `loadMore` (as the list scrolls near its end).
 */
export function useOverviewPages(criteria: OverviewCriteria): OverviewPages {
  const api = useApi(promotionsApiRef);
  const [state, setState] = useState<Omit<OverviewPages, 'loadMore' | 'hasMore'> & { cursor?: string }>({
    stages: [],
    rows: [],
    total: 0,
    loading: true,
  });
  // Answers for filters no longer shown are dropped.
  const generation = useRef(0);
  const { owner, team, filter } = criteria;

  const read = useCallback(
    async (cursor: string | undefined, current: number) => {
      try {
        const page = await api.getOverview({ owner, team, filter, cursor, limit: PAGE_SIZE });
        if (current !== generation.current) return;
        setState(previous => ({
          stages: page.stages,
          rows: cursor ? [...previous.rows, ...page.rows] : page.rows,
          total: page.total,
          cursor: page.nextCursor,
          loading: false,
        }));
      } catch (error) {
        if (current !== generation.current) return;
        setState(previous => ({ ...previous, loading: false, error: error as Error }));
      }
    },
    [api, owner, team, filter],
  );

  useEffect(() => {
    generation.current += 1;
    setState({ stages: [], rows: [], total: 0, loading: true });
    read(undefined, generation.current);
  }, [read]);

  const loadMore = useCallback(() => {
    if (state.loading || !state.cursor) return;
    setState(previous => ({ ...previous, loading: true }));
    read(state.cursor, generation.current);
  }, [read, state.loading, state.cursor]);

  return { ...state, hasMore: !!state.cursor, loadMore };
}
