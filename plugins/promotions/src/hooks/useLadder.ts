import { useApi } from '@backstage/core-plugin-api';
import { Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../api';
import { useLiveProductData } from './useLiveProductData';

const SUMMARY = { detail: 'summary' } as const;

export interface LadderState {
  ladder?: Ladder;
  /** The last refresh's error; the previous ladder stays on screen meanwhile. */
  error?: Error;
  loading: boolean;
  refresh: () => void;
}

/**
 * Loads a Product's ladder and keeps it fresh while the page is open: its summary form, a
 * third of the bytes on every refresh; a cell's details are read when someone opens them
 * (useCellDetails).
 */
export function useLadder(product: ProductRef | undefined): LadderState {
  const api = useApi(promotionsApiRef);
  const { value, ...state } = useLiveProductData(product, p => api.getLadder(p, SUMMARY));
  return { ladder: value, ...state };
}
