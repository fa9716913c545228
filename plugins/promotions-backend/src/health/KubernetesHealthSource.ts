import {
  Application,
  ProductRef,
  ResourceNode,
  Rollout,
  rolloutHealth,
} from '@refplat/plugin-promotions-common';
import type { LoggerService } from '@backstage/backend-plugin-api';
import { KubernetesClusterConfig } from './healthInstances';
import { kubeConfigFor, kubernetesClient } from './kubernetesClient';
import { KubernetesHopApis, KubernetesHopEvidence } from './KubernetesHopEvidence';
import {
  ApplicationListing,
  ClusterEvidence,
  HealthSource,
  ObservedApplication,
  ResourceHealth,
  listFromEach,
  ApplicationLabels,
  productLabelSelector,
} from './HealthSource';

/**
 * Reads ArgoCD Application custom resources and Argo Rollouts straight from
 * the Kubernetes API of each configured cluster — for platforms that do not
 * expose the ArgoCD API to Backstage. There is no resource tree here: Rollout
 * health is computed from the live Rollouts as ArgoCD computes it, and a
 * service's hop evidence is listed in its namespace (KubernetesHopEvidence).
 */
export class KubernetesHealthSource implements HealthSource {
  private readonly apis = new Map<string, KubernetesHopApis>();
  private readonly evidence: KubernetesHopEvidence;

  constructor(
    private readonly clusters: KubernetesClusterConfig[],
    private readonly labels: ApplicationLabels,
    logger?: LoggerService,
  ) {
    this.evidence = new KubernetesHopEvidence(logger);
  }

  async listApplications(product?: ProductRef): Promise<ApplicationListing> {
    const labelSelector = productLabelSelector(this.labels, product);
    return listFromEach(this.clusters, 'Kubernetes cluster', async cluster => {
      const list = (await this.api(cluster).custom.listNamespacedCustomObject({
        group: 'argoproj.io',
        version: 'v1alpha1',
        namespace: cluster.applicationNamespace,
        plural: 'applications',
        labelSelector,
      })) as { items?: Application[] };
      return (list.items ?? []).map(
        (application): ObservedApplication => ({ application, source: cluster.name }),
      );
    });
  }

  /** Rollout health from the destination namespace's Rollouts (one list call). */
  async resourceHealth(observed: ObservedApplication): Promise<ResourceHealth> {
    const rollouts = await this.namespaceRollouts(observed);
    const nodes: ResourceNode[] = [...rollouts.values()].map(rollout => ({
      group: 'argoproj.io',
      version: 'v1alpha1',
      kind: 'Rollout',
      namespace: rollout.metadata?.namespace,
      name: rollout.metadata?.name,
      health: rolloutHealth(rollout),
    }));
    return { nodes, kinds: ['Rollout'], rollouts };
  }

  /** One list call for the namespace, however many services are asked for. */
  async liveRollouts(
    observed: ObservedApplication,
    services: string[],
  ): Promise<Map<string, Rollout>> {
    const rollouts = await this.namespaceRollouts(observed);
    return new Map([...rollouts].filter(([name]) => services.includes(name)));
  }

  /** The service's hop evidence, listed in the destination namespace: for a cell that is not healthy. */
  async hopEvidence(observed: ObservedApplication, service: string): Promise<ClusterEvidence> {
    const cluster = this.clusters.find(c => c.name === observed.source);
    if (!cluster || !observed.application.spec?.destination?.namespace) {
      return { namespace: observed.application.spec?.destination?.namespace ?? '', workload: service };
    }
    return this.evidence.read(this.api(cluster), observed, service);
  }

  private async namespaceRollouts(observed: ObservedApplication): Promise<Map<string, Rollout>> {
    const cluster = this.clusters.find(c => c.name === observed.source);
    const namespace = observed.application.spec?.destination?.namespace;
    if (!cluster || !namespace) return new Map();
    const list = (await this.api(cluster).custom.listNamespacedCustomObject({
      group: 'argoproj.io',
      version: 'v1alpha1',
      namespace,
      plural: 'rollouts',
    })) as { items?: Rollout[] };
    return new Map(
      (list.items ?? [])
        .filter(rollout => rollout.metadata?.name)
        .map(rollout => [rollout.metadata!.name!, rollout]),
    );
  }

  private api(cluster: KubernetesClusterConfig): KubernetesHopApis {
    let api = this.apis.get(cluster.name);
    if (!api) {
      const { AppsV1Api, CoreV1Api, CustomObjectsApi } = kubernetesClient();
      const kubeConfig = kubeConfigFor(cluster);
      api = {
        custom: kubeConfig.makeApiClient(CustomObjectsApi),
        core: kubeConfig.makeApiClient(CoreV1Api),
        apps: kubeConfig.makeApiClient(AppsV1Api),
      };
      this.apis.set(cluster.name, api);
    }
    return api;
  }
}
