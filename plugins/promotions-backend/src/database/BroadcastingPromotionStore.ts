import { PromotionEventType } from '@refplat/plugin-promotions-common';
import { PromotionsBroadcaster } from '../promotions/PromotionsBroadcaster';
import { PromotionRecord, PromotionStore } from './PromotionStore';

/**
 * Every change to a promotion goes through the store, so this is the one
 * place that tells open ladders and people about it — once per change: only
 * a change that was actually made (a successful compare-and-set) is told.
 */
export class BroadcastingPromotionStore implements PromotionStore {
  constructor(
    private readonly inner: PromotionStore,
    private readonly broadcaster: PromotionsBroadcaster,
  ) {}

  private announce(record: PromotionRecord, event: PromotionEventType) {
    void this.broadcaster.promotionChanged(record, event);
  }

  async insertLive(...args: Parameters<PromotionStore['insertLive']>) {
    const inserted = await this.inner.insertLive(...args);
    if (inserted.superseded) this.announce(inserted.superseded, 'superseded');
    this.announce(inserted.record, 'requested');
    return inserted;
  }

  async transition(...args: Parameters<PromotionStore['transition']>) {
    const record = await this.inner.transition(...args);
    const event = args[3]?.type;
    if (record && event) this.announce(record, event);
    return record;
  }

  async decideTransition(...args: Parameters<PromotionStore['decideTransition']>) {
    let event: PromotionEventType | undefined;
    const record = await this.inner.decideTransition(args[0], (current, events) => {
      const decision = args[1](current, events);
      event = decision?.event.type;
      return decision;
    });
    if (record && event) this.announce(record, event);
    return record;
  }

  get(id: string) {
    return this.inner.get(id);
  }

  findLive(team: string, product: string, toStage: string) {
    return this.inner.findLive(team, product, toStage);
  }

  findByBranch(branch: string) {
    return this.inner.findByBranch(branch);
  }

  listLive() {
    return this.inner.listLive();
  }

  listForProduct(team: string, product: string, limit: number) {
    return this.inner.listForProduct(team, product, limit);
  }

  listEvents(id: string) {
    return this.inner.listEvents(id);
  }
}
