import { PromotionEventType } from '@refplat/plugin-promotions-common';
import { PromotionsBroadcaster } from '../promotions/PromotionsBroadcaster';
import { PromotionRecord, PromotionStore } from './PromotionStore';

/**
 * Every change to a promotion goes through the store, so this is the one
 * place that tells open ladders and people about it.
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
    const record = await this.inner.insertLive(...args);
    const superseded = args[2] && (await this.inner.get(args[2].id));
    if (superseded) this.announce(superseded, 'superseded');
    this.announce(record, 'requested');
    return record;
  }

  async update(...args: Parameters<PromotionStore['update']>) {
    const record = await this.inner.update(...args);
    const event = args[2]?.type;
    if (event) this.announce(record, event);
    return record;
  }

  async addEvent(...args: Parameters<PromotionStore['addEvent']>) {
    await this.inner.addEvent(...args);
    const record = await this.inner.get(args[0]);
    if (record) this.announce(record, args[1]);
  }

  get(id: string) {
    return this.inner.get(id);
  }

  findLive(team: string, product: string, toStage: string) {
    return this.inner.findLive(team, product, toStage);
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
