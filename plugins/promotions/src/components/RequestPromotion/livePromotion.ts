import { Ladder, Promotion, isLivePromotion } from '@refplat/plugin-promotions-common';

/** The promotion (or rollback) in flight into `stage`: there is at most one per stage. */
export function livePromotionInto(ladder: Ladder, stage: string): Promotion | undefined {
  return (ladder.promotions ?? []).find(p => p.toStage === stage && isLivePromotion(p.status));
}

/** Whether a promotion writes exactly these digests: requesting them again only finds it. */
export function carriesExactly(promotion: Promotion, services: Record<string, string>): boolean {
  const carried = Object.entries(promotion.services);
  return (
    carried.length === Object.keys(services).length &&
    carried.every(([service, digest]) => services[service] === digest)
  );
}
