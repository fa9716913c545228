import { healthySinceKey } from '@refplat/plugin-promotions-common';
import type { Ladder, ProductRef } from '@refplat/plugin-promotions-common';
import { HealthySinceStore, healthySinceChanges } from '@refplat/plugin-promotions-node';

/**
 * An in-memory `HealthySinceStore`, by the same rule as the database's
 * (`healthySinceChanges`). `set` lets a test say a service has soaked since a given time.
 *
 * @public
 */
export class InMemoryHealthySinceStore implements HealthySinceStore {
  /** Product → `${stage}/${service}` → the one digest's time there. */
  private readonly byProduct = new Map<string, Map<string, { stage: string; service: string; digest: string; since: string }>>();

  async read(product: ProductRef): Promise<Record<string, string>> {
    const cells = this.byProduct.get(`${product.team}/${product.product}`) ?? new Map();
    return Object.fromEntries(
      [...cells.values()].map(({ stage, service, digest, since }) => [healthySinceKey(stage, service, digest), since]),
    );
  }

  async observe(ladder: Ladder, now: Date): Promise<Record<string, string>> {
    const changes = healthySinceChanges(await this.read(ladder), ladder, now);
    for (const { stage, service } of changes.ended) this.cellsOf(ladder).delete(`${stage}/${service}`);
    for (const { stage, service, digest, since } of changes.started) this.set(ladder, stage, service, digest, since);
    return changes.next;
  }

  /** The service has been healthy at the stage with this digest since `since`. */
  set(product: ProductRef, stage: string, service: string, digest: string, since: Date | string): void {
    this.cellsOf(product).set(`${stage}/${service}`, { stage, service, digest, since: new Date(since).toISOString() });
  }

  private cellsOf(product: ProductRef) {
    const key = `${product.team}/${product.product}`;
    if (!this.byProduct.has(key)) this.byProduct.set(key, new Map());
    return this.byProduct.get(key)!;
  }
}
