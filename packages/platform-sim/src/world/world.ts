import { AppOverrides, ApplicationState } from './applicationState';
import {
  CanaryPlan,
  canarySteps,
  CanaryStep,
  RolloutState,
  setFrozen,
} from './rolloutState';
import { applicationWriteKey, rolloutWriteKey } from './writeKeys';

interface Written {
  key: string;
  resourceVersion: string;
}

/**
 * The simulated cluster: Argo CD Applications and their Rollouts.
 * The Reconciler changes it; the Argo CD and Kubernetes routes read it.
 */
export class World {
  readonly apps = new Map<string, ApplicationState>();
  readonly badDigests: Set<string>;
  readonly steps: CanaryStep[];
  mainRevision = '';
  private version = 1;
  private readonly written = new WeakMap<object, Written>();

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
    for (const app of this.apps.values()) {
      for (const rollout of app.rollouts.values())
        this.write(rollout, rolloutWriteKey(rollout));
      if (this.write(app, applicationWriteKey(app))) app.reconciledAt = now;
    }
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
