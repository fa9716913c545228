import { AppRepos } from '../appRepo/appRepos';
import { GitRepo } from '../git/gitRepo';
import { Mutex } from '../git/mutex';
import { CommitInfo } from '../git/types';
import type { ApplicationSourceShape } from '../options';
import { parseRelease } from '../platform/releaseFile';
import {
  ApplicationState,
  changedServices,
  sameDigests,
  SyncHistoryEntry,
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
import { ImageNaming, imageRepository } from '../seed/digests';

/** Argo CD keeps this many history entries (spec.revisionHistoryLimit default). */
const HISTORY_LIMIT = 10;

export interface ReconcilerOptions {
  intervalMs: number;
  syncDelayMs: number;
  applicationSource: ApplicationSourceShape;
  imageNaming: ImageNaming;
  /** SimOptions.hasApplicationSet: every Product's when absent. */
  hasApplicationSet?: (product: { team: string; product: string }) => boolean;
}

/**
 * Plays the ApplicationSet controller (one Application per Release record), the
 * Argo CD application controller and the Argo Rollouts controller: compares
 * what the Applications ask for with what runs, syncs after a delay, steps canaries.
 */
export class Reconciler {
  private readonly reader: SnapshotReader;
  private readonly tickLock = new Mutex();
  private seenRepoVersion = -1;
  private snapshot?: PlatformSnapshot;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly repo: GitRepo,
    private readonly appRepos: AppRepos,
    private readonly world: World,
    private readonly options: ReconcilerOptions,
  ) {
    this.reader = new SnapshotReader(repo);
  }

  /** The image repository a Service's Rollout in this Application pulls. */
  private imageRepositoryOf(app: ApplicationState, service: string): string {
    return imageRepository(this.options.imageNaming, { ...app.key, service });
  }

  /** Whether Applications sync a Product's app repo (with the Release digests injected). */
  private get usesAppRepo(): boolean {
    return this.options.applicationSource !== 'platform-repo';
  }

  /** Whether the platform repo is one of the Applications' sources. */
  private get usesPlatformRepo(): boolean {
    return this.options.applicationSource !== 'app-repo';
  }

  /** Builds the starting state: every Application Synced and Healthy at what main says. */
  async initialize(now = Date.now()): Promise<void> {
    const snapshot = await this.readMainIfChanged();
    if (!snapshot) return;
    await this.startRunning(snapshot, this.generated(snapshot), now);
  }

  /** The Release records an ApplicationSet generates an Application for. */
  private generated(snapshot: PlatformSnapshot): Array<[string, ReleaseEntry]> {
    const covered = this.options.hasApplicationSet;
    const releases = [...snapshot.releases];
    return covered ? releases.filter(([, entry]) => covered(entry.key)) : releases;
  }

  /**
   * Runs `write` (commits that add Products to main) with the loop held, then
   * one reconcile pass in which the Applications main names and that do not
   * exist yet start as initialize() starts the seeded ones: Synced and
   * Healthy, their history from git, instead of syncing and rolling out.
   */
  addRunning(write: () => Promise<void>): Promise<void> {
    return this.tickLock.run(async () => {
      await write();
      await this.pass(Date.now(), { adoptAdded: true });
    });
  }

  /** Applications for `releases` that run what main says, with the syncs of their past from git. */
  private async startRunning(
    snapshot: PlatformSnapshot,
    releases: Array<[string, ReleaseEntry]>,
    now: number,
  ): Promise<void> {
    const commitsOf = new Map<string, CommitInfo[]>(
      await Promise.all(
        releases.map(
          async ([name, entry]) =>
            [name, (await this.repo.log('refs/heads/main', { path: entry.path })).reverse()] as const,
        ),
      ),
    );
    // The teams set up their overlays before the first Release named them.
    const firstDate = (entries: ReleaseEntry[]) =>
      entries
        .map(entry => commitsOf.get(nameOf(entry))?.[0]?.author.date)
        .filter((date): date is string => Boolean(date))
        .sort((a, b) => Date.parse(a) - Date.parse(b))[0] ??
      new Date(now).toISOString();
    await this.ensureOverlays(releases.map(([, entry]) => entry), firstDate);
    const histories = await Promise.all(
      releases.map(([name, entry]) =>
        this.historyFromGit(entry, commitsOf.get(name)!.slice(-HISTORY_LIMIT), this.appRepos.head(entry.key)),
      ),
    );
    for (const [index, [, entry]] of releases.entries()) {
      const app = this.createApp(entry, snapshot.revision, now);
      app.comparedAppRevision = this.appRepos.head(entry.key);
      app.history = histories[index];
      const last = app.history[app.history.length - 1];
      if (last)
        app.operation = {
          revision: last.revision,
          appRevision: last.appRevision,
          digests: last.digests,
          startedAt: last.deployStartedAt,
          finishedAt: last.deployedAt,
        };
      app.appliedDigests = { ...app.targetDigests };
      app.syncStatus = entry.record ? 'Synced' : 'Unknown';
      for (const [service, digest] of Object.entries(app.appliedDigests)) {
        app.rollouts.set(
          service,
          newStableRollout({
            name: service,
            namespace: app.namespace,
            repository: this.imageRepositoryOf(app, service),
            digest,
            now,
          }),
        );
      }
      app.lastHealth = applicationHealth(app, this.world).status;
      this.world.apps.set(app.name, app);
    }
    this.world.recordWrites(now);
  }

  /**
   * Each Product's app repo gets the overlays its Release records need (one
   * commit per Product at most); nothing to do when Applications sync the platform repo.
   */
  private async ensureOverlays(
    releases: Iterable<ReleaseEntry>,
    dateFor: (entries: ReleaseEntry[]) => string,
  ): Promise<void> {
    if (!this.usesAppRepo) return;
    const byProduct = new Map<string, ReleaseEntry[]>();
    for (const entry of releases) {
      if (!entry.record) continue;
      const id = `${entry.key.team}/${entry.key.product}`;
      byProduct.set(id, [...(byProduct.get(id) ?? []), entry]);
    }
    for (const entries of byProduct.values()) {
      await this.appRepos.ensureOverlays(
        entries[0].key,
        entries.map(entry => ({
          stage: entry.key.stage,
          services: Object.keys(entry.record!.services),
        })),
        dateFor(entries),
      );
    }
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

  /** One reconcile pass. Exposed so tests and controls can force one; passes never overlap. */
  tick(now = Date.now()): Promise<void> {
    return this.tickLock.run(() => this.pass(now));
  }

  private async pass(now: number, options: { adoptAdded?: boolean } = {}): Promise<void> {
    await this.appRepos.refresh();
    // The application controller sees an ApplicationSet's spec change on its next
    // pass, so the spec runs ahead of status.sync.comparedTo for one interval.
    // A platform-repo Application has nothing injected: it compares on the pass
    // that sees main move.
    if (this.usesAppRepo) this.compareStale(now);
    const snapshot = await this.readMainIfChanged();
    if (snapshot && options.adoptAdded) {
      const added = this.generated(snapshot).filter(([name]) => !this.world.apps.has(name));
      await this.startRunning(snapshot, added, now);
    }
    if (snapshot) await this.applicationSet(snapshot, now);
    if (!this.usesAppRepo) this.compareStale(now);
    for (const app of this.world.apps.values()) {
      if (
        app.syncStatus === 'OutOfSync' &&
        app.outOfSyncSince !== undefined &&
        now - app.outOfSyncSince >= this.options.syncDelayMs
      ) {
        this.sync(app, now);
      }
      for (const rollout of app.rollouts.values())
        advanceRollout(rollout, this.world.plan, now, this.world.isBad);
      const health = applicationHealth(app, this.world).status;
      if (health !== app.lastHealth) {
        app.lastHealth = health;
        app.healthChangedAt = now;
      }
    }
    this.world.recordWrites(now);
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

  /**
   * The ApplicationSet (git files generator over the Release records): one
   * Application per record, its spec carrying the record's digests; an
   * Application whose record is gone is deleted.
   */
  private async applicationSet(
    snapshot: PlatformSnapshot,
    now: number,
  ): Promise<void> {
    const generated = this.generated(snapshot);
    for (const [name, entry] of generated) {
      let app = this.world.apps.get(name);
      if (!app) {
        app = this.createApp(entry, snapshot.revision, now);
        this.world.apps.set(name, app);
      }
      if (!entry.record) {
        app.comparedRevision = snapshot.revision;
        app.syncStatus = 'Unknown';
        app.comparisonError = entry.error;
        app.outOfSyncSince = undefined;
        continue;
      }
      app.comparisonError = undefined;
      app.specDigests = { ...entry.record.services };
    }
    await this.ensureOverlays(generated.map(([, entry]) => entry), () => new Date(now).toISOString());
    const names = new Set(generated.map(([name]) => name));
    for (const name of [...this.world.apps.keys()]) {
      if (!names.has(name)) this.world.apps.delete(name);
    }
  }

  /** The application controller compares every Application whose sources moved since its last comparison. */
  private compareStale(now: number): void {
    for (const app of this.world.apps.values()) {
      if (this.isStale(app)) this.compare(app, now);
    }
  }

  private isStale(app: ApplicationState): boolean {
    if (app.comparisonError) return false;
    return (
      app.syncStatus === 'Unknown' ||
      (this.usesPlatformRepo &&
        app.comparedRevision !== this.world.mainRevision) ||
      (this.usesAppRepo &&
        app.comparedAppRevision !== this.appRepos.head(app.key)) ||
      !sameDigests(app.specDigests, app.targetDigests)
    );
  }

  /** Compares the spec's sources with what runs: OutOfSync when the digests differ, Synced otherwise. */
  private compare(app: ApplicationState, now: number): void {
    app.comparedRevision = this.world.mainRevision;
    app.comparedAppRevision = this.appRepos.head(app.key);
    app.targetDigests = { ...app.specDigests };
    if (sameDigests(app.targetDigests, app.appliedDigests)) {
      app.syncStatus = 'Synced';
      app.outOfSyncSince = undefined;
    } else if (app.syncStatus !== 'OutOfSync') {
      app.syncStatus = 'OutOfSync';
      app.outOfSyncSince = now;
    }
  }

  /** The automated sync: apply target digests to the Rollouts and record the operation. */
  private sync(app: ApplicationState, now: number): void {
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
          repository: this.imageRepositoryOf(app, service),
          digest,
          now,
        });
        setFrozen(created, Boolean(app.overrides.freezeCanary), now);
        app.rollouts.set(service, created);
      } else {
        applyDigest(rollout, digest, now, this.world.stallOf(digest));
      }
    }
    app.appliedDigests = { ...app.targetDigests };
    app.syncStatus = 'Synced';
    app.outOfSyncSince = undefined;
    const synced = {
      revision: app.comparedRevision,
      appRevision: app.comparedAppRevision,
      digests: { ...app.targetDigests },
    };
    app.operation = { ...synced, startedAt: now, finishedAt: now };
    const nextId = (app.history[app.history.length - 1]?.id ?? -1) + 1;
    app.history.push({
      ...synced,
      id: nextId,
      deployStartedAt: now,
      deployedAt: now,
    });
    if (app.history.length > HISTORY_LIMIT)
      app.history.splice(0, app.history.length - HISTORY_LIMIT);
  }

  /** A new Application, not compared yet (sync status Unknown until the controller compares it). */
  private createApp(
    entry: ReleaseEntry,
    revision: string,
    now: number,
  ): ApplicationState {
    const name = nameOf(entry);
    const digests = { ...(entry.record?.services ?? {}) };
    return {
      name,
      key: entry.key,
      namespace: name,
      releasePath: entry.path,
      createdAt: now,
      comparedRevision: revision,
      comparedAppRevision: '',
      syncStatus: 'Unknown',
      specDigests: digests,
      targetDigests: { ...digests },
      appliedDigests: {},
      comparisonError: entry.error,
      history: [],
      reconciledAt: now,
      rollouts: new Map(),
      overrides: {},
      healthChangedAt: now,
    };
  }

  /**
   * Seeded history: one entry per commit that touched the Release file, like
   * past syncs, each with the digests the file named then.
   */
  private async historyFromGit(
    entry: ReleaseEntry,
    commits: CommitInfo[],
    appRevision: string,
  ): Promise<SyncHistoryEntry[]> {
    const digests = await Promise.all(commits.map(commit => this.digestsAt(commit.sha, entry.path)));
    return commits.map((commit, index) => {
      const at = Date.parse(commit.committer.date);
      return {
        id: index,
        revision: commit.sha,
        appRevision,
        digests: digests[index],
        deployStartedAt: at,
        deployedAt: at + 1000,
      };
    });
  }

  private async digestsAt(
    revision: string,
    releasePath: string,
  ): Promise<Record<string, string>> {
    const file = await this.repo.readFile(revision, releasePath);
    try {
      return file ? parseRelease(file.content.toString('utf8')).services : {};
    } catch {
      return {};
    }
  }
}

function nameOf(entry: ReleaseEntry): string {
  return `${entry.key.team}-${entry.key.product}-${entry.key.stage}`;
}
