import { argoTimeIso, argoTimeMillis } from '../../argo/time';
import type { HopEvidence, KubeEvent, KubePod } from './hopEvidence';

/**
 * A Rollout's ReplicaSets are `<rollout>-<hash>` and their Pods `<rollout>-<hash>-<suffix>`:
 * an object is the workload's when its name is the workload's or starts with it and a dash.
 */
export function belongsTo(name: string | undefined, owner: string): boolean {
  return name !== undefined && (name === owner || name.startsWith(`${owner}-`));
}

/** The workload's events with `reason` on objects of `kind`, newest first. */
export function workloadEvents(
  evidence: HopEvidence,
  kind: string,
  reason: string,
): KubeEvent[] {
  return (evidence.events ?? [])
    .filter(
      e =>
        e.involvedObject.kind === kind &&
        e.reason === reason &&
        belongsTo(e.involvedObject.name, evidence.workload),
    )
    .sort((a, b) => (eventMillis(b) ?? 0) - (eventMillis(a) ?? 0));
}

/** When the event was last seen (events carry one of three times, newest first). */
export function eventSeenAt(event: KubeEvent): string | undefined {
  return argoTimeIso(event.lastTimestamp ?? event.eventTime ?? event.firstTimestamp);
}

function eventMillis(event: KubeEvent): number | undefined {
  return argoTimeMillis(eventSeenAt(event));
}

/** The workload's pods, or undefined when the caller did not read them. */
export function workloadPods(evidence: HopEvidence): KubePod[] | undefined {
  return evidence.pods?.filter(p => belongsTo(p.metadata.name, evidence.workload));
}

/** " (seen 14 times)" for a repeated event, nothing for one seen once. */
export function timesSeen(seen: { count?: number }): string {
  return seen.count && seen.count > 1 ? ` (seen ${seen.count} times)` : '';
}

/** The container an event's `fieldPath` names: `spec.containers{storefront}` → `storefront`. */
export function eventContainer(event: KubeEvent): string | undefined {
  return /containers\{([^}]+)\}/.exec(event.involvedObject.fieldPath ?? '')?.[1];
}

/** `kubectl -n <ns> describe <kind> <name>`, the look at the object an event is about. */
export function describeCommand(namespace: string, kind: string, name: string): string {
  return `kubectl -n ${namespace} describe ${kind.toLowerCase()} ${name}`;
}
