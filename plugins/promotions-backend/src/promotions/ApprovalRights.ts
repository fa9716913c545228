import { BackstageCredentials, LoggerService } from '@backstage/backend-plugin-api';
import { NotAllowedError } from '@backstage/errors';
import {
  ApprovalPolicy,
  ProductRef,
  actorNameWithoutCatalog,
  formatProductRef,
  isApprover,
  productApprovalPolicy,
} from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import type { ApproverCandidate, ApproverDirectory, ProductOwners } from '@refplat/plugin-promotions-node';

export type { ApproverCandidate } from '@refplat/plugin-promotions-node';

/**
 * Who may answer a Product's promotions awaiting approval (approve, reject,
 * override the guards), and how many approvals each stage needs: the global
 * `promotions.approval` refined by the Product's System annotations
 * (`refplat.org/approvers`, `refplat.org/approval-quorum`). Approving,
 * rejecting, the inbox, the ladder and the actions all ask here, so they
 * cannot disagree.
 */
export class ApprovalRights {
  /** Annotation problems already logged: a bad annotation warns once, not on every ladder view. */
  private readonly warned = new Set<string>();

  constructor(
    private readonly options: {
      config: PromotionsConfig;
      owners: Pick<ProductOwners, 'approvalAnnotations'>;
      directory: ApproverDirectory;
      logger: LoggerService;
    },
  ) {}

  /** The Product's approval policy; annotation entries that do not parse are ignored and logged. */
  async policyOf(product: ProductRef): Promise<ApprovalPolicy> {
    const { config, owners, logger } = this.options;
    const { problems, ...policy } = productApprovalPolicy(
      config.approval,
      await owners.approvalAnnotations(product),
    );
    for (const problem of problems) {
      const message = `The System of ${formatProductRef(product)}: ${problem}`;
      if (this.warned.has(message)) continue;
      this.warned.add(message);
      logger.warn(message);
    }
    return policy;
  }

  /** The Product's approvers (Group refs). */
  async approversOf(product: ProductRef): Promise<string[]> {
    return (await this.policyOf(product)).approvers;
  }

  /** The user with their Group memberships as the directory records them. */
  candidate(userEntityRef: string, credentials: BackstageCredentials): Promise<ApproverCandidate> {
    return this.options.directory.candidate(userEntityRef, credentials);
  }

  /**
   * Throws 403 unless the user is one of the Product's approvers, whatever the
   * permission policy says (the operations layer, PromotionsOperations, asks it
   * for `promotions.promotion.approve` before). Answers the Product's policy;
   * `what` says what needs it.
   */
  async require(
    credentials: BackstageCredentials<{ type: 'user'; userEntityRef: string }>,
    product: ProductRef,
    what = 'approvals',
  ): Promise<ApprovalPolicy> {
    const { policy, candidate, approves } = await this.standing(credentials, product);
    if (!approves) {
      throw new NotAllowedError(
        `${candidate.name} is not a release-approver: ${what} need membership of ${policy.approvers
          .map(actorNameWithoutCatalog)
          .join(', ')}`,
      );
    }
    return policy;
  }

  /** Whether the user is one of the Product's approvers, by membership (the permission policy aside). */
  async isApproverOf(
    credentials: BackstageCredentials<{ type: 'user'; userEntityRef: string }>,
    product: ProductRef,
  ): Promise<boolean> {
    return (await this.standing(credentials, product)).approves;
  }

  /** The Product's policy, the user as the directory records them, and whether they are among its approvers. */
  private async standing(credentials: BackstageCredentials<{ type: 'user'; userEntityRef: string }>, product: ProductRef) {
    const [policy, candidate] = await Promise.all([
      this.policyOf(product),
      this.candidate(credentials.principal.userEntityRef, credentials),
    ]);
    return { policy, candidate, approves: isApprover(candidate.claims, policy) };
  }
}
