import { FileCommitter } from '../git/fileCommitter';
import { GitRepo } from '../git/gitRepo';
import { Mutex } from '../git/mutex';
import { RateLimiter } from '../github/rateLimiter';
import { UserDirectory } from '../identity/users';
import { BuildFlags } from '../registry/publishBuild';
import { isDigest } from '../seed/digests';
import { applicationHealth, runningImages } from '../world/liveObjects';
import { Reconciler } from '../world/reconciler';
import { viewRollout } from '../world/rolloutView';
import { World } from '../world/world';
import { OpenStreams } from './openStreams';
import { addProduct } from './addProduct';
import { ciPush } from './ciPush';
import { FaultInjector, FaultSpec } from './faults';
import { OutageMode, OutageSwitch } from './outage';
import { RequestLog, UpstreamTarget } from './requestLog';
import {
  AddProductRequest,
  AppOverrideRequest,
  CiPushRequest,
  ControlError,
  SimControl,
  SimState,
} from './simControl';

export interface SimControllerDeps {
  repo: GitRepo;
  lock: Mutex;
  committer: FileCommitter;
  users: UserDirectory;
  world: World;
  reconciler: Reconciler;
  faults: FaultInjector;
  outage: OutageSwitch;
  requestLog: RequestLog;
  limiter: RateLimiter;
  streams: OpenStreams;
  /** With a registry: publishes a CI build, signed and attested (or broken as the flags say), answering its digest. */
  publishBuild?: (build: { team: string; product: string; service: string }, flags: BuildFlags) => Promise<string>;
}

/** SimControl over the simulator's parts; the /_sim routes call the same methods. */
export class SimController implements SimControl {
  constructor(private readonly deps: SimControllerDeps) {}

  ciPush(request: CiPushRequest) {
    return ciPush(
      {
        ...this.deps,
        markBad: digest => this.deps.world.markBad(digest),
        markStalled: (digest, stall) => this.deps.world.markStalled(digest, stall),
      },
      request,
    );
  }

  addProduct(request: AddProductRequest) {
    return addProduct(
      { ...this.deps, addRunning: write => this.deps.reconciler.addRunning(write) },
      request,
    );
  }

  addBadDigest(digest: string): void {
    if (!isDigest(digest))
      throw new ControlError(
        400,
        'digest must be sha256: followed by 64 lowercase hex characters',
      );
    this.deps.world.markBad(digest);
  }

  addFault(fault: FaultSpec) {
    try {
      return this.deps.faults.add(fault);
    } catch (error) {
      throw new ControlError(
        400,
        error instanceof Error ? error.message : String(error),
      );
    }
  }

  clearFaults(): void {
    this.deps.faults.clear();
  }

  setArgocdDown(down: boolean, mode: OutageMode = '503'): void {
    this.deps.outage.set(down, mode);
    // A server that is gone ends its streams too; 503 mode is a proxy that stays up.
    if (down && mode === 'reset') this.deps.streams.drop();
  }

  openStreams() {
    return {
      argocd: this.deps.streams.count('argocd'),
      kubernetes: this.deps.streams.count('kubernetes'),
    };
  }

  dropStreams(): number {
    return this.deps.streams.drop();
  }

  setApp(name: string, override: AppOverrideRequest): void {
    if (!this.deps.world.setOverrides(name, override, Date.now())) {
      throw new ControlError(404, `no Application named ${name}`);
    }
  }

  getRequests(target?: UpstreamTarget) {
    const all = this.deps.requestLog.list();
    return target ? all.filter(entry => entry.target === target) : all;
  }

  clearRequests(): void {
    this.deps.requestLog.clear();
  }

  reconcileNow(): Promise<void> {
    return this.deps.reconciler.tick();
  }

  setGithubRateLimitUsed(login: string, used: number): void {
    this.deps.limiter.setUsed(login, used);
  }

  getState(): SimState {
    const { world } = this.deps;
    const apps = [...world.apps.values()].sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    return {
      mainSha: world.mainRevision,
      apps: apps.map(app => ({
        name: app.name,
        team: app.key.team,
        product: app.key.product,
        stage: app.key.stage,
        syncStatus: app.overrides.sync ?? app.syncStatus,
        healthStatus: applicationHealth(app, world).status,
        revision: app.comparedRevision,
        appRevision: app.comparedAppRevision,
        specDigests: { ...app.specDigests },
        images: runningImages(app, world),
        targetDigests: { ...app.targetDigests },
        appliedDigests: { ...app.appliedDigests },
        overrides: { ...app.overrides },
      })),
      rollouts: apps.flatMap(app =>
        [...app.rollouts.values()].map(rollout => {
          const view = viewRollout(rollout, world.plan);
          return {
            app: app.name,
            namespace: rollout.namespace,
            name: rollout.name,
            phase: view.phase,
            message: view.message,
            currentStepIndex: view.currentStepIndex,
            canaryWeight: view.canaryWeight,
            stableDigest: rollout.stableDigest,
            desiredDigest: rollout.desiredDigest,
            aborted: rollout.abortedAt !== undefined,
          };
        }),
      ),
      badDigests: [...world.badDigests],
      stalledDigests: Object.fromEntries(world.stalledDigests),
      argocdDown: this.deps.outage.state.down,
      faults: this.deps.faults.list(),
    };
  }
}
