import { useApi } from '@backstage/core-plugin-api';
import { Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../api';
import { useLiveProductData } from './useLiveProductData';

export interface LadderState {
  ladder?: Ladder;
  /** The last refresh's error; the previous ladder stays on screen meanwhile. */
  error?: Error;
  loading: boolean;
  refresh: () => void;
}

/** Loads a Product's ladder and keeps it fresh while the page is open. */
export function useLadder(product: ProductRef | undefined): LadderState {
  const api = useApi(promotionsApiRef);
  const { value, ...state } = useLiveProductData(product, p => api.getLadder(p));
  return { ladder: value, ...state };
}
