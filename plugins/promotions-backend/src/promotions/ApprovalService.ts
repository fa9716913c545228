import {
  BackstageCredentials,
  BackstageUserPrincipal,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { ConflictError } from '@backstage/errors';
import {
  QuorumProgress,
  quorumNeeded,
  quorumProgress,
  recordedApprovals,
} from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { PlatformRepoWriter } from '../github/PlatformRepoWriter';
import { ApprovalRights } from './ApprovalRights';

export const APPROVAL_CONTEXT = 'promotions/approval';

export interface ApprovalServiceOptions {
  config: PromotionsConfig;
  store: PromotionStore;
  writer: PlatformRepoWriter;
  rights: ApprovalRights;
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
    const { config, store, writer, rights } = this.options;
    const approver = credentials.principal.userEntityRef;
    const product = { team: promotion.team, product: promotion.product };

    const policy = await rights.require(credentials, product);

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
    const needed = quorumNeeded(policy, promotion.toStage);
    // Counted and recorded in one database transaction: approvers approving at the same
    // instant, on different replicas, each count the other, and exactly one meets the quorum.
    let quorum = undefined as QuorumProgress | undefined;
    const recorded = await store.decideTransition(promotion.id, (current, events) => {
      if (current.status !== 'awaiting-approval' || current.headSha !== pr.headSha) return undefined;
      const earlier = recordedApprovals(events);
      if (earlier.some(a => a.approver === approver && a.sha === pr.headSha)) {
        throw new ConflictError(`${approver} already approved this head; another release-approver must approve it`);
      }
      quorum = quorumProgress([...earlier, { approver, sha: pr.headSha }], pr.headSha, current.requestedBy, needed);
      const event = { type: 'approved' as const, actor: approver, detail: pr.headSha };
      if (!quorum.met) {
        return {
          changes: {
            statusReason: `${quorum.progress} approvals (${quorum.approvers.join(', ')}); waiting for another release-approver`,
          },
          event,
        };
      }
      return {
        changes: {
          status: 'approved',
          approvedBy: quorum.approvers.join(', '),
          approvedSha: pr.headSha,
          statusReason: undefined,
        },
        event,
      };
    });
    if (!recorded || !quorum) {
      const current = await store.get(promotion.id);
      if (current?.status === 'approved') return current;
      throw new ConflictError(`Promotion ${promotion.id} changed while it was being approved (now ${current?.status}); look again`);
    }
    if (quorum.met) {
      await this.recordApprovalOnPullRequest(promotion, approver, pr, quorum);
      this.options.onChange?.(recorded.id);
    } else {
      await this.recordPartialApprovalOnPullRequest(approver, pr, quorum);
    }
    return recorded;
  }

  /** The approval that met the quorum, on the PR: its status turns green and a comment names the approvers. */
  private async recordApprovalOnPullRequest(
    promotion: PromotionRecord,
    approver: string,
    pr: { number: number; headSha: string },
    quorum: QuorumProgress,
  ): Promise<void> {
    const { writer, logger } = this.options;
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
      .catch(error => logger.warn(`Could not record the approval on PR #${pr.number}: ${error}`));
  }

  /** An approval short of the quorum, on the PR; the promotion keeps waiting. */
  private async recordPartialApprovalOnPullRequest(
    approver: string,
    pr: { number: number; headSha: string },
    quorum: QuorumProgress,
  ): Promise<void> {
    const { writer, logger } = this.options;
    await writer
      .setStatus({ sha: pr.headSha, context: APPROVAL_CONTEXT, state: 'pending', description: `${quorum.progress} approvals` })
      .then(() =>
        writer.comment(
          pr.number,
          `Approved by \`${approver}\` in Backstage for head ${pr.headSha}: ${quorum.progress} approvals; it needs another release-approver.`,
        ),
      )
      .catch(error => logger.warn(`Could not record the approval on PR #${pr.number}: ${error}`));
  }

  /** Overriding the guards' blocks takes what approving takes. */
  async requireOverrideRights(
    credentials: BackstageCredentials<BackstageUserPrincipal>,
    product: { team: string; product: string },
  ): Promise<void> {
    await this.options.rights.require(credentials, product, 'policy overrides');
  }
}
