import type { ActiveFault, FaultSpec } from './faults';
import type { OutageMode } from './outage';
import type { LoggedRequest, UpstreamTarget } from './requestLog';
import type { AppOverrides, SyncStatusCode } from '../world/applicationState';
import type { BuildFlags } from '../registry/publishBuild';
import type { Stall } from '../world/stalls/stall';

/**
 * POST /_sim/ci/push: CI built a new image of a service and writes its digest into the dev Release.
 * With a registry configured, a push without a digest publishes a real signed build; the
 * flags (`unsigned`, `wrongSigner`, `noProvenance`, `tampered`, `notPushed`, `foreignBuilder`, `foreignSource`) break its supply chain.
 */
export interface CiPushRequest extends BuildFlags {
  team: string;
  product: string;
  service: string;
  /** The digest to write; when absent, the published build's digest, or a random one without a registry. */
  digest?: string;
  /** Mark the digest bad: its canary will fail analysis and abort. */
  bad?: boolean;
  /** How the digest stalls in every stage it reaches, at the hop where a real cluster would stop it. */
  stall?: Stall;
}

export interface CiPushResult {
  digest: string;
  /** The new commit on main. */
  commit: string;
}

/**
 * POST /_sim/products: a Product of its own for a test on a shared simulator, laid out and
 * climbed as a seeded one (`like`, e.g. `alpha/shop`) with the same team; its digests are its own.
 */
export interface AddProductRequest {
  product: string;
  like: string;
}

export interface AddedProduct {
  team: string;
  product: string;
}

/** POST /_sim/apps/{name}: force an Application's state for a test. `clear` removes earlier overrides first. */
export interface AppOverrideRequest extends AppOverrides {
  clear?: boolean;
}

export interface SimAppState {
  name: string;
  team: string;
  product: string;
  stage: string;
  syncStatus: SyncStatusCode;
  healthStatus: string;
  /** The platform repo's main at the last comparison. */
  revision: string;
  /** The app repo's main at the last comparison ('' when Applications sync the platform repo). */
  appRevision: string;
  images: string[];
  /** Digests the ApplicationSet wrote into the spec (the Release on main). */
  specDigests: Record<string, string>;
  /** Digests of the source last compared (status.sync.comparedTo). */
  targetDigests: Record<string, string>;
  appliedDigests: Record<string, string>;
  overrides: AppOverrides;
}

export interface SimRolloutState {
  app: string;
  namespace: string;
  name: string;
  phase: string;
  message: string;
  currentStepIndex: number;
  canaryWeight: number;
  stableDigest: string;
  desiredDigest: string;
  aborted: boolean;
}

/** GET /_sim/state */
export interface SimState {
  mainSha: string;
  apps: SimAppState[];
  rollouts: SimRolloutState[];
  badDigests: string[];
  /** Digests pushed with a stall, and how each stalls. */
  stalledDigests: Record<string, Stall>;
  argocdDown: boolean;
  faults: ActiveFault[];
}

/** The programmatic twin of the /_sim HTTP control endpoints. */
export interface SimControl {
  /** POST /_sim/ci/push */
  ciPush(request: CiPushRequest): Promise<CiPushResult>;
  /** POST /_sim/products: resolves once its Applications run what main says, Synced and Healthy. */
  addProduct(request: AddProductRequest): Promise<AddedProduct>;
  /** POST /_sim/bad-digests */
  addBadDigest(digest: string): void;
  /** POST /_sim/faults */
  addFault(fault: FaultSpec): ActiveFault;
  /** DELETE /_sim/faults */
  clearFaults(): void;
  /** POST /_sim/argocd/down; mode 'reset' drops connections instead of answering 503. */
  setArgocdDown(down: boolean, mode?: OutageMode): void;
  /** POST /_sim/apps/{name}; throws for an unknown Application. */
  setApp(name: string, override: AppOverrideRequest): void;
  /** GET /_sim/requests (optionally only one target) */
  getRequests(target?: UpstreamTarget): LoggedRequest[];
  /** DELETE /_sim/requests */
  clearRequests(): void;
  /** GET /_sim/state */
  getState(): SimState;
  /** GET /_sim/streams: Argo CD application streams and Kubernetes watches open now. */
  openStreams(): { argocd: number; kubernetes: number };
  /** POST /_sim/streams/drop: ends them all, as a restarting server does; returns how many. */
  dropStreams(): number;
  /** POST /_sim/reconcile: run one reconcile pass now instead of waiting for the interval. */
  reconcileNow(): Promise<void>;
  /** POST /_sim/github/rate-limit: pretend a login already used `used` requests this hour. */
  setGithubRateLimitUsed(login: string, used: number): void;
}

/** A control call that cannot be done, with the HTTP status the control endpoint answers. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }
}
