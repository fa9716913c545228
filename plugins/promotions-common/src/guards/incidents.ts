import { actorNameWithoutCatalog } from '../people/actorNames';
import { GuardVerdict } from './types';

/** An incident that is open for a Product, as the ladder shows it. @public */
export interface OpenIncident {
  id: string;
  url: string;
  /** ISO time the plugin first heard it was open. */
  openedAt: string;
}

/**
 * `promotions.incidents`: while a Product has an open incident, promotions
 * into `stages` are blocked, or need an approval from a member of one of
 * `commanders` besides the usual ones.
 *
 * @public
 */
export interface IncidentPolicy {
  stages: string[];
  mode: 'block' | 'approval';
  commanders: string[];
}

/** The incident gate on one stage while incidents are open: what it asks and for which incidents. @public */
export interface StageIncidentGate {
  mode: IncidentPolicy['mode'];
  commanders: string[];
  incidents: OpenIncident[];
}

/** The gate the open incidents put on `stage`, or undefined when they leave it alone. @public */
export function stageIncidentGate(
  policy: IncidentPolicy,
  incidents: OpenIncident[],
  stage: string,
): StageIncidentGate | undefined {
  if (!incidents.length || !policy.stages.includes(stage)) return undefined;
  return { mode: policy.mode, commanders: policy.commanders, incidents };
}

function naming(incidents: OpenIncident[]): string {
  const ids = incidents.map(incident => `${incident.id} (${incident.url})`);
  return `${ids.length === 1 ? 'incident' : 'incidents'} ${ids.join(', ')} ${ids.length === 1 ? 'is' : 'are'} open`;
}

/**
 * The incident guard's verdict on a promotion into `stage` of a Product with
 * these open incidents. `commanderApproval` is the incident commander who
 * approved the promotion's current head, if one did. The reason names people
 * and groups by `nameOf` (their catalog names), never by ref.
 *
 * @public
 */
export function incidentVerdict(
  policy: IncidentPolicy,
  incidents: OpenIncident[],
  stage: string,
  commanderApproval?: string,
  nameOf: (actor: string) => string = actorNameWithoutCatalog,
): GuardVerdict {
  const gate = stageIncidentGate(policy, incidents, stage);
  if (!gate) {
    return {
      verdict: 'allow',
      reason: incidents.length ? `${stage} is not closed by incidents` : 'No open incident',
    };
  }
  if (gate.mode === 'block') return { verdict: 'block', reason: `${stage} is closed while ${naming(incidents)}` };
  if (commanderApproval) {
    return { verdict: 'allow', reason: `Approved by incident commander ${nameOf(commanderApproval)} while ${naming(incidents)}` };
  }
  return {
    verdict: 'needs-approval',
    reason: `${naming(incidents)}: ${stage} needs an approval from an incident commander (${gate.commanders.map(nameOf).join(', ')}) as well`,
  };
}

/** What an approver is asked for: the commanders' and the release-approvers' roles. @public */
export interface IncidentApprovalSituation {
  /** An open incident makes the promotion need a commander's approval. */
  commanderNeeded: boolean;
  /** A commander already approved the promotion's current head. */
  commanderApproved: boolean;
  isCommander: boolean;
  isReleaseApprover: boolean;
}

/**
 * What a person's approval counts as. The commander's approval is an extra
 * one: someone who is both fills the missing commander's place first, and
 * then does not count towards the release-approvers' quorum as well.
 * Undefined: they may not approve it.
 *
 * @public
 */
export function approvalRole(situation: IncidentApprovalSituation): 'incident-commander' | 'release-approver' | undefined {
  const { commanderNeeded, commanderApproved, isCommander, isReleaseApprover } = situation;
  if (commanderNeeded && !commanderApproved && isCommander) return 'incident-commander';
  return isReleaseApprover ? 'release-approver' : undefined;
}

/** Whether the approvals given make the promotion approved: the quorum, and a commander when one is needed. @public */
export function approvalComplete(quorumMet: boolean, commanderNeeded: boolean, commanderApproved: boolean): boolean {
  return quorumMet && (!commanderNeeded || commanderApproved);
}
