import type {
  Application,
  ProductRef,
  Rollout,
} from '@refplat/plugin-promotions-common';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { KubernetesClusterConfig } from '../config';
import {
  ApplicationListing,
  HealthSource,
  ObservedApplication,
  productLabelSelector,
} from './HealthSource';

function statusCodeOf(error: unknown): number | undefined {
  return (error as { code?: number })?.code;
}

/**
 * Reads ArgoCD Application custom resources and Argo Rollouts straight from
 * the Kubernetes API of each configured cluster — for platforms that do not
 * expose the ArgoCD API to Backstage.
 */
export class KubernetesHealthSource implements HealthSource {
  private readonly apis = new Map<string, CustomObjectsApi>();

  constructor(private readonly clusters: KubernetesClusterConfig[]) {}

  async listApplications(product?: ProductRef): Promise<ApplicationListing> {
    const labelSelector = productLabelSelector(product);
    const results = await Promise.allSettled(
      this.clusters.map(async cluster => {
        const api = this.api(cluster);
        const list = (await api.listNamespacedCustomObject({
          group: 'argoproj.io',
          version: 'v1alpha1',
          namespace: cluster.applicationNamespace,
          plural: 'applications',
          labelSelector,
        })) as { items?: Application[] };
        return (list.items ?? []).map(
          (application): ObservedApplication => ({
            application,
            source: cluster.name,
          }),
        );
      }),
    );
    const listing: ApplicationListing = { applications: [], errors: [] };
    results.forEach((result, index) => {
      if (result.status === 'fulfilled') {
        listing.applications.push(...result.value);
      } else {
        const reason = result.reason as Error;
        listing.errors.push(
          `Kubernetes cluster '${this.clusters[index].name}' unreachable: ${reason?.message ?? reason}`,
        );
      }
    });
    return listing;
  }

  async getRollout(
    observed: ObservedApplication,
    service: string,
  ): Promise<Rollout | undefined> {
    const cluster = this.clusters.find(c => c.name === observed.source);
    const namespace = observed.application.spec?.destination?.namespace;
    if (!cluster || !namespace) return undefined;
    const api = this.api(cluster);
    try {
      return (await api.getNamespacedCustomObject({
        group: 'argoproj.io',
        version: 'v1alpha1',
        namespace,
        plural: 'rollouts',
        name: service,
      })) as Rollout;
    } catch (error) {
      if (statusCodeOf(error) === 404) return undefined;
      throw error;
    }
  }

  private api(cluster: KubernetesClusterConfig): CustomObjectsApi {
    let api = this.apis.get(cluster.name);
    if (!api) {
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromOptions({
        clusters: [
          {
            name: cluster.name,
            server: cluster.url,
            caData: cluster.caData,
            skipTLSVerify: cluster.skipTLSVerify,
          },
        ],
        users: [{ name: 'promotions', token: cluster.serviceAccountToken }],
        contexts: [{ name: cluster.name, cluster: cluster.name, user: 'promotions' }],
        currentContext: cluster.name,
      });
      api = kubeConfig.makeApiClient(CustomObjectsApi);
      this.apis.set(cluster.name, api);
    }
    return api;
  }
}
