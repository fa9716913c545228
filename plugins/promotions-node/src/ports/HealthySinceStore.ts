import { healthySinceKey } from '@refplat/plugin-promotions-common';
import type { Ladder, ProductRef } from '@refplat/plugin-promotions-common';

/**
 * Since when each service has been healthy at a stage with its current
 * digest, as observed by ladder reads: one entry per (Product, stage,
 * service), for one digest. Soak times are measured from here.
 *
 * @public
 */
export interface HealthySinceStore {
  /** `healthySinceKey(stage, service, digest)` → ISO time. */
  read(product: ProductRef): Promise<Record<string, string>>;
  /** Records what a ladder read observed (see `healthySinceChanges`); answers the new state. */
  observe(ladder: Ladder, now: Date): Promise<Record<string, string>>;
}

/**
 * What a ladder read changes in the healthy-since times of its Product.
 *
 * @public
 */
export interface HealthySinceChanges {
  /** The state after the read: `healthySinceKey(stage, service, digest)` → ISO time. */
  next: Record<string, string>;
  /** Cells that start a healthy time now (a time kept for another digest is replaced). */
  started: Array<{ stage: string; service: string; digest: string; since: string }>;
  /** Cells whose time ends: the service itself failed. */
  ended: Array<{ stage: string; service: string }>;
}

/**
 * The rule every HealthySinceStore applies: a new digest starts the time
 * again, and so does a real failure of the service itself (`unhealthy`); a
 * service that is only `progressing` or `unknown` for a while (a
 * neighbour's sync, ArgoCD briefly unreachable) keeps its time.
 *
 * @public
 */
export function healthySinceChanges(
  known: Record<string, string>,
  ladder: Ladder,
  now: Date,
): HealthySinceChanges {
  const changes: HealthySinceChanges = { next: {}, started: [], ended: [] };
  for (const stage of ladder.stages) {
    for (const [service, cell] of Object.entries(stage.services)) {
      if (!cell.digest) continue;
      const key = healthySinceKey(stage.name, service, cell.digest);
      if (cell.healthy) {
        changes.next[key] = known[key] ?? now.toISOString();
        if (!known[key]) {
          changes.started.push({ stage: stage.name, service, digest: cell.digest, since: changes.next[key] });
        }
      } else if (known[key] && cell.verdict !== 'unhealthy') {
        changes.next[key] = known[key];
      } else if (known[key]) {
        changes.ended.push({ stage: stage.name, service });
      }
    }
  }
  return changes;
}
