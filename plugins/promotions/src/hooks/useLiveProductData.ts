import { useCallback, useEffect, useRef, useState } from 'react';
import { configApiRef, useApi } from '@backstage/core-plugin-api';
import { ProductRef } from '@refplat/plugin-promotions-common';
import { useProductSignals } from './useProductSignals';

/** `promotions.ui.refreshSeconds`' default. */
export const LIVE_REFRESH_SECONDS = 10;

export interface LiveProductData<T> {
  value?: T;
  /** The last refresh's error; the previous value stays on screen meanwhile. */
  error?: Error;
  loading: boolean;
  refresh: () => void;
}

/**
 * Reads something about a Product and keeps it fresh while the page is open:
 * at once when the backend signals a change to the Product, and every
 * `promotions.ui.refreshSeconds` (10 s by default) for what only ArgoCD
 * knows (canary progress). A failed refresh
 * keeps showing the last good value (no blank card during a GitHub hiccup)
 * next to the error.
 */
export function useLiveProductData<T>(
  product: ProductRef | undefined,
  read: (product: ProductRef) => Promise<T>,
): LiveProductData<T> {
  const refreshMs =
    (useApi(configApiRef).getOptionalNumber('promotions.ui.refreshSeconds') ?? LIVE_REFRESH_SECONDS) * 1000;
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(true);
  const inFlight = useRef(false);
  const again = useRef(false);
  const latestRefresh = useRef<() => void>(() => {});
  const latestRead = useRef(read);
  latestRead.current = read;
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
    latestRead
      .current({ team, product: name })
      .then(next => {
        setValue(next);
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
  }, [team, name]);
  const refresh = useCallback(() => load(true), [load]);
  latestRefresh.current = refresh;

  // The backend signals every change it makes (request, Gate, auto-promoter,
  // holds): refresh at once. Polling stays for what only ArgoCD knows, and
  // is all there is without the signals plugin. No subscription before the
  // Product is known (see useProductSignals).
  useProductSignals(product, refresh);

  useEffect(() => {
    setValue(undefined);
    setLoading(true);
    refresh();
    const timer = setInterval(() => load(false), refreshMs);
    return () => clearInterval(timer);
  }, [load, refresh, refreshMs]);

  return { value, error, loading, refresh };
}
