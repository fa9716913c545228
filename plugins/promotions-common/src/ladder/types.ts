import type { ActiveFreeze } from '../guards/freezes';
import type { NamedGuardVerdict } from '../guards/types';
import type { OpenIncident, StageIncidentGate } from '../guards/incidents';
import type { CanaryState } from '../argo/canaryState';
import type { RolloutHealth } from '../argo/rolloutHealth';
import type { HealthVerdict, ServiceHealthCheck } from '../health/serviceHealth';
import type { AutoDecisionKind, Hold } from '../autoPromote/types';
import type { DigestAge } from '../autoPromote/digestAge';
import type { Diagnosis, DiagnosisCode, DiagnosisState } from '../diagnosis/diagnose';
import type { HopReading } from '../diagnosis/hops/hopTypes';
import type { PromotionChecklistItem } from '../diagnosis/checklistItem';
import type { Promotion } from '../promotions/types';
import type { Provenance } from '../provenance/types';

/**
 * The HTTP read model: what `GET /products/{team}/{product}/ladder` answers.
 * The contract fixes `stages[].{name, requiresApproval, healthy,
 * services.<svc>.{digest, healthy}}` and `promotions`; the rest extends it.
 */

/**
 * Health verdicts and canary state come from the pure rules.
 *
 * @public
 */
export type HealthVerdictName = HealthVerdict;
/** @public */
export type LadderCanary = CanaryState;

/** @public */
export interface LadderServiceCell {
  /** The digest the stage's Release record names; absent when not released there. */
  digest?: string;
  /** Whether the stage's Environment declares the service. */
  declared: boolean;
  healthy: boolean;
  verdict: HealthVerdictName;
  /** Why the cell is not healthy, in a developer's words. Empty when healthy. */
  reasons: string[];
  /** Each reality check with its state, for "why can't I promote?". */
  checks?: ServiceHealthCheck[];
  /** Digests of this service's images that ArgoCD reports running. */
  runningDigests: string[];
  canary?: LadderCanary;
  /** The service's own Rollout health as ArgoCD computes it, when known. */
  rolloutHealth?: RolloutHealth;
  /**
   * The stage below names a different digest that is not older than this
   * one (see `incomingAge`): it is waiting to climb here.
   */
  waitingToClimb: boolean;
  /**
   * When the stage below names a different digest: whether it is newer or
   * older than this one, by first arrival at the bottom rung. An older one
   * (a rollback below, a lifted hold) does not climb: moving it up is a
   * downgrade, which only a person makes, through a rollback.
   */
  incomingAge?: DigestAge;
  /** Whether this service can be promoted into this stage now, and why (not). */
  promotion?: Promotability;
  /** A live hold: the auto-promoter (and promotions) stay out until it is lifted. */
  hold?: Hold;
  /** Since when this digest has been continuously healthy here. */
  healthySince?: string;
  /** Seconds before this digest may leave this stage (the stage's soak time). */
  soakRemainingSeconds?: number;
  /** Where the deployment of this digest stands and, when stuck, why (see diagnose()). */
  diagnosis?: Diagnosis;
  /** "Why can't I promote?": each gate for promoting this service into this stage. */
  checklist?: PromotionChecklistItem[];
  /** The auto-promoter's last decision about promoting into this cell. */
  autoPromotion?: { decision: AutoDecisionKind; reason: string; decidedAt: string };
  /** The merged promotion (or rollback) that brought the current digest here, when the plugin made it. */
  arrivedWith?: CellArrival;
  /**
   * ISO: when the current digest arrived here by the platform branch's history (the commit that
   * last changed it: a merge's or CI push's time), when delivery metrics have read that commit.
   */
  arrivedAt?: string;
  /**
   * Where the digest came from, as the registry and Sigstore say (who signed it, the SLSA
   * provenance's source commit and builder); present when `promotions.provenance.mode` is
   * `enforce` or `warn`.
   */
  provenance?: Provenance;
  /**
   * Only in the summary form (`?detail=summary`), which leaves out `checks`, `checklist`,
   * `diagnosis` and what the ladder's table does not draw (see summarizeLadder): what the table
   * shows of them. The cell route answers the cell in full.
   */
  brief?: LadderCellBrief;
}

/**
 * What a summary cell keeps of its details: enough for the table to draw the cell and say
 * why it cannot be promoted; the rest comes from the cell route when someone opens it.
 *
 * @public
 */
export interface LadderCellBrief {
  /** The diagnosis's gist, when the deployment is not `ok` (stuck, in progress or unknown). */
  diagnosis?: DiagnosisBrief;
  /** How many of the cell's reality checks (`checks`) do not hold; left out when none. */
  failingChecks?: number;
  /** The gates of `checklist` that block promoting into this cell (see gateBlocks); left out when none. */
  blockingGates?: PromotionChecklistItem[];
  /** How many other gates `checklist` has (passing, or only informing); left out when none. */
  otherGates?: number;
}

/**
 * A diagnosis without its steps, links and hop evidence beyond the deciding hop.
 *
 * @public
 */
export interface DiagnosisBrief {
  state: DiagnosisState;
  code: DiagnosisCode;
  likelyCause: string;
  /** The hop that decides where the rollout stands (see decidingHop), without where to look. */
  decidingHop?: Pick<HopReading, 'hop' | 'mark' | 'evidence'>;
}

/**
 * How much of each cell the ladder route answers: `full` (the default) everything,
 * `summary` no `checks`, `checklist` or `diagnosis` but a `brief` of them.
 *
 * @public
 */
export type LadderDetail = 'full' | 'summary';

/**
 * How a cell's digest got there: "auto-promoted 1 min ago, PR #2".
 *
 * @public
 */
export interface CellArrival {
  promotionId: string;
  kind: 'promotion' | 'rollback';
  requestedBy: string;
  pullRequest: { number: number; url: string };
  /** When the promotion merged (the record's last update). */
  mergedAt: string;
}

/** @public */
export interface Promotability {
  allowed: boolean;
  reason: string;
}

/** @public */
export interface LadderApplication {
  name: string;
  /** Which configured health source answered (ArgoCD instance or cluster). */
  source?: string;
  syncStatus?: string;
  healthStatus?: string;
  revision?: string;
  reconciledAt?: string;
  /** Link to the Application in the ArgoCD UI, when known. */
  url?: string;
  healthMessage?: string;
  operationPhase?: string;
  operationMessage?: string;
  operationFinishedAt?: string;
}

/** @public */
export interface LadderStage {
  name: string;
  requiresApproval: boolean;
  /** Where it requires approval: how many distinct release-approvers a promotion into it needs (its quorum). */
  approvalQuorum?: number;
  healthy: boolean;
  verdict: HealthVerdictName;
  reasons: string[];
  services: Record<string, LadderServiceCell>;
  release: {
    path: string;
    /** Blob sha of the Release file on the platform repo's branch. */
    blobSha?: string;
    error?: string;
  };
  environment: {
    path: string;
    declaredServices: string[];
    error?: string;
  };
  application?: LadderApplication;
  /** Whether this rung can be promoted into now (every differing service), and why (not). */
  promotion?: Promotability;
  /** The stage's soak time in seconds, when configured. */
  soakSeconds?: number;
  /** Some service here is stuck by the diagnosis thresholds. */
  stuck?: boolean;
  /** ISO: when the plugin first saw the stage's current Release file ("merged at", give or take a poll). */
  releaseSeenAt?: string;
  /** The freeze window on now for this stage, if any (with its end). */
  freeze?: ActiveFreeze;
  /** Each promotion guard's verdict on promoting the stage below into this one now. */
  guards?: NamedGuardVerdict[];
  /** What the Product's open incidents ask of promotions into this stage (`promotions.incidents`), if anything. */
  incidentGate?: StageIncidentGate;
}

/** @public */
export interface Ladder {
  team: string;
  product: string;
  /** Every service found in any stage, in a stable order. */
  services: string[];
  stages: LadderStage[];
  promotions: Promotion[];
  /** Group refs whose members may approve promotions into approval stages. */
  approvers?: string[];
  /** The platform repo commit the ladder was read from. */
  revision: string;
  /** Set when health could not be read at all (ArgoCD or the cluster unreachable). */
  healthError?: string;
  /** The Product's open incidents, oldest first (with the incident gate configured). */
  incidents?: OpenIncident[];
  generatedAt: string;
}
