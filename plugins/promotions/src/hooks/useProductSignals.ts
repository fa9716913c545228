import { useEffect, useRef } from 'react';
import { useApiHolder } from '@backstage/core-plugin-api';
import { signalApiRef } from '@backstage/plugin-signals-react';
import { ProductRef, formatProductRef } from '@refplat/plugin-promotions-common';

/** The signals channel the backend tells a Product's changes on (the backend's `ladderChannel`). */
export function productChannel(product: ProductRef): string {
  return `promotions:${formatProductRef(product)}`;
}

/**
 * Calls `onSignal` on every signal the backend sends about `product`, once
 * the Product is known, through the app's signals API (nothing without the
 * signals plugin).
 *
 * Not `useSignal`: it subscribes from the first render, and a card knows its
 * Product only once the entity's lookup resolved (a Component's through its
 * System in the catalog), so it subscribed to `promotions:/` and moved to the
 * Product's channel a moment later. The signals client keeps one WebSocket
 * for all its subscribers and closes it when the last one leaves: leaving
 * `promotions:/` closed the socket it was still opening ("WebSocket is closed
 * before the connection is established" in the console, on every System and
 * Component page) and the Product's channel opened another. Here the
 * subscription starts with the Product and changes only with it.
 */
export function useProductSignals(product: ProductRef | undefined, onSignal: () => void): void {
  const signals = useApiHolder().get(signalApiRef);
  const latestOnSignal = useRef(onSignal);
  latestOnSignal.current = onSignal;
  const channel = product?.team && product.product ? productChannel(product) : undefined;

  useEffect(() => {
    if (!signals || !channel) return undefined;
    const { unsubscribe } = signals.subscribe(channel, () => latestOnSignal.current());
    return unsubscribe;
  }, [signals, channel]);
}
