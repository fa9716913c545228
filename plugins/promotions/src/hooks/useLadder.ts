import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import { useSignal } from '@backstage/plugin-signals-react';
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
  const again = useRef(false);
  const latestRefresh = useRef<() => void>(() => {});
  const team = product?.team;
  const name = product?.product;

  const load = useCallback((queue: boolean) => {
    if (!team || !name) return;
    if (inFlight.current) {
      // The read in flight may predate the change the caller just made
      // (a hold lifted, a rollback opened): read once more after it. A
      // timer tick needs no such retry, the next tick comes anyway.
      if (queue) again.current = true;
      return;
    }
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
        if (again.current) {
          again.current = false;
          latestRefresh.current();
        }
      });
  }, [api, team, name]);
  const refresh = useCallback(() => load(true), [load]);
  latestRefresh.current = refresh;

  // The backend signals every change it makes (request, Gate, auto-promoter,
  // holds): refresh at once. Polling stays for what only ArgoCD knows
  // (canary progress), and is all there is without the signals plugin.
  const { lastSignal } = useSignal(`promotions:${team ?? ''}/${name ?? ''}`);
  useEffect(() => {
    if (lastSignal) refresh();
  }, [lastSignal, refresh]);

  useEffect(() => {
    setLadder(undefined);
    setLoading(true);
    refresh();
    const timer = setInterval(() => load(false), refreshMs);
    return () => clearInterval(timer);
  }, [load, refresh, refreshMs]);

  return { ladder, error, loading, refresh };
}
