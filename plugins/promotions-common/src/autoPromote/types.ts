// The auto-promoter's words the ladder carries; types only, so the ladder's
// types need not import the rule that uses them.

/**
 * A person's hold on one service in one stage: the auto-promoter leaves it alone.
 *
 * @public
 */
export interface Hold {
  stage: string;
  service: string;
  reason: string;
  placedBy: string;
  placedAt: string;
}

/** @public */
export type AutoDecisionKind = 'promote' | 'skip' | 'refuse';
