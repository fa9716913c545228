import type { LadderServiceCell } from '../../ladder/types';

/**
 * Whether the ladder reads the cluster's evidence of a cell's hops (issue 47: "only for a stage
 * that is not healthy; a healthy view costs nothing more"): a released digest that is still
 * rolling out or failing. Healthy costs nothing; unknown is about ArgoCD not answering (or the
 * health not read), where the cluster has nothing to add.
 *
 * @public
 */
export function needsHopEvidence(cell: Pick<LadderServiceCell, 'digest' | 'verdict'>): boolean {
  return cell.digest !== undefined && (cell.verdict === 'progressing' || cell.verdict === 'unhealthy');
}
