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
  listFromEach,
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
    return listFromEach(this.clusters, 'Kubernetes cluster', async cluster => {
      const list = (await this.api(cluster).listNamespacedCustomObject({
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
