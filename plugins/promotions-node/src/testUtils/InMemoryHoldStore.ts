import { NotFoundError } from '@backstage/errors';
import type { Hold, ProductRef } from '@refplat/plugin-promotions-common';
import { Clock, HoldStore, systemClock } from '@refplat/plugin-promotions-node';

const keyOf = (product: ProductRef, stage: string, service: string) =>
  `${product.team}/${product.product}/${stage}/${service}`;

/**
 * An in-memory `HoldStore`: one live hold per (Product, stage, service), placed at the clock's time.
 *
 * @public
 */
export class InMemoryHoldStore implements HoldStore {
  private readonly live = new Map<string, Hold & ProductRef>();

  constructor(private readonly options: { clock?: Clock } = {}) {}

  async listLive(product: ProductRef): Promise<Hold[]> {
    return [...this.live.values()]
      .filter(hold => hold.team === product.team && hold.product === product.product)
      .sort((a, b) => a.placedAt.localeCompare(b.placedAt))
      .map(({ team: _team, product: _product, ...hold }) => hold);
  }

  async place(
    product: ProductRef,
    hold: { stage: string; service: string; reason: string; placedBy: string },
  ): Promise<Hold> {
    const key = keyOf(product, hold.stage, hold.service);
    if (!this.live.has(key)) {
      const placedAt = (this.options.clock ?? systemClock).now().toISOString();
      this.live.set(key, { team: product.team, product: product.product, ...hold, placedAt });
    }
    const { team: _team, product: _product, ...placed } = this.live.get(key)!;
    return placed;
  }

  async lift(product: ProductRef, stage: string, service: string, _liftedBy: string): Promise<Hold> {
    const key = keyOf(product, stage, service);
    const hold = this.live.get(key);
    if (!hold) throw new NotFoundError(`No hold on ${service} in ${stage}`);
    this.live.delete(key);
    const { team: _team, product: _product, ...lifted } = hold;
    return lifted;
  }
}
