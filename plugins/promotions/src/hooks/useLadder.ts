import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import { Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../api';

export const LADDER_REFRESH_MS = 10_000;

export interface LadderState {
  ladder?: Ladder;
  /** The last refresh's error; the previous ladder stays on screen meanwhile. */
  error?: Error;
  loading: boolean;
  refresh: () => void;
}

/**
 * Loads a Product's ladder and keeps it fresh while the page is open.
 * A failed refresh keeps showing the last good ladder (no flicker, no blank
 * card during a GitHub hiccup) next to the error.
 */
export function useLadder(
  product: ProductRef | undefined,
  refreshMs: number = LADDER_REFRESH_MS,
): LadderState {
  const api = useApi(promotionsApiRef);
  const [ladder, setLadder] = useState<Ladder>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(true);
  const inFlight = useRef(false);
  const team = product?.team;
  const name = product?.product;

  const refresh = useCallback(() => {
    if (!team || !name || inFlight.current) return;
    inFlight.current = true;
    api
      .getLadder({ team, product: name })
      .then(next => {
        setLadder(next);
        setError(undefined);
      })
      .catch(setError)
      .finally(() => {
        inFlight.current = false;
        setLoading(false);
      });
  }, [api, team, name]);

  useEffect(() => {
    setLadder(undefined);
    setLoading(true);
    refresh();
    const timer = setInterval(refresh, refreshMs);
    return () => clearInterval(timer);
  }, [refresh, refreshMs]);

  return { ladder, error, loading, refresh };
}
