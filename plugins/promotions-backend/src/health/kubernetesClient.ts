import type * as KubernetesClient from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';
import { KubernetesClusterConfig } from './healthInstances';

/**
 * @kubernetes/client-node, loaded when a Kubernetes source is first built:
 * its 834 modules cost each process that loads them about 1.1 CPU-seconds
 * (measured on a 2-core machine), which a backend reading ArgoCD's API, the
 * default, never needs to pay at start. A `require`, not `import()`: the
 * plugin is built to CommonJS, and Jest runs it without ES module support.
 */
export function kubernetesClient(): typeof KubernetesClient {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@kubernetes/client-node');
}

/** A KubeConfig for one configured cluster, with the plugin's service account token. */
export function kubeConfigFor(cluster: KubernetesClusterConfig): KubeConfig {
  const kubeConfig = new (kubernetesClient().KubeConfig)();
  kubeConfig.loadFromOptions({
    clusters: [
      {
        name: cluster.name,
        server: cluster.url,
        caData: cluster.caData,
        caFile: cluster.caFile,
        skipTLSVerify: cluster.skipTLSVerify,
      },
    ],
    users: [{ name: 'promotions', token: cluster.serviceAccountToken }],
    contexts: [{ name: cluster.name, cluster: cluster.name, user: 'promotions' }],
    currentContext: cluster.name,
  });
  return kubeConfig;
}
