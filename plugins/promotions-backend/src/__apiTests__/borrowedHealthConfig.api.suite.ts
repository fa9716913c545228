import type { RunningSim } from '@refplat/platform-sim';
import type { JsonObject } from '@backstage/types';
import { backendPerTest, sharedSim } from '../__testUtils__/sharedSimBackend';
import { getLadder } from '../__testUtils__/ladderViews';

/**
 * An adopter who already configured the community ArgoCD plugin or
 * Backstage's Kubernetes plugin sets neither promotions.argocd nor
 * promotions.kubernetes: the ladder reads the same instances.
 */
const borrowed: Array<[string, 'argocd' | 'kubernetes', (sim: RunningSim) => JsonObject]> = [
  [
    'argocd.appLocatorMethods',
    'argocd',
    sim => ({
      argocd: {
        username: 'admin',
        password: 'unused',
        waitCycles: 25,
        appLocatorMethods: [
          { type: 'config', instances: [{ name: 'sim', url: sim.argocdUrl, token: sim.tokens.argocd }] },
        ],
      },
    }),
  ],
  [
    'kubernetes.clusterLocatorMethods',
    'kubernetes',
    sim => ({
      kubernetes: {
        serviceLocatorMethod: { type: 'multiTenant' },
        clusterLocatorMethods: [
          {
            type: 'config',
            clusters: [
              {
                name: 'sim',
                url: sim.kubernetesUrl,
                authProvider: 'serviceAccount',
                serviceAccountToken: sim.tokens.kubernetes,
                // plain HTTP: @kubernetes/client-node only allows it with skipTLSVerify
                skipTLSVerify: true,
              },
            ],
          },
        ],
      },
    }),
  ],
];

export function borrowedHealthConfigSuite(): void {
  describe('health borrowed from the config of another plugin', () => {
    // The file's simulator; each test starts a backend configured its own way, stopped after it
    // (no other backend runs on the simulator meanwhile, so the requests counted are its own).
    const shared = sharedSim();
    const startBackend = backendPerTest();

    describe.each(borrowed)('health from the %s of another plugin', (_key, target, rootConfig) => {
      it('gives a healthy ladder for alpha/shop', async () => {
        const { sim } = shared;
        sim.control.clearRequests();
        // A request is logged once answered: an earlier test's backend, stopped, may close its
        // health stream after the clearing. The requests counted are those that came since.
        const since = new Date().toISOString();
        const requestsSince = (upstream: 'argocd' | 'kubernetes') =>
          sim.control.getRequests(upstream).filter(call => call.at >= since);
        const server = await startBackend(sim, 'none', { rootConfig: rootConfig(sim) });
        const ladder = await getLadder(server, 'alpha/shop');
        expect(ladder.healthError).toBeUndefined();
        expect(ladder.stages.map(stage => [stage.name, stage.verdict])).toEqual([
          ['dev', 'healthy'],
          ['test', 'healthy'],
          ['uat', 'healthy'],
          ['staging', 'healthy'],
          ['prod', 'healthy'],
        ]);
        // the health came from the borrowed instance, and only from it
        expect(requestsSince(target).length).toBeGreaterThan(0);
        expect(requestsSince(target === 'argocd' ? 'kubernetes' : 'argocd')).toEqual([]);
      });
    });

    it('without any health source the ladder says how to configure one', async () => {
      const server = await startBackend(shared.sim, 'none');
      const ladder = await getLadder(server, 'alpha/shop');
      expect(ladder.healthError).toMatch(/argocd.appLocatorMethods or kubernetes.clusterLocatorMethods/);
    });
  });
}
