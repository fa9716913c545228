import { BackstageCredentials, BackstageUserPrincipal, LoggerService } from '@backstage/backend-plugin-api';
import {
  ApprovalItem,
  AwaitedApproval,
  Ladder,
  ProductRef,
  approvalSource,
  awaitedApprovalsFor,
  formatProductRef,
  isApprover,
  promotionApproval,
  quorumNeeded,
} from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { IncidentApprovals } from '../incidents/IncidentApprovals';
import { ApprovalRights } from './ApprovalRights';
import type { ProductAccessQuestion } from '../service/authorize';

type Waiting = { promotion: PromotionRecord; awaiting: AwaitedApproval[] };

/**
 * An approver's work queue: every promotion awaiting approval whose approval
 * by them counts (see awaitedApprovalsFor: one of its Product's approvers
 * while the quorum is short, or an incident commander while an open incident
 * asks for one), oldest first, each with its source stage's health and soak.
 * Live promotions are few (one per Product and stage at most), so this
 * filters them rather than querying per status.
 */
export class ApprovalsInbox {
  constructor(
    private readonly options: {
      config: PromotionsConfig;
      store: PromotionStore;
      rights: ApprovalRights;
      /** The incident gate in approval mode: commanders approve too. */
      incidentApprovals?: IncidentApprovals;
      /** The Product's shared ladder build, as ladder views read it. */
      ladder: (product: ProductRef) => Promise<Ladder>;
      logger: LoggerService;
    },
  ) {}

  /**
   * The caller's queue; `approvable` is the permission policy's answer on approving (the
   * operations layer asks it), which may narrow approving per Product.
   */
  async list(
    credentials: BackstageCredentials<BackstageUserPrincipal>,
    approvable: ProductAccessQuestion,
  ): Promise<ApprovalItem[]> {
    const { store } = this.options;
    const awaiting = (await store.listLive()).filter(promotion => promotion.status === 'awaiting-approval');
    if (awaiting.length === 0) return [];
    const waiting = await this.awaitingCaller(awaiting, credentials);
    if (waiting.length === 0) return [];

    // One batched question for all their Products.
    const products = [...new Map(waiting.map(({ promotion }) => [formatProductRef(promotion), promotion])).values()];
    const allowed = new Set((await approvable.among(products)).map(product => formatProductRef(product)));
    return this.withSources(waiting.filter(({ promotion }) => allowed.has(formatProductRef(promotion))));
  }

  private async awaitingCaller(
    awaiting: PromotionRecord[],
    credentials: BackstageCredentials<BackstageUserPrincipal>,
  ): Promise<Waiting[]> {
    const { config, store, rights, incidentApprovals } = this.options;
    const candidate = await rights.candidate(credentials.principal.userEntityRef, credentials);
    const isCommander = !!incidentApprovals && isApprover(candidate.claims, { approvers: incidentApprovals.commanders });
    const waiting: Waiting[] = [];
    for (const promotion of awaiting) {
      const policy = await rights.policyOf(promotion);
      const caller = { userEntityRef: candidate.userEntityRef, isApprover: isApprover(candidate.claims, policy), isCommander };
      // The trail only for promotions the caller could approve at all: it says what they already approved.
      if (!caller.isApprover && !caller.isCommander) continue;
      const approval = promotionApproval(
        { headSha: promotion.headSha ?? '', requestedBy: promotion.requestedBy },
        await store.listEvents(promotion.id),
        quorumNeeded(policy, promotion.toStage),
        (await incidentApprovals?.commanderNeeded(promotion)) ?? false,
        config.approval.requireDistinctApprover,
      );
      const awaited = awaitedApprovalsFor(
        { ...promotion, approval },
        caller,
        config.approval.requireDistinctApprover,
      );
      if (awaited) waiting.push({ promotion, awaiting: awaited });
    }
    return waiting;
  }

  /**
   * Each promotion with its source stage from the Product's shared ladder (no
   * request of its own). A ladder that cannot be read leaves its promotions
   * without one rather than the approver without their inbox.
   */
  private async withSources(waiting: Waiting[]): Promise<ApprovalItem[]> {
    const ladders = new Map<string, Promise<Ladder | undefined>>();
    const ladderOf = (product: ProductRef) => {
      const key = formatProductRef(product);
      if (!ladders.has(key)) {
        ladders.set(
          key,
          this.options.ladder(product).catch(error => {
            this.options.logger.warn(`The approvals inbox could not read the ladder of ${key}: ${error}`);
            return undefined;
          }),
        );
      }
      return ladders.get(key)!;
    };
    return Promise.all(
      waiting.map(async ({ promotion, awaiting }) => {
        const ladder = promotion.kind === 'rollback' ? undefined : await ladderOf(promotion);
        return { ...promotion, awaiting, source: ladder && approvalSource(ladder, promotion) };
      }),
    );
  }
}
