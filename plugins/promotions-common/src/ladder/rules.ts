import type { DigestAge } from '../autoPromote/digestAge';

/**
 * A rung waits to climb when the stage below names a different digest for a
 * service this stage declares, unless that digest is older than this
 * stage's (a rollback below, a lifted hold): moving it up is a downgrade,
 * not a climb.
 *
 * @public
 */
export function isWaitingToClimb(
  cell: { declared: boolean; digest?: string; incomingAge?: DigestAge },
  belowDigest: string | undefined,
): boolean {
  return (
    cell.declared &&
    belowDigest !== undefined &&
    belowDigest !== cell.digest &&
    cell.incomingAge?.age !== 'older'
  );
}

/**
 * Whether the stage below names another digest for this cell, whether it
 * climbs (newer, or of unknown age) or not (older: a rollback below). A
 * stage is in step with the one below only when no cell differs.
 *
 * @public
 */
export function differsFromBelow(cell: { waitingToClimb: boolean; incomingAge?: DigestAge }): boolean {
  return cell.waitingToClimb || cell.incomingAge?.age === 'older';
}
