import {
  BackstageCredentials,
  BackstageUserPrincipal,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { ConflictError } from '@backstage/errors';
import { QuorumProgress, quorumProgress } from '@refplat/plugin-promotions-common';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { PromotionsConfig } from '../config';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { PlatformRepoWriter } from '../github/PlatformRepoWriter';
import { requireApprovalRights } from './releaseApprovers';

export const APPROVAL_CONTEXT = 'promotions/approval';

export interface ApprovalServiceOptions {
  config: PromotionsConfig;
  store: PromotionStore;
  writer: PlatformRepoWriter;
  catalog: CatalogService;
  permissions: PermissionsService;
  logger: LoggerService;
  onChange?: (promotionId: string) => void;
}

/**
 * Approval of promotions into approval stages. The backend opened the PR, so
 * GitHub would refuse its review (422 for approving your own PR): the
 * approval is recorded as a commit status on the PR head, a comment naming
 * the approver, and the promotion's audit trail. An approval binds to the
 * head it was given for, which must be the head the Gate verified: if the
 * head moves, the Gate voids it.
 */
export class ApprovalService {
  constructor(private readonly options: ApprovalServiceOptions) {}

  async approve(
    promotion: PromotionRecord,
    credentials: BackstageCredentials<BackstageUserPrincipal>,
  ): Promise<PromotionRecord> {
    const { config, store, writer, permissions, catalog } = this.options;
    const approver = credentials.principal.userEntityRef;
    const product = { team: promotion.team, product: promotion.product };

    await requireApprovalRights({ permissions, catalog, approvers: config.approval.approvers }, credentials, product);

    if (promotion.status === 'approved') return promotion;
    if (promotion.status !== 'awaiting-approval') {
      throw new ConflictError(
        `Nothing to approve: promotion ${promotion.id} is ${promotion.status}${
          promotion.statusReason ? ` (${promotion.statusReason})` : ''
        }`,
      );
    }
    if (config.approval.requireDistinctApprover && approver === promotion.requestedBy) {
      throw new ConflictError(
        `${approver} requested this promotion and may not approve it; another release-approver must`,
      );
    }
    if (!promotion.pullRequest.number) {
      throw new ConflictError('Its pull request is still being opened; approve it once it is open');
    }

    const pr = await writer.getPullRequest(promotion.pullRequest.number);
    if (pr.headSha !== promotion.headSha) {
      this.options.onChange?.(promotion.id);
      throw new ConflictError(
        `The pull request changed since Backstage verified it (its head is now ${pr.headSha.slice(0, 7)}); the Gate is checking it — look again before approving`,
      );
    }
    const quorum = await this.quorumWith(promotion, approver, pr.headSha);
    if (!quorum.met) return this.recordPartialApproval(promotion, approver, pr, quorum);
    const approved = await store.transition(
      promotion.id,
      { status: ['awaiting-approval'], headSha: pr.headSha },
      { status: 'approved', approvedBy: quorum.approvers.join(', '), approvedSha: pr.headSha, statusReason: undefined },
      { type: 'approved', actor: approver, detail: pr.headSha },
    );
    if (!approved) {
      const current = await store.get(promotion.id);
      if (current?.status === 'approved') return current;
      throw new ConflictError(`Promotion ${promotion.id} changed while it was being approved (now ${current?.status}); look again`);
    }
    await writer
      .setStatus({
        sha: pr.headSha,
        context: APPROVAL_CONTEXT,
        state: 'success',
        description: quorum.needed > 1 ? `Approved by ${quorum.approvers.join(', ')} (${quorum.progress})` : `Approved by ${approver}`,
      })
      .then(() =>
        writer.comment(
          pr.number,
          `Approved by \`${approver}\`${quorum.needed > 1 ? ` (${quorum.progress})` : ''} in Backstage (requested by \`${promotion.requestedBy}\`) for head ${pr.headSha}. It merges once \`${promotion.fromStage}\` is still healthy; a push to this branch voids the approval.`,
        ),
      )
      .catch(error => this.options.logger.warn(`Could not record the approval on PR #${pr.number}: ${error}`));
    this.options.onChange?.(approved.id);
    return approved;
  }

  /** The quorum of the promotion's stage, counting this approval with the earlier ones of this head. */
  private async quorumWith(promotion: PromotionRecord, approver: string, headSha: string): Promise<QuorumProgress> {
    const needed = this.options.config.approval.quorum[promotion.toStage] ?? 1;
    const earlier = (await this.options.store.listEvents(promotion.id))
      .filter(event => event.type === 'approved' && event.detail)
      .map(event => ({ approver: event.actor, sha: event.detail! }));
    if (earlier.some(a => a.approver === approver && a.sha === headSha)) {
      throw new ConflictError(`${approver} already approved this head; another release-approver must approve it`);
    }
    return quorumProgress([...earlier, { approver, sha: headSha }], headSha, promotion.requestedBy, needed);
  }

  /** An approval short of the quorum: recorded in the trail and on the PR; the promotion keeps waiting. */
  private async recordPartialApproval(
    promotion: PromotionRecord,
    approver: string,
    pr: { number: number; headSha: string },
    quorum: QuorumProgress,
  ): Promise<PromotionRecord> {
    const { store, writer, logger } = this.options;
    const statusReason = `${quorum.progress} approvals (${quorum.approvers.join(', ')}); waiting for another release-approver`;
    const recorded = await store.transition(
      promotion.id,
      { status: ['awaiting-approval'], headSha: pr.headSha },
      { statusReason },
      { type: 'approved', actor: approver, detail: pr.headSha },
    );
    if (!recorded) {
      throw new ConflictError(`Promotion ${promotion.id} changed while it was being approved; look again`);
    }
    await writer
      .setStatus({ sha: pr.headSha, context: APPROVAL_CONTEXT, state: 'pending', description: `${quorum.progress} approvals` })
      .then(() =>
        writer.comment(
          pr.number,
          `Approved by \`${approver}\` in Backstage for head ${pr.headSha}: ${quorum.progress} approvals; it needs another release-approver.`,
        ),
      )
      .catch(error => logger.warn(`Could not record the approval on PR #${pr.number}: ${error}`));
    return recorded;
  }

  /** Overriding the guards' blocks takes what approving takes. */
  async requireOverrideRights(
    credentials: BackstageCredentials<BackstageUserPrincipal>,
    product: { team: string; product: string },
  ): Promise<void> {
    const { config, permissions, catalog } = this.options;
    await requireApprovalRights({ permissions, catalog, approvers: config.approval.approvers }, credentials, product, 'policy overrides');
  }
}
