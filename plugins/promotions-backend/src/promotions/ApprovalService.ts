import {
  BackstageCredentials,
  BackstageUserPrincipal,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { ConflictError, NotAllowedError } from '@backstage/errors';
import {
  ApprovalPolicy,
  PromotionEvent,
  QuorumProgress,
  actorNameWithoutCatalog,
  approvalComplete,
  approvalRole,
  isApprover,
  quorumNeeded,
  quorumProgress,
} from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import type { PlatformRepo } from '@refplat/plugin-promotions-node';
import { CommanderSituation, IncidentApprovals } from '../incidents/IncidentApprovals';
import { ActorNames, NameOf } from '../service/ActorNames';
import { ApprovalRights } from './ApprovalRights';
import { actorInMarkdown } from './pullRequestText';
import { applyLifecycleEvent, decideLifecycleEvent } from './PromotionLifecycle';

export const APPROVAL_CONTEXT = 'promotions/approval';

export interface ApprovalServiceOptions {
  config: PromotionsConfig;
  store: PromotionStore;
  writer: PlatformRepo;
  rights: ApprovalRights;
  logger: LoggerService;
  onChange?: (promotionId: string) => void;
  /** The incident gate in approval mode: an incident commander's approval is needed as well. */
  incidentApprovals?: IncidentApprovals;
  /** What people read (comments, statuses, reasons) names them; the record keeps refs. */
  names: ActorNames;
}

type ApprovalRole = 'release-approver' | 'incident-commander';

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
    const { role, commander, policy } = await this.approverRole(promotion, credentials);

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
        // Said to the approver themselves: the one asking is the one who requested it.
        'You requested this promotion and may not approve it; another release-approver must',
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
    const commanders = this.options.incidentApprovals?.commanders ?? [];
    // Named before the transaction decides: its reason names the approvers so far. One who
    // approves meanwhile is named by their entity name.
    const nameOf = await this.options.names.namesOf([
      approver,
      promotion.requestedBy,
      ...commanders,
      ...(await store.listEvents(promotion.id)).map(earlier => earlier.actor),
    ]);
    const event = {
      type: role === 'incident-commander' ? ('incident-approved' as const) : ('approved' as const),
      actor: approver,
      detail: pr.headSha,
    };
    // Counted and recorded in one database transaction: approvers approving at the same
    // instant, on different replicas, each count the other, and exactly one completes it.
    let count = undefined as ApprovalCount | undefined;
    const recorded = await decideLifecycleEvent(store, promotion.id, ['approval-counted', 'approved'], (current, events) => {
      if (current.headSha !== pr.headSha) return undefined;
      count = countWith(events, { approver, role, commander }, pr.headSha, this.excludedApprover(current), needed);
      if (!count.complete) {
        return { event: 'approval-counted', changes: { statusReason: waitingReason(count, commanders, nameOf) }, audit: event };
      }
      return {
        event: 'approved',
        changes: { approvedBy: approvedBy(count), approvedSha: pr.headSha, statusReason: undefined },
        audit: event,
      };
    });
    if (!recorded || !count) {
      const current = await store.get(promotion.id);
      if (current?.status === 'approved') return current;
      throw new ConflictError(`Promotion ${promotion.id} changed while it was being approved (now ${current?.status}); look again`);
    }
    if (count.complete) {
      await this.recordApprovalOnPullRequest(promotion, approver, pr, count, nameOf);
      this.options.onChange?.(recorded.id);
    } else {
      await this.recordPartialApprovalOnPullRequest(recorded, approver, pr, count, event.type, nameOf);
    }
    return recorded;
  }

  /**
   * Whether the caller may approve and as what: one of the Product's
   * approvers (the permission policy allows approving the Product, and they
   * are one), or the incident commander an open incident asks for (see
   * approvalRole). Answers the Product's approval policy too.
   */
  private async approverRole(
    promotion: PromotionRecord,
    credentials: BackstageCredentials<BackstageUserPrincipal>,
  ): Promise<{ role: ApprovalRole; commander: CommanderSituation; policy: ApprovalPolicy }> {
    const { rights, incidentApprovals } = this.options;
    const commander = incidentApprovals ? await incidentApprovals.situation(promotion) : { commanderNeeded: false };
    if (!commander.commanderNeeded) {
      return { role: 'release-approver', commander, policy: await rights.require(credentials, promotion) };
    }
    const userRef = credentials.principal.userEntityRef;
    const [policy, candidate] = await Promise.all([rights.policyOf(promotion), rights.candidate(userRef, credentials)]);
    const isCommander = isApprover(candidate.claims, { approvers: incidentApprovals!.commanders });
    const role = approvalRole({
      ...commander,
      commanderApproved: !!commander.commander,
      isCommander,
      isReleaseApprover: isApprover(candidate.claims, policy),
    });
    if (!role) {
      throw new NotAllowedError(
        `${candidate.name} may not approve this promotion: it needs a release-approver (${policy.approvers
          .map(actorNameWithoutCatalog)
          .join(', ')})${
          commander.commander
            ? ''
            : ` or, for the open incident, an incident commander (${incidentApprovals!.commanders.map(actorNameWithoutCatalog).join(', ')})`
        }`,
      );
    }
    return { role, commander, policy };
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
    const needed = quorumNeeded(await this.options.rights.policyOf(promotion), promotion.toStage);
    const quorum = quorumProgress(approvals, headSha, this.excludedApprover(promotion), needed);
    if (!approvalComplete(quorum.met, commander.commanderNeeded, !!commander.commander)) return undefined;
    const approved = await applyLifecycleEvent(this.options.store, promotion.id, 'approved', {
      expected: { headSha },
      changes: { approvedBy: approvedBy({ quorum, commander }), approvedSha: headSha, statusReason: undefined },
    });
    if (approved) this.options.onChange?.(approved.id);
    return approved;
  }

  /** Whose approval does not count: the requester, where approvers must differ from them. */
  private excludedApprover(promotion: PromotionRecord): string | undefined {
    return this.options.config.approval.requireDistinctApprover ? promotion.requestedBy : undefined;
  }

  /** The approval that completed it, on the PR: its status turns green and a comment names the approvers. */
  private async recordApprovalOnPullRequest(
    promotion: PromotionRecord,
    approver: string,
    pr: { number: number; headSha: string },
    count: ApprovalCount,
    nameOf: NameOf,
  ): Promise<void> {
    const { writer, logger } = this.options;
    const { quorum } = count;
    await writer
      .setStatus({
        sha: pr.headSha,
        context: APPROVAL_CONTEXT,
        state: 'success',
        description:
          quorum.needed > 1
            ? `Approved by ${namedApprovers(count, nameOf)} (${quorum.progress})`
            : `Approved by ${count.commander.commander ? namedApprovers(count, nameOf) : nameOf(approver)}`,
      })
      .then(() =>
        writer.comment(
          pr.number,
          `Approved by ${actorInMarkdown(approver, nameOf)}${quorum.needed > 1 ? ` (${quorum.progress})` : ''} in Backstage (requested by ${actorInMarkdown(promotion.requestedBy, nameOf)}) for head ${pr.headSha}. It merges once \`${promotion.fromStage}\` is still healthy; a push to this branch voids the approval.`,
        ),
      )
      .catch(error => logger.warn(`Could not record the approval on PR #${pr.number}: ${error}`));
  }

  /** An approval short of what the promotion needs, on the PR; the promotion keeps waiting. */
  private async recordPartialApprovalOnPullRequest(
    recorded: PromotionRecord,
    approver: string,
    pr: { number: number; headSha: string },
    count: ApprovalCount,
    type: 'approved' | 'incident-approved',
    nameOf: NameOf,
  ): Promise<void> {
    const { writer, logger } = this.options;
    await writer
      .setStatus({
        sha: pr.headSha,
        context: APPROVAL_CONTEXT,
        state: 'pending',
        description: `${count.quorum.progress} approvals${waitsForCommander(count) ? '; waiting for an incident commander' : ''}`,
      })
      .then(() =>
        writer.comment(
          pr.number,
          `Approved by ${actorInMarkdown(approver, nameOf)}${type === 'incident-approved' ? ' (incident commander)' : ''} in Backstage for head ${pr.headSha}: ${recorded.statusReason}.`,
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

/**
 * The quorum of the promotion's stage, counting this approval with the
 * earlier ones of this head in its trail (a commander's approval is an extra
 * one, not part of the quorum), and whether that completes the approval.
 * Throws 409 if the approver already approved this head.
 */
function countWith(
  trail: PromotionEvent[],
  approval: { approver: string; role: ApprovalRole; commander: CommanderSituation },
  headSha: string,
  excluded: string | undefined,
  needed: number,
): ApprovalCount {
  const { approver, role } = approval;
  const events = trail.filter(event => event.detail === headSha);
  if (events.some(event => (event.type === 'approved' || event.type === 'incident-approved') && event.actor === approver)) {
    throw new ConflictError('You already approved this head; another release-approver must approve it');
  }
  const earlier = events.filter(event => event.type === 'approved').map(event => ({ approver: event.actor, sha: headSha }));
  const quorum = quorumProgress(
    role === 'release-approver' ? [...earlier, { approver, sha: headSha }] : earlier,
    headSha,
    excluded,
    needed,
  );
  // The commander's approval as the trail has it now: one may have been given since the caller looked.
  const commanderInTrail = events.find(event => event.type === 'incident-approved')?.actor;
  const commander = {
    ...approval.commander,
    commander: role === 'incident-commander' ? approver : commanderInTrail ?? approval.commander.commander,
  };
  return { quorum, commander, complete: approvalComplete(quorum.met, commander.commanderNeeded, !!commander.commander) };
}

/** Everyone whose approval of the head counts: the quorum's approvers, then the incident commander. */
function approvers(count: Pick<ApprovalCount, 'quorum' | 'commander'>): string[] {
  return [...count.quorum.approvers, ...(count.commander.commander ? [count.commander.commander] : [])];
}

/** The record's `approvedBy`: their refs. */
function approvedBy(count: Pick<ApprovalCount, 'quorum' | 'commander'>): string {
  return approvers(count).join(', ');
}

/** `approvedBy` as people read it. */
function namedApprovers(count: Pick<ApprovalCount, 'quorum' | 'commander'>, nameOf: NameOf): string {
  return approvers(count).map(nameOf).join(', ');
}

function waitsForCommander(count: Pick<ApprovalCount, 'commander'>): boolean {
  return count.commander.commanderNeeded && !count.commander.commander;
}

/** What an incompletely approved promotion still waits for. */
function waitingReason(count: ApprovalCount, commanders: string[], nameOf: NameOf): string {
  const { quorum } = count;
  const given = namedApprovers(count, nameOf);
  const missing = [
    ...(quorum.met ? [] : ['another release-approver']),
    ...(waitsForCommander(count) ? [`an incident commander (${commanders.map(nameOf).join(', ')})`] : []),
  ];
  return `${quorum.progress} approvals${given ? ` (${given})` : ''}; waiting for ${missing.join(' and ')}`;
}
