import { GitRepo } from '../git/gitRepo';
import {
  ApplicationState,
  changedServices,
  sameDigests,
} from './applicationState';
import { applicationHealth } from './liveObjects';
import {
  PlatformSnapshot,
  ReleaseEntry,
  SnapshotReader,
} from './platformSnapshot';
import {
  advanceRollout,
  applyDigest,
  newStableRollout,
  setFrozen,
} from './rolloutState';
import { World } from './world';

/** Argo CD keeps this many history entries (spec.revisionHistoryLimit default). */
const HISTORY_LIMIT = 10;

export interface ReconcilerOptions {
  intervalMs: number;
  syncDelayMs: number;
}

/**
 * Plays the Argo CD application controller and the Argo Rollouts controller:
 * compares `main` with what runs, syncs after a delay, steps canaries.
 */
export class Reconciler {
  private readonly reader: SnapshotReader;
  private seenRepoVersion = -1;
  private snapshot?: PlatformSnapshot;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly repo: GitRepo,
    private readonly world: World,
    private readonly options: ReconcilerOptions,
  ) {
    this.reader = new SnapshotReader(repo);
  }

  /** Builds the starting state: every Application Synced and Healthy at what main says. */
  async initialize(now = Date.now()): Promise<void> {
    const snapshot = await this.readMainIfChanged();
    if (!snapshot) return;
    for (const entry of snapshot.releases.values()) {
      const app = this.createApp(entry, snapshot.revision, now);
      app.history = await this.historyFromGit(entry.path);
      const last = app.history[app.history.length - 1];
      if (last)
        app.operation = {
          revision: last.revision,
          startedAt: last.deployStartedAt,
          finishedAt: last.deployedAt,
        };
      app.comparedRevision = snapshot.revision;
      app.appliedDigests = { ...app.targetDigests };
      app.syncStatus = entry.record ? 'Synced' : 'Unknown';
      for (const [service, digest] of Object.entries(app.appliedDigests)) {
        app.rollouts.set(
          service,
          newStableRollout({
            name: service,
            namespace: app.namespace,
            team: app.key.team,
            digest,
            now,
          }),
        );
      }
      this.world.apps.set(app.name, app);
    }
    this.world.touch();
  }

  start(): void {
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick()
        .catch(error => {
          // A failed comparison is retried on the next tick, as Argo CD would.
          console.error('platform-sim reconcile failed:', error);
        })
        .finally(() => {
          if (!this.stopped)
            this.timer = setTimeout(loop, this.options.intervalMs);
        });
    };
    this.timer = setTimeout(loop, this.options.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One comparison + progression pass. Exposed so tests and controls can force one. */
  async tick(now = Date.now()): Promise<void> {
    const snapshot = await this.readMainIfChanged();
    if (snapshot) this.compare(snapshot, now);
    let changed = false;
    for (const app of this.world.apps.values()) {
      if (
        app.syncStatus === 'OutOfSync' &&
        app.outOfSyncSince !== undefined &&
        now - app.outOfSyncSince >= this.options.syncDelayMs
      ) {
        this.sync(app, now);
        changed = true;
      }
      for (const rollout of app.rollouts.values()) {
        if (advanceRollout(rollout, this.world.plan, now, this.world.isBad))
          changed = true;
      }
      app.reconciledAt = now;
      const health = applicationHealth(app, this.world).status;
      if (health !== app.lastHealth) {
        app.lastHealth = health;
        app.healthChangedAt = now;
      }
    }
    if (changed) this.world.touch();
  }

  private async readMainIfChanged(): Promise<PlatformSnapshot | undefined> {
    if (this.repo.version === this.seenRepoVersion && this.snapshot)
      return undefined;
    const versionBefore = this.repo.version;
    const revision = await this.repo.resolveCommit('refs/heads/main');
    if (!revision) return undefined;
    this.seenRepoVersion = versionBefore;
    if (this.snapshot?.revision === revision) return undefined;
    this.snapshot = await this.reader.read(revision);
    this.world.mainRevision = revision;
    return this.snapshot;
  }

  /** main moved: mark Applications whose Release changed OutOfSync, follow the revision otherwise. */
  private compare(snapshot: PlatformSnapshot, now: number): void {
    for (const entry of snapshot.releases.values()) {
      let app = this.world.apps.get(entry.key ? nameOf(entry) : '');
      if (!app) {
        // The ApplicationSet generates an Application for a new Release record.
        app = this.createApp(entry, snapshot.revision, now);
        app.syncStatus = 'OutOfSync';
        app.outOfSyncSince = now;
        this.world.apps.set(app.name, app);
      }
      app.comparedRevision = snapshot.revision;
      if (!entry.record) {
        app.syncStatus = 'Unknown';
        app.comparisonError = entry.error;
        app.outOfSyncSince = undefined;
        continue;
      }
      app.comparisonError = undefined;
      app.targetDigests = { ...entry.record.services };
      if (sameDigests(app.targetDigests, app.appliedDigests)) {
        app.syncStatus = 'Synced';
        app.outOfSyncSince = undefined;
      } else if (app.syncStatus !== 'OutOfSync') {
        app.syncStatus = 'OutOfSync';
        app.outOfSyncSince = now;
      }
    }
    // The ApplicationSet deletes Applications whose Release record is gone.
    for (const name of [...this.world.apps.keys()]) {
      if (!snapshot.releases.has(name)) this.world.apps.delete(name);
    }
    this.world.touch();
  }

  /** The automated sync: apply target digests to the Rollouts and record the operation. */
  private sync(app: ApplicationState, now: number): void {
    const revision = app.comparedRevision;
    for (const service of changedServices(app)) {
      const digest = app.targetDigests[service];
      const rollout = app.rollouts.get(service);
      if (digest === undefined) {
        app.rollouts.delete(service);
      } else if (!rollout) {
        // A service's first deploy has no stable version to canary against.
        const created = newStableRollout({
          name: service,
          namespace: app.namespace,
          team: app.key.team,
          digest,
          now,
        });
        setFrozen(created, Boolean(app.overrides.freezeCanary), now);
        app.rollouts.set(service, created);
      } else {
        applyDigest(rollout, digest, now);
      }
    }
    app.appliedDigests = { ...app.targetDigests };
    app.syncStatus = 'Synced';
    app.outOfSyncSince = undefined;
    app.operation = { revision, startedAt: now, finishedAt: now };
    const nextId = (app.history[app.history.length - 1]?.id ?? -1) + 1;
    app.history.push({
      id: nextId,
      revision,
      deployStartedAt: now,
      deployedAt: now,
    });
    if (app.history.length > HISTORY_LIMIT)
      app.history.splice(0, app.history.length - HISTORY_LIMIT);
  }

  private createApp(
    entry: ReleaseEntry,
    revision: string,
    now: number,
  ): ApplicationState {
    const name = nameOf(entry);
    return {
      name,
      key: entry.key,
      namespace: name,
      releasePath: entry.path,
      createdAt: now,
      comparedRevision: revision,
      syncStatus: 'OutOfSync',
      targetDigests: { ...(entry.record?.services ?? {}) },
      appliedDigests: {},
      comparisonError: entry.error,
      history: [],
      reconciledAt: now,
      rollouts: new Map(),
      overrides: {},
      healthChangedAt: now,
    };
  }

  /** Seeded history: one entry per commit that touched the Release file, like past syncs. */
  private async historyFromGit(releasePath: string) {
    const commits = (
      await this.repo.log('refs/heads/main', { path: releasePath })
    )
      .reverse()
      .slice(-HISTORY_LIMIT);
    return commits.map((commit, index) => {
      const at = Date.parse(commit.committer.date);
      return {
        id: index,
        revision: commit.sha,
        deployStartedAt: at,
        deployedAt: at + 1000,
      };
    });
  }
}

function nameOf(entry: ReleaseEntry): string {
  return `${entry.key.team}-${entry.key.product}-${entry.key.stage}`;
}
