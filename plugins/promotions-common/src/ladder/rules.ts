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
