import type { Promotion } from '../promotions/types';
import type { CellArrival } from './types';

/**
 * The newest merged promotion into `stage` that wrote `digest` for `service`:
 * how the cell's current digest arrived. A digest written by hand on GitHub,
 * or by a promotion older than `promotions` reaches back, has none.
 *
 * @public
 */
export function arrivalOf(
  promotions: Promotion[],
  stage: string,
  service: string,
  digest: string | undefined,
): CellArrival | undefined {
  if (!digest) return undefined;
  const merged = promotions
    .filter(p => p.status === 'merged' && p.toStage === stage && p.services[service] === digest)
    .sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt))[0];
  return (
    merged && {
      promotionId: merged.id,
      kind: merged.kind ?? 'promotion',
      requestedBy: merged.requestedBy,
      pullRequest: merged.pullRequest,
      mergedAt: merged.updatedAt,
    }
  );
}
