import { BackstageCredentials, BackstageUserPrincipal } from '@backstage/backend-plugin-api';
import { ConflictError } from '@backstage/errors';
import { PromotionRecord } from '../database/PromotionStore';
import { REJECTABLE_STATUSES, rejectedReason, rejectionProblem } from './approvalRules';
import { ApprovalServiceOptions } from './ApprovalService';
import { actorInMarkdown } from './pullRequestText';
import { NameOf } from '../service/ActorNames';

/**
 * A release-approver's "no": closes the promotion with their reason, then
 * its pull request (with a comment naming them and the reason) and branch.
 * Like the Gate's closing, the record changes first by compare-and-set, so a
 * concurrent approval, merge or second rejection makes exactly one outcome;
 * if GitHub fails after that, the reconciler closes the PR nothing live owns.
 */
export class PromotionRejecter {
  constructor(
    private readonly options: Omit<ApprovalServiceOptions, 'onChange'>,
  ) {}

  async reject(
    promotion: PromotionRecord,
    credentials: BackstageCredentials<BackstageUserPrincipal>,
    reason: string,
  ): Promise<PromotionRecord> {
    const { store, rights } = this.options;
    const rejecter = credentials.principal.userEntityRef;
    const product = { team: promotion.team, product: promotion.product };
    // The same who-may as approving: rejecting is the other answer to the same request.
    await rights.require(credentials, product, 'rejections');

    const problem = rejectionProblem(promotion);
    if (problem) throw new ConflictError(problem);
    // The record keeps who by ref; its reason, which people read, names them.
    const nameOf = await this.options.names.namesOf([rejecter, promotion.requestedBy]);
    const rejected = await store.transition(
      promotion.id,
      { status: REJECTABLE_STATUSES },
      { status: 'closed', statusReason: rejectedReason(nameOf(rejecter), reason), rejection: { by: rejecter, reason } },
      { type: 'rejected', actor: rejecter, detail: reason },
    );
    if (!rejected) {
      const current = (await store.get(promotion.id)) ?? promotion;
      throw new ConflictError(
        rejectionProblem(current) ?? `Promotion ${promotion.id} changed while it was being rejected; look again`,
      );
    }
    const merged = await this.closeOnGitHub(rejected, rejecter, reason, nameOf);
    if (merged) {
      throw new ConflictError(
        `Too late to reject: pull request #${merged.pullRequest.number} merged before the rejection took effect (${merged.statusReason})`,
      );
    }
    return rejected;
  }

  /**
   * Closes the PR, then looks once whether it had merged already (the Gate
   * merges approved promotions, people merge by hand): if so the record says
   * merged, not rejected, and the caller is told. Answers the merged record.
   */
  private async closeOnGitHub(
    promotion: PromotionRecord,
    rejecter: string,
    reason: string,
    nameOf: NameOf,
  ): Promise<PromotionRecord | undefined> {
    const { writer, store, logger } = this.options;
    const number = promotion.pullRequest.number;
    try {
      await writer.closePullRequest(
        number,
        `Rejected by ${actorInMarkdown(rejecter, nameOf)} in Backstage (requested by ${actorInMarkdown(promotion.requestedBy, nameOf)}):\n\n> ${reason.replace(/\n/g, '\n> ')}`,
      );
    } catch (error) {
      logger.warn(`Could not close rejected PR #${number} (the reconciler closes it if still open): ${error}`);
    }
    const pr = await writer.getPullRequest(number).catch(error => {
      logger.warn(`Could not read PR #${number} after rejecting it: ${error}`);
      return undefined;
    });
    if (pr?.merged) {
      await writer
        .comment(number, `This pull request had merged before the rejection above took effect; it stands as merged.`)
        .catch(error => logger.warn(`Could not comment on PR #${number}: ${error}`));
      return store.transition(
        promotion.id,
        { status: ['closed'] },
        {
          status: 'merged',
          statusReason: `Merged on GitHub${pr.mergedBy ? ` by ${pr.mergedBy}` : ''} before ${nameOf(rejecter)} rejected it`,
          rejection: undefined,
        },
        { type: 'merged', actor: pr.mergedBy ?? 'github', detail: pr.url },
      );
    }
    if (promotion.branch) {
      await writer
        .deleteBranch(promotion.branch)
        .catch(error => logger.warn(`Could not delete branch ${promotion.branch}: ${error}`));
    }
    return undefined;
  }
}
