import useAsync from 'react-use/esm/useAsync';
import { useApi } from '@backstage/core-plugin-api';
import { LadderServiceCell, ProductRef, detailsLeftOut } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../api';

export interface CellDetails {
  /** The cell with its checks, checklist and diagnosis, once known. */
  cell?: LadderServiceCell;
  loading: boolean;
  error?: Error;
}

/**
 * A ladder cell with its details: the cell itself when the ladder carried them, else read
 * from the cell route when this is first used (a dialog opening), and again each time the
 * ladder brings the cell anew (a live refresh) while it is used: an open diagnosis follows
 * the rollout as the full ladder did, and a closed one costs nothing.
 */
export function useCellDetails(
  product: ProductRef,
  stage: string,
  service: string,
  cell: LadderServiceCell,
): CellDetails {
  const api = useApi(promotionsApiRef);
  const needed = detailsLeftOut(cell);
  const { team, product: name } = product;
  const read = useAsync(
    async () => (needed ? api.getLadderCell({ team, product: name }, stage, service) : undefined),
    [api, needed, team, name, stage, service, cell],
  );
  if (!needed) return { cell, loading: false };
  return { cell: read.value, loading: read.loading, error: read.error };
}
