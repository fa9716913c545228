import type { HealthVerdictName, Ladder } from '../ladder/types';
import type { Promotion } from '../promotions/types';

/**
 * How one Service of a promotion awaiting approval stands in the stage it
 * leaves.
 *
 * @public
 */
export interface ApprovalSourceService {
  /** The Service's name. */
  service: string;
  /** The digest the promotion carries. */
  digest: string;
  /** The source stage's Release still names `digest`; false once the stage below moved on (or dropped the Service). */
  stillInSource: boolean;
  /** What the source stage's Release names now, when it moved on. */
  nowInSource?: string;
  /** The source cell's verdict, for the digest it has now (which, once it moved on, is not the one promoted). */
  verdict: HealthVerdictName;
  /** Since when `digest` has been continuously healthy there; only while the stage still has it. */
  healthySince?: string;
  /**
   * Seconds `digest` must still stay healthy there before it may climb (0: soaked); absent
   * when the stage has no soak time, the cell is not healthy, or the stage moved on.
   */
  soakRemainingSeconds?: number;
}

/**
 * The source stage of a promotion awaiting approval, as an approver judges it:
 * is what they let in still there, healthy and soaked?
 *
 * @public
 */
export interface ApprovalSource {
  /** The stage the promotion leaves (its `fromStage`). */
  stage: string;
  /** The stage's soak time, when configured. */
  soakSeconds?: number;
  /** One per Service of the promotion, in its order. */
  services: ApprovalSourceService[];
}

/**
 * The source stage of a promotion read from its Product's ladder. A rollback
 * has none: it brings back a digest the stage ran before, whatever the stage
 * below runs now, so that stage's health says nothing about it.
 *
 * @public
 */
export function approvalSource(
  ladder: Pick<Ladder, 'stages'>,
  promotion: Pick<Promotion, 'fromStage' | 'services' | 'kind'>,
): ApprovalSource | undefined {
  if (promotion.kind === 'rollback') return undefined;
  const stage = ladder.stages.find(candidate => candidate.name === promotion.fromStage);
  return {
    stage: promotion.fromStage,
    ...(stage?.soakSeconds ? { soakSeconds: stage.soakSeconds } : {}),
    services: Object.entries(promotion.services).map(([service, digest]): ApprovalSourceService => {
      const cell = stage?.services[service];
      if (!cell || cell.digest !== digest) {
        // Its healthy-since and soak are another digest's: only the verdict is the stage's.
        return { service, digest, stillInSource: false, nowInSource: cell?.digest, verdict: cell?.verdict ?? 'unknown' };
      }
      return {
        service,
        digest,
        stillInSource: true,
        verdict: cell.verdict,
        healthySince: cell.healthySince,
        soakRemainingSeconds: cell.soakRemainingSeconds,
      };
    }),
  };
}
