import {
  BackstageCredentials,
  BackstageUserPrincipal,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { ConflictError, NotAllowedError } from '@backstage/errors';
import {
  QuorumProgress,
  approvalComplete,
  approvalRole,
  promotionApprovePermission,
  quorumProgress,
} from '@refplat/plugin-promotions-common';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { PromotionsConfig } from '../config';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { PlatformRepoWriter } from '../github/PlatformRepoWriter';
import { CommanderSituation, IncidentApprovals } from '../incidents/IncidentApprovals';
import { authorizeProduct } from '../service/authorize';
import { releaseApproverCheck, requireApprovalRights } from './releaseApprovers';

export const APPROVAL_CONTEXT = 'promotions/approval';

export interface ApprovalServiceOptions {
  config: PromotionsConfig;
  store: PromotionStore;
  writer: PlatformRepoWriter;
  catalog: CatalogService;
  permissions: PermissionsService;
  logger: LoggerService;
  onChange?: (promotionId: string) => void;
  /** The incident gate in approval mode: an incident commander's approval is needed as well. */
  incidentApprovals?: IncidentApprovals;
}

/** What one approval counts as, and what the promotion needs besides. */
interface ApprovalCount {
  quorum: QuorumProgress;
  commander: CommanderSituation;
  /** The quorum is met, and a commander approved when one is needed. */
  complete: boolean;
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
    const { config, store, writer } = this.options;
    const approver = credentials.principal.userEntityRef;
    const { role, commander } = await this.approverRole(promotion, credentials);

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
    const count = await this.countWith(promotion, { approver, role, commander }, pr.headSha);
    const { quorum } = count;
    const event = { type: role === 'incident-commander' ? ('incident-approved' as const) : ('approved' as const), actor: approver, detail: pr.headSha };
    if (!count.complete) return this.recordPartialApproval(promotion, approver, pr, count, event);
    const approved = await store.transition(
      promotion.id,
      { status: ['awaiting-approval'], headSha: pr.headSha },
      { status: 'approved', approvedBy: approvedBy(count), approvedSha: pr.headSha, statusReason: undefined },
      event,
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
        description:
          quorum.needed > 1
            ? `Approved by ${approvedBy(count)} (${quorum.progress})`
            : `Approved by ${count.commander.commander ? approvedBy(count) : approver}`,
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

  /**
   * Whether the caller may approve and as what: a release-approver (the
   * permission policy allows approving the Product, and they are one), or
   * the incident commander an open incident asks for (see approvalRole).
   */
  private async approverRole(
    promotion: PromotionRecord,
    credentials: BackstageCredentials<BackstageUserPrincipal>,
  ): Promise<{ role: 'release-approver' | 'incident-commander'; commander: CommanderSituation }> {
    const { config, permissions, catalog, incidentApprovals } = this.options;
    const commander = incidentApprovals ? await incidentApprovals.situation(promotion) : { commanderNeeded: false };
    if (!commander.commanderNeeded) {
      await requireApprovalRights({ permissions, catalog, approvers: config.approval.approvers }, credentials, promotion);
      return { role: 'release-approver', commander };
    }
    await authorizeProduct(permissions, credentials, promotionApprovePermission, promotion);
    const userRef = credentials.principal.userEntityRef;
    const { isApprover, name } = await releaseApproverCheck(catalog, config.approval.approvers, userRef, credentials);
    const isCommander = await incidentApprovals!.isCommander(userRef, credentials);
    const role = approvalRole({ ...commander, commanderApproved: !!commander.commander, isCommander, isReleaseApprover: isApprover });
    if (!role) {
      throw new NotAllowedError(
        `${name} may not approve this promotion: it needs a release-approver (${config.approval.approvers.join(', ')})${
          commander.commander ? '' : ` or, for the open incident, an incident commander (${incidentApprovals!.commanders.join(', ')})`
        }`,
      );
    }
    return { role, commander };
  }

  /**
   * The quorum of the promotion's stage, counting this approval with the
   * earlier ones of this head (a commander's approval is an extra one, not
   * part of the quorum), and whether that completes the approval.
   */
  private async countWith(
    promotion: PromotionRecord,
    approval: { approver: string; role: 'release-approver' | 'incident-commander'; commander: CommanderSituation },
    headSha: string,
  ): Promise<ApprovalCount> {
    const { approver, role } = approval;
    const needed = this.options.config.approval.quorum[promotion.toStage] ?? 1;
    const events = (await this.options.store.listEvents(promotion.id)).filter(event => event.detail === headSha);
    if (events.some(event => (event.type === 'approved' || event.type === 'incident-approved') && event.actor === approver)) {
      throw new ConflictError(`${approver} already approved this head; another release-approver must approve it`);
    }
    const earlier = events.filter(event => event.type === 'approved').map(event => ({ approver: event.actor, sha: headSha }));
    const quorum = quorumProgress(
      role === 'release-approver' ? [...earlier, { approver, sha: headSha }] : earlier,
      headSha,
      promotion.requestedBy,
      needed,
    );
    const commander = role === 'incident-commander' ? { ...approval.commander, commander: approver } : approval.commander;
    return { quorum, commander, complete: approvalComplete(quorum.met, commander.commanderNeeded, !!commander.commander) };
  }

  /**
   * Approves a promotion whose approvals are complete without a new one: an
   * incident that asked for a commander was resolved, and the quorum was met.
   * The approvals are already in its trail.
   */
  async settle(promotion: PromotionRecord): Promise<PromotionRecord | undefined> {
    if (promotion.status !== 'awaiting-approval' || !promotion.headSha) return undefined;
    const headSha = promotion.headSha;
    const approvals = (await this.options.store.listEvents(promotion.id))
      .filter(event => event.type === 'approved' && event.detail === headSha)
      .map(event => ({ approver: event.actor, sha: headSha }));
    if (!approvals.length) return undefined;
    const commander = this.options.incidentApprovals
      ? await this.options.incidentApprovals.situation(promotion)
      : { commanderNeeded: false };
    const needed = this.options.config.approval.quorum[promotion.toStage] ?? 1;
    const quorum = quorumProgress(approvals, headSha, promotion.requestedBy, needed);
    if (!approvalComplete(quorum.met, commander.commanderNeeded, !!commander.commander)) return undefined;
    const approved = await this.options.store.transition(
      promotion.id,
      { status: ['awaiting-approval'], headSha },
      { status: 'approved', approvedBy: approvedBy({ quorum, commander }), approvedSha: headSha, statusReason: undefined },
    );
    if (approved) this.options.onChange?.(approved.id);
    return approved;
  }

  /** An approval short of the quorum: recorded in the trail and on the PR; the promotion keeps waiting. */
  private async recordPartialApproval(
    promotion: PromotionRecord,
    approver: string,
    pr: { number: number; headSha: string },
    count: ApprovalCount,
    event: { type: 'approved' | 'incident-approved'; actor: string; detail: string },
  ): Promise<PromotionRecord> {
    const { store, writer, logger } = this.options;
    const statusReason = waitingReason(count, this.options.incidentApprovals?.commanders ?? []);
    const recorded = await store.transition(
      promotion.id,
      { status: ['awaiting-approval'], headSha: pr.headSha },
      { statusReason },
      event,
    );
    if (!recorded) {
      throw new ConflictError(`Promotion ${promotion.id} changed while it was being approved; look again`);
    }
    await writer
      .setStatus({ sha: pr.headSha, context: APPROVAL_CONTEXT, state: 'pending', description: `${count.quorum.progress} approvals${waitsForCommander(count) ? '; waiting for an incident commander' : ''}` })
      .then(() =>
        writer.comment(
          pr.number,
          `Approved by \`${approver}\`${event.type === 'incident-approved' ? ' (incident commander)' : ''} in Backstage for head ${pr.headSha}: ${statusReason}.`,
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

/** Everyone whose approval of the head counts: the quorum's approvers, then the incident commander. */
function approvedBy(count: Pick<ApprovalCount, 'quorum' | 'commander'>): string {
  return [...count.quorum.approvers, ...(count.commander.commander ? [count.commander.commander] : [])].join(', ');
}

function waitsForCommander(count: Pick<ApprovalCount, 'commander'>): boolean {
  return count.commander.commanderNeeded && !count.commander.commander;
}

/** What an incompletely approved promotion still waits for. */
function waitingReason(count: ApprovalCount, commanders: string[]): string {
  const { quorum } = count;
  const given = approvedBy(count);
  const missing = [
    ...(quorum.met ? [] : ['another release-approver']),
    ...(waitsForCommander(count) ? [`an incident commander (${commanders.join(', ')})`] : []),
  ];
  return `${quorum.progress} approvals${given ? ` (${given})` : ''}; waiting for ${missing.join(' and ')}`;
}
