import { RunningSim } from '../sim';
import { loadKubernetesClient } from './testSim';

/** @kubernetes/client-node's CustomObjectsApi against the simulator, as a backend would configure it. */
export async function customObjectsFor(sim: RunningSim): Promise<any> {
  const k8s = await loadKubernetesClient();
  const kubeConfig = new k8s.KubeConfig();
  kubeConfig.loadFromOptions({
    // Plain http needs skipTLSVerify, see the README.
    clusters: [{ name: 'sim', server: sim.kubernetesUrl, skipTLSVerify: true }],
    users: [{ name: 'sim', token: sim.tokens.kubernetes }],
    contexts: [{ name: 'sim', cluster: 'sim', user: 'sim' }],
    currentContext: 'sim',
  });
  return kubeConfig.makeApiClient(k8s.CustomObjectsApi);
}
