import {
  ApprovalPolicy,
  Ladder,
  PromotionEvent,
  PromotionStatus,
  promotionApproval,
  quorumNeeded,
} from '@refplat/plugin-promotions-common';
import { PromotionRecord } from '../database/PromotionStore';

const APPROVAL_STATUSES: PromotionStatus[] = ['awaiting-approval', 'approved'];

/**
 * Puts on each stage that requires approval the quorum a promotion into it
 * needs, and on each live promotion awaiting approval or approved the
 * approvals of its current head and that quorum. Run once per ladder build, not per
 * viewer: a Product has at most one live promotion per stage, so this reads
 * a few trails. After the incidents' annotation: a stage's incident gate says
 * whether a commander's approval is needed as well.
 */
export async function annotateApprovals(
  ladder: Ladder,
  policy: Pick<ApprovalPolicy, 'quorum'>,
  listEvents: (promotionId: string) => Promise<PromotionEvent[]>,
  requireDistinctApprover: boolean,
): Promise<void> {
  for (const stage of ladder.stages) {
    if (stage.requiresApproval) stage.approvalQuorum = quorumNeeded(policy, stage.name);
  }
  await Promise.all(
    ladder.promotions.map(async promotion => {
      // The ladder carries the store's records, which know the PR head the approvals bind to.
      const { headSha } = promotion as Partial<PromotionRecord>;
      // Not only approval stages: an open incident in approval mode makes any stage wait for approval.
      if (!headSha || !APPROVAL_STATUSES.includes(promotion.status)) return;
      const stage = ladder.stages.find(candidate => candidate.name === promotion.toStage);
      promotion.approval = promotionApproval(
        { headSha, requestedBy: promotion.requestedBy },
        await listEvents(promotion.id),
        quorumNeeded(policy, promotion.toStage),
        stage?.incidentGate?.mode === 'approval',
        requireDistinctApprover,
      );
    }),
  );
}
