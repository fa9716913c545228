import { LadderServiceCell } from '@refplat/plugin-promotions-common';

type AutoPromotion = NonNullable<LadderServiceCell['autoPromotion']>;

const DECISION_WORDS: Record<AutoPromotion['decision'], string> = {
  promote: 'promoted',
  skip: 'skipped',
  refuse: 'refused',
};

/** "Auto-promoter, 30/11/2026, 10:00: skipped — storefront is not healthy in dev". */
export function describeAutoPromotion(auto: AutoPromotion): string {
  return `Auto-promoter, ${new Date(auto.decidedAt).toLocaleString()}: ${
    DECISION_WORDS[auto.decision] ?? auto.decision
  } — ${auto.reason}`;
}
