import type { Application } from '@refplat/plugin-promotions-common';
import { KubernetesClusterConfig } from './healthInstances';
import { ApplicationEvent, ApplicationWatch, ResourceVersionGone } from './ApplicationWatch';
import { ApplicationLabels, productLabelSelector } from './HealthSource';
import { kubeConfigFor, kubernetesClient } from './kubernetesClient';

/** How long the API server is asked to keep one watch open; then it is resumed. */
const WATCH_TIMEOUT_SECONDS = 300;

/**
 * A Kubernetes watch on the cluster's argoproj.io/v1alpha1 Applications, with
 * @kubernetes/client-node's Watch: resumed from the last resourceVersion, listed
 * again when the server answers 410 Gone.
 */
export class KubernetesApplicationWatch implements ApplicationWatch {
  readonly resumable = true;
  private readonly kubeConfig;
  private readonly path;

  constructor(
    private readonly cluster: KubernetesClusterConfig,
    private readonly labels: ApplicationLabels,
  ) {
    this.kubeConfig = kubeConfigFor(cluster);
    this.path = `/apis/argoproj.io/v1alpha1/namespaces/${encodeURIComponent(cluster.applicationNamespace)}/applications`;
  }

  get name(): string {
    return `Kubernetes cluster '${this.cluster.name}'`;
  }

  get instanceName(): string {
    return this.cluster.name;
  }

  async list() {
    const { CustomObjectsApi } = kubernetesClient();
    const list = (await this.kubeConfig.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({
      group: 'argoproj.io',
      version: 'v1alpha1',
      namespace: this.cluster.applicationNamespace,
      plural: 'applications',
      labelSelector: productLabelSelector(this.labels),
    })) as { metadata?: { resourceVersion?: string }; items?: Application[] };
    return { applications: list.items ?? [], resourceVersion: list.metadata?.resourceVersion };
  }

  watch(
    resourceVersion: string | undefined,
    onEvent: (event: ApplicationEvent) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const { Watch } = kubernetesClient();
    return new Promise<void>((resolve, reject) => {
      let failure: Error | undefined;
      const done = (error: unknown) => {
        if (signal.aborted) reject(signal.reason);
        // An older API server answers a too old resourceVersion with HTTP 410 instead of an ERROR event.
        else if ((error as { statusCode?: number } | null)?.statusCode === 410) {
          reject(new ResourceVersionGone('resourceVersion too old'));
        } else if (failure ?? error) reject(failure ?? error);
        else resolve();
      };
      new Watch(this.kubeConfig)
        .watch(
          this.path,
          {
            labelSelector: productLabelSelector(this.labels),
            resourceVersion,
            timeoutSeconds: WATCH_TIMEOUT_SECONDS,
          },
          (type: string, object: any) => {
            if (type === 'ERROR') {
              failure =
                object?.code === 410
                  ? new ResourceVersionGone(object.message ?? 'resourceVersion too old')
                  : new Error(`watch error from ${this.cluster.url}: ${object?.message}`);
              return;
            }
            onEvent({ type: type as ApplicationEvent['type'], application: object });
          },
          done,
        )
        .then(controller => {
          if (signal.aborted) controller.abort();
          else signal.addEventListener('abort', () => controller.abort(), { once: true });
        })
        .catch(reject);
    });
  }
}
