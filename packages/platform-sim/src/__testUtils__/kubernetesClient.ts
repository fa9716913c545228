import { RunningSim } from '../sim';
import { loadKubernetesClient } from './testSim';

/** A client-node KubeConfig for the simulator's Kubernetes API, as a backend would configure it. */
export async function kubeConfigFor(sim: RunningSim): Promise<any> {
  const k8s = await loadKubernetesClient();
  const kubeConfig = new k8s.KubeConfig();
  kubeConfig.loadFromOptions({
    // Plain http needs skipTLSVerify, see the README.
    clusters: [{ name: 'sim', server: sim.kubernetesUrl, skipTLSVerify: true }],
    users: [{ name: 'sim', token: sim.tokens.kubernetes }],
    contexts: [{ name: 'sim', cluster: 'sim', user: 'sim' }],
    currentContext: 'sim',
  });
  return kubeConfig;
}

/** @kubernetes/client-node's CustomObjectsApi against the simulator. */
export async function customObjectsFor(sim: RunningSim): Promise<any> {
  const k8s = await loadKubernetesClient();
  return (await kubeConfigFor(sim)).makeApiClient(k8s.CustomObjectsApi);
}
