import { AppOverrides, ApplicationState } from './applicationState';
import {
  CanaryPlan,
  canarySteps,
  CanaryStep,
  RolloutState,
  setFrozen,
} from './rolloutState';
import { Stall } from './stalls/stall';
import { applicationWriteKey, rolloutWriteKey } from './writeKeys';

interface Written {
  key: string;
  resourceVersion: string;
}

/** A watch event about one Application, as Kubernetes and Argo CD's stream name them. */
export interface ApplicationEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  app: ApplicationState;
  /** The cluster-wide write counter after this event. */
  resourceVersion: number;
}

/** Past events a watch from an older resourceVersion can replay (then 410 Gone), as the API server's default watch cache. */
const EVENT_HISTORY = 100;

/**
 * The simulated cluster: Argo CD Applications and their Rollouts.
 * The Reconciler changes it; the Argo CD and Kubernetes routes read it.
 */
export class World {
  readonly apps = new Map<string, ApplicationState>();
  readonly badDigests: Set<string>;
  /** How a digest stalls wherever it rolls out (a push's stall flag). */
  readonly stalledDigests = new Map<string, Stall>();
  readonly steps: CanaryStep[];
  mainRevision = '';
  private version = 1;
  private readonly written = new WeakMap<object, Written>();
  /** Applications the watchers have been told about, by name. */
  private readonly announced = new Map<string, ApplicationState>();
  private readonly history: ApplicationEvent[] = [];
  private readonly listeners = new Set<(event: ApplicationEvent) => void>();

  constructor(
    readonly plan: CanaryPlan,
    badDigests: string[],
  ) {
    this.badDigests = new Set(badDigests);
    this.steps = canarySteps(plan);
  }

  /** The cluster-wide write counter: metadata.resourceVersion of lists. */
  get resourceVersion(): string {
    return String(this.version);
  }

  /**
   * metadata.resourceVersion of an Application or a Rollout: the counter's value at
   * its last write, as a Kubernetes API server gives it, so it moves only when the
   * object itself changes.
   */
  resourceVersionOf(object: ApplicationState | RolloutState): string {
    return this.written.get(object)?.resourceVersion ?? this.resourceVersion;
  }

  /**
   * Records what changed since the last call as writes: each changed Rollout and
   * Application gets the next resourceVersion, and a changed Application's
   * reconciledAt moves to `now` (the refresh that wrote it).
   */
  recordWrites(now: number): void {
    const written = new Set<ApplicationState>();
    for (const app of this.apps.values()) {
      // Each Rollout's key once a pass: the Application's key is made of them (the loop runs every 100 ms in tests).
      const rolloutKeys: string[] = [];
      for (const rollout of app.rollouts.values()) {
        const key = rolloutWriteKey(rollout);
        this.write(rollout, key);
        rolloutKeys.push(key);
      }
      if (this.write(app, applicationWriteKey(app, rolloutKeys))) {
        app.reconciledAt = now;
        written.add(app);
      }
    }
    this.announceChanges(written);
  }

  /**
   * Calls `listener` with every Application event from now on, as a watch does.
   * Returns the unsubscribe.
   */
  onApplicationEvent(listener: (event: ApplicationEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The events after `resourceVersion`, for a watch that resumes from it; undefined
   * when they are no longer kept (the API server's 410 Gone: list again).
   */
  eventsSince(resourceVersion: number): ApplicationEvent[] | undefined {
    const oldest = this.history[0];
    if (oldest && resourceVersion < oldest.resourceVersion - 1) return undefined;
    if (!oldest && resourceVersion < this.version) return undefined;
    return this.history.filter(event => event.resourceVersion > resourceVersion);
  }

  /** ADDED for a newly visible Application, MODIFIED for a written one, DELETED for a gone one. */
  private announceChanges(written: Set<ApplicationState>): void {
    const visible = new Map(this.visibleApps().map(app => [app.name, app]));
    for (const [name, app] of this.announced) {
      if (visible.get(name) !== app) {
        this.announced.delete(name);
        this.version += 1;
        this.announce({ type: 'DELETED', app, resourceVersion: this.version });
      }
    }
    for (const app of visible.values()) {
      const known = this.announced.has(app.name);
      if (known && !written.has(app)) continue;
      this.announced.set(app.name, app);
      this.announce({
        type: known ? 'MODIFIED' : 'ADDED',
        app,
        resourceVersion: Number(this.resourceVersionOf(app)),
      });
    }
  }

  private announce(event: ApplicationEvent): void {
    this.history.push(event);
    if (this.history.length > EVENT_HISTORY) this.history.shift();
    for (const listener of this.listeners) listener(event);
  }

  private write(object: object, key: string): boolean {
    if (this.written.get(object)?.key === key) return false;
    this.version += 1;
    this.written.set(object, { key, resourceVersion: String(this.version) });
    return true;
  }

  isBad = (digest: string): boolean => this.badDigests.has(digest);

  markBad(digest: string): void {
    this.badDigests.add(digest);
  }

  stallOf = (digest: string): Stall | undefined => this.stalledDigests.get(digest);

  markStalled(digest: string, stall: Stall): void {
    this.stalledDigests.set(digest, stall);
  }

  /** Applications visible through the APIs (a `missing` override hides one). */
  visibleApps(): ApplicationState[] {
    return [...this.apps.values()]
      .filter(app => !app.overrides.missing)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  visibleApp(name: string): ApplicationState | undefined {
    const app = this.apps.get(name);
    return app && !app.overrides.missing ? app : undefined;
  }

  appForNamespace(namespace: string): ApplicationState | undefined {
    return this.visibleApps().find(app => app.namespace === namespace);
  }

  /** Applies (or with `clear`, removes) test overrides. Returns false for an unknown app. */
  setOverrides(
    name: string,
    overrides: AppOverrides & { clear?: boolean },
    now: number,
  ): boolean {
    const app = this.apps.get(name);
    if (!app) return false;
    if (overrides.clear) {
      app.overrides = {};
    }
    const { clear: _clear, ...rest } = overrides;
    app.overrides = { ...app.overrides, ...dropUndefined(rest) };
    for (const rollout of app.rollouts.values())
      setFrozen(rollout, Boolean(app.overrides.freezeCanary), now);
    this.recordWrites(now);
    return true;
  }
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}
