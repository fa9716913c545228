import { AppOverrides, ApplicationState } from './applicationState';
import { CanaryPlan, canarySteps, CanaryStep, setFrozen } from './rolloutState';

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

  constructor(
    readonly plan: CanaryPlan,
    badDigests: string[],
  ) {
    this.badDigests = new Set(badDigests);
    this.steps = canarySteps(plan);
  }

  /** Monotonic counter used as metadata.resourceVersion of lists and objects. */
  get resourceVersion(): string {
    return String(this.version);
  }

  touch(): void {
    this.version += 1;
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
    this.touch();
    return true;
  }
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}
