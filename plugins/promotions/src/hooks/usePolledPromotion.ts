import { useEffect, useState } from 'react';
import { useApi } from '@backstage/core-plugin-api';
import { ProductRef, Promotion } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../api';

export const PROMOTION_POLL_MS = 3_000;

/**
 * Follows one promotion's status while the caller is mounted, by polling the
 * Product's promotion list. Keeps the last known state when a poll fails or
 * the promotion has dropped out of the list.
 */
export function usePolledPromotion(
  product: ProductRef,
  promotion: Promotion | undefined,
  pollMs: number = PROMOTION_POLL_MS,
): Promotion | undefined {
  const api = useApi(promotionsApiRef);
  const [latest, setLatest] = useState<Promotion | undefined>(promotion);
  const id = promotion?.id;
  const { team, product: name } = product;

  useEffect(() => {
    setLatest(promotion);
  }, [promotion]);

  useEffect(() => {
    if (!id) return undefined;
    let cancelled = false;
    const poll = () => {
      api
        .listPromotions({ team, product: name })
        .then(items => {
          const found = items.find(item => item.id === id);
          if (found && !cancelled) setLatest(found);
        })
        .catch(() => {
          // A missed poll is not worth an error: the next one will try again.
        });
    };
    poll();
    const timer = setInterval(poll, pollMs);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [api, team, name, id, pollMs]);

  return latest;
}
