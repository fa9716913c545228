/**
 * What the Gate found for one Product of a fleet PR, at the moment it looks.
 *
 * @public
 */
export type FleetMemberReading =
  | { id: string; state: 'ready' }
  /** Its stage below is getting there (progressing, syncing): not a verdict yet. */
  | { id: string; state: 'pending'; reason: string }
  /** It must not merge: the stage below is unhealthy or moved on, a guard blocks or asks for an approver, its target changed, or the PR's file for it is not the requested change. */
  | { id: string; state: 'out'; reason: string };

/**
 * What the Gate does with a fleet PR now.
 *
 * @public
 */
export type FleetMergeDecision =
  /** Every Product in it is ready: merge the head. */
  | { action: 'merge' }
  /** Take these out with a commit restoring their Release files, then look again. */
  | { action: 'take-out'; members: Array<{ id: string; reason: string }> }
  /** Nothing to take out, and none ready yet. */
  | { action: 'wait'; reason: string };

/**
 * A fleet PR merges only when every Product still in it is ready, each
 * judged at this moment: nothing merges on another Product's health or on
 * stale health. A Product that must not merge is taken out at once; one
 * still getting there holds the PR only while no other Product is ready
 * (then it is taken out too, and the auto-promoter offers it again), so one
 * slow Product never holds the fleet.
 *
 * @public
 */
export function decideFleetMerge(readings: FleetMemberReading[]): FleetMergeDecision {
  const out = readings.flatMap(reading => (reading.state === 'out' ? [{ id: reading.id, reason: reading.reason }] : []));
  const pending = readings.flatMap(reading => (reading.state === 'pending' ? [{ id: reading.id, reason: reading.reason }] : []));
  const anyReady = readings.some(reading => reading.state === 'ready');
  if (out.length === 0 && pending.length === 0) {
    return anyReady ? { action: 'merge' } : { action: 'wait', reason: 'no Product is left in it' };
  }
  if (!anyReady) {
    return out.length ? { action: 'take-out', members: out } : { action: 'wait', reason: pending.map(p => p.reason).join('; ') };
  }
  return {
    action: 'take-out',
    members: [
      ...out,
      ...pending.map(p => ({ id: p.id, reason: `not ready while the others were (${p.reason}); the auto-promoter offers it again` })),
    ],
  };
}
