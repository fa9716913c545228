import { leaseExpiry } from '@refplat/plugin-promotions-common';
import { Clock, systemClock } from '@refplat/plugin-promotions-node';
import { PromotionsConfig } from '../config';

/** When an opening lease taken now ends (ISO time). */
export function openingLeaseFromNow(deps: { config: PromotionsConfig; clock?: Clock }): string {
  return leaseExpiry((deps.clock ?? systemClock).now(), deps.config.gate.openingLeaseSeconds * 1000);
}
