import { BackstageCredentials } from '@backstage/backend-plugin-api';
import { IncidentPolicy, isApprover, stageIncidentGate } from '@refplat/plugin-promotions-common';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { ApprovalRights } from '../promotions/ApprovalRights';
import { IncidentStore } from './IncidentStore';

/** Where an incident commander's approval of a promotion stands. */
export interface CommanderSituation {
  commanderNeeded: boolean;
  /** The commander who approved the promotion's current head, if one did. */
  commander?: string;
}

/**
 * The incident gate's approval mode: whether a promotion needs an incident
 * commander's approval now, who gave it, and who is a commander. Commanders
 * approve through the usual approval (event `incident-approved`), bound to
 * the head they approved like any approval.
 */
export class IncidentApprovals {
  constructor(
    private readonly options: {
      policy: IncidentPolicy;
      incidents: IncidentStore;
      store: PromotionStore;
      /** Whose Group memberships the catalog records. */
      rights: Pick<ApprovalRights, 'candidate'>;
    },
  ) {}

  get commanders(): string[] {
    return this.options.policy.commanders;
  }

  async situation(promotion: Pick<PromotionRecord, 'id' | 'team' | 'product' | 'toStage' | 'headSha'>): Promise<CommanderSituation> {
    if (!(await this.commanderNeeded(promotion))) return { commanderNeeded: false };
    return { commanderNeeded: true, commander: await this.commanderOf(promotion) };
  }

  /** Whether an open incident asks for a commander's approval of promotions into the promotion's stage. */
  async commanderNeeded(promotion: Pick<PromotionRecord, 'team' | 'product' | 'toStage'>): Promise<boolean> {
    const { policy, incidents } = this.options;
    if (policy.mode !== 'approval') return false;
    return !!stageIncidentGate(policy, await incidents.listOpen(promotion), promotion.toStage);
  }

  /** The commander who approved the promotion's current head, if one did. */
  async commanderOf(promotion: Pick<PromotionRecord, 'id' | 'headSha'>): Promise<string | undefined> {
    if (!promotion.headSha) return undefined;
    const events = await this.options.store.listEvents(promotion.id);
    return events.find(event => event.type === 'incident-approved' && event.detail === promotion.headSha)?.actor;
  }

  async isCommander(userRef: string, credentials: BackstageCredentials): Promise<boolean> {
    const { claims } = await this.options.rights.candidate(userRef, credentials);
    return isApprover(claims, { approvers: this.commanders });
  }
}
