/**
 * A rung waits to climb when the stage below names a different digest for a
 * service this stage declares.
 *
 * @public
 */
export function isWaitingToClimb(
  cell: { declared: boolean; digest?: string },
  belowDigest: string | undefined,
): boolean {
  return cell.declared && belowDigest !== undefined && belowDigest !== cell.digest;
}
