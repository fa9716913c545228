import { applicationName } from '@refplat/plugin-promotions-common';
import type { Application, ProductRef, Rollout } from '@refplat/plugin-promotions-common';
import { ApplicationListing, HealthSource, ObservedApplication, ResourceHealth } from '@refplat/plugin-promotions-node';

/**
 * How a fake Application looks: what ArgoCD would report of a Product's stage.
 *
 * @public
 */
export interface FakeApplicationState {
  /** `status.sync.status`; `Synced` by default. */
  sync?: 'Synced' | 'OutOfSync' | 'Unknown';
  /** `status.health.status`; `Healthy` by default. */
  health?: 'Healthy' | 'Progressing' | 'Degraded' | 'Suspended' | 'Missing' | 'Unknown';
  /** `status.summary.images`: the images running, e.g. `registry/alpha/shop/api@sha256:…`. */
  images?: string[];
  /** `status.sync.revision`: the revision of the platform repo ArgoCD synced. */
  revision?: string;
  /** Each service's Rollout and its health, as `status.resources` lists them. */
  rollouts?: Record<string, 'Healthy' | 'Progressing' | 'Degraded' | 'Suspended' | 'Missing' | 'Unknown'>;
  /** Anything else of the Application, merged over what the fields above make. */
  application?: Application;
}

/** The seeds' image naming (`promotions.images` by default), under this registry. */
const REGISTRY = 'registry.example';

/**
 * A health source that answers what the test set: one Application per
 * Product stage (named as the ApplicationSet names them, labelled with
 * `labels`, syncing its Release file from the platform repo), the resource
 * health and live Rollouts a test gives, and a source that cannot be
 * reached (`unreachable`). `runs` makes a stage that runs digests healthy
 * as the plugin's default configuration reads it.
 *
 * @public
 */
export class FakeHealthSource implements HealthSource {
  private readonly applications = new Map<string, ObservedApplication>();
  private readonly resourceHealths = new Map<string, ResourceHealth>();
  private readonly rollouts = new Map<string, Map<string, Rollout>>();
  private unreachableBecause?: string;

  constructor(
    private readonly options: {
      /** The label keys `promotions.applications.labels` names; the plugin's defaults otherwise. */
      labels?: { team: string; product: string };
      /** The source's name in listings and errors. */
      source?: string;
      /** The platform repo's URL (`promotions.platformRepo`); https://github.com/platform/gitops by default. */
      platformRepoUrl?: string;
      /** `promotions.releasesPath`; gitops/releases by default. */
      releasesPath?: string;
    } = {},
  ) {}

  /**
   * The Product's stage runs these digests (service → digest), Synced to
   * `revision` of the platform repo, Healthy, each service's Rollout Healthy
   * and its image named as `promotions.images` names it by default
   * (`registry.example/team-<team>/<product>-<service>@<digest>`).
   */
  runs(product: ProductRef, stage: string, digests: Record<string, string>, revision: string): Application {
    return this.setApplication(product, stage, {
      revision,
      images: Object.entries(digests).map(
        ([service, digest]) => `${REGISTRY}/team-${product.team}/${product.product}-${service}@${digest}`,
      ),
      rollouts: Object.fromEntries(Object.keys(digests).map(service => [service, 'Healthy' as const])),
    });
  }

  private get source() {
    return this.options.source ?? 'fake';
  }

  /** The Product's stage runs this; answers the Application. */
  setApplication(product: ProductRef, stage: string, state: FakeApplicationState = {}): Application {
    const labels = this.options.labels ?? { team: 'refplat.org/team', product: 'refplat.org/product' };
    const name = applicationName(product, stage);
    const application: Application = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      ...state.application,
      metadata: {
        name,
        namespace: 'argocd',
        ...state.application?.metadata,
        labels: { [labels.team]: product.team, [labels.product]: product.product, ...state.application?.metadata?.labels },
      },
      spec: {
        project: 'default',
        source: {
          repoURL: this.options.platformRepoUrl ?? 'https://github.com/platform/gitops',
          targetRevision: 'main',
          path: `${this.options.releasesPath ?? 'gitops/releases'}/${product.team}/${product.product}`,
          directory: { include: `${stage}.yaml` },
        },
        ...state.application?.spec,
      },
      status: {
        sync: { status: state.sync ?? 'Synced', revision: state.revision },
        health: { status: state.health ?? 'Healthy' },
        summary: { images: state.images ?? [] },
        resources: Object.entries(state.rollouts ?? {}).map(([service, health]) => ({
          group: 'argoproj.io',
          version: 'v1alpha1',
          kind: 'Rollout',
          namespace: name,
          name: service,
          status: 'Synced',
          health: { status: health },
        })),
        ...state.application?.status,
      },
    };
    this.applications.set(name, { application, source: this.source });
    return application;
  }

  /** The stage's Application is gone. */
  removeApplication(product: ProductRef, stage: string): void {
    this.applications.delete(applicationName(product, stage));
  }

  /** The source cannot be reached (a reason), or can again (undefined). */
  unreachable(reason: string | undefined): void {
    this.unreachableBecause = reason;
  }

  /** What `resourceHealth` answers for the Application. */
  setResourceHealth(application: string, health: ResourceHealth): void {
    this.resourceHealths.set(application, health);
  }

  /** A live Rollout `liveRollouts` answers for the Application's service. */
  setRollout(application: string, service: string, rollout: Rollout): void {
    const byService = this.rollouts.get(application) ?? new Map();
    byService.set(service, rollout);
    this.rollouts.set(application, byService);
  }

  async listApplications(product?: ProductRef): Promise<ApplicationListing> {
    if (this.unreachableBecause) {
      return { applications: [], errors: [`ArgoCD '${this.source}' unreachable: ${this.unreachableBecause}`] };
    }
    const labels = this.options.labels ?? { team: 'refplat.org/team', product: 'refplat.org/product' };
    const applications = [...this.applications.values()].filter(({ application }) => {
      const values = application.metadata?.labels ?? {};
      return !product || (values[labels.team] === product.team && values[labels.product] === product.product);
    });
    return { applications: structuredClone(applications), errors: [] };
  }

  async resourceHealth(observed: ObservedApplication): Promise<ResourceHealth> {
    const name = observed.application.metadata?.name ?? '';
    const health = this.resourceHealths.get(name);
    if (!health) throw new Error(`No resource health for ${name}`);
    return health;
  }

  async liveRollouts(observed: ObservedApplication, services: string[]): Promise<Map<string, Rollout>> {
    const known = this.rollouts.get(observed.application.metadata?.name ?? '') ?? new Map<string, Rollout>();
    return new Map([...known].filter(([service]) => services.includes(service)));
  }
}
