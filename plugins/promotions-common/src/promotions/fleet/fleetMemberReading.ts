import type { FleetMemberReading } from './fleetMerge';

/**
 * What the Gate learnt of one Product of a fleet PR, each fact read at
 * this moment.
 *
 * @public
 */
export interface FleetMemberFacts {
  id: string;
  /** Its target stage's Release changed on the base branch since the PR was written. */
  targetMoved: boolean;
  /** The PR's Release file for it is exactly the change the plugin writes. */
  fileIsRequested: boolean;
  /** The stage below, as the Gate judges it for a PR of its own. */
  source: { state: 'success' | 'pending' | 'failure'; description: string };
  /** The guards' decision, with its words; none when no guard is installed. */
  guards?: { verdict: 'allow' | 'block' | 'needs-approval'; reason: string };
}

/**
 * One Product's reading: out when it must not merge (its target moved, its
 * file is not the requested change, the stage below failed or moved on, a
 * guard blocks or asks for a release-approver, which a fleet PR never
 * waits for); pending while the stage below is getting there; else ready.
 *
 * @public
 */
export function fleetMemberReading(facts: FleetMemberFacts): FleetMemberReading {
  const { id, source, guards } = facts;
  if (facts.targetMoved) return { id, state: 'out', reason: 'its target Release changed on the base branch' };
  if (!facts.fileIsRequested) return { id, state: 'out', reason: 'its Release file in the PR is not the requested change' };
  if (source.state === 'failure') return { id, state: 'out', reason: source.description };
  if (guards?.verdict === 'block') return { id, state: 'out', reason: guards.reason };
  if (guards?.verdict === 'needs-approval') {
    return { id, state: 'out', reason: `${guards.reason}; a fleet PR waits for no approval, so it goes on its own` };
  }
  if (source.state === 'pending') return { id, state: 'pending', reason: source.description };
  return { id, state: 'ready' };
}
