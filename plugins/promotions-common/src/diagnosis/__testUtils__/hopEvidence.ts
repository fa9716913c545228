import { loadFixture, modifiedFixture } from '../../__testUtils__/fixtures';
import type { AnalysisRun, HopEvidence, KubeEvent, KubePod } from '../hops/hopEvidence';
import { NEW } from './diagnosisInput';

/** The evidence every hop test starts from: the storefront's rollout of NEW in alpha-shop-test. */

export const POD = 'storefront-6c9f8b7d4-x2kqp';

export function evidence(overrides: Partial<HopEvidence> = {}): HopEvidence {
  return { namespace: 'alpha-shop-test', workload: 'storefront', digest: NEW, ...overrides };
}

/** The events of an `events-*.yaml` fixture (an eventsEventList). */
export function events(file: string): KubeEvent[] {
  return loadFixture<{ items: KubeEvent[] }>(file).items;
}

/** Synthetic: a pod of the workload whose one container runs NEW, ready or not. */
export function runningPod(ready: boolean, name = POD): KubePod {
  return {
    metadata: { name, namespace: 'alpha-shop-test' },
    status: {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'storefront',
          image: `registry.refplat.org/team-alpha/shop-storefront@${NEW}`,
          imageID: `registry.refplat.org/team-alpha/shop-storefront@${NEW}`,
          ready,
          restartCount: 0,
          state: { running: { startedAt: '2025-06-01T11:05:30Z' } },
        },
      ],
    },
  };
}

/** Synthetic: the failed run's metric, still measuring: 3 of 5 taken, all true. */
export const runningAnalysis = modifiedFixture<AnalysisRun>('analysisrun-failed-web-metric.yaml', run => {
  run.spec.metrics[0].count = 5;
  run.spec.metrics[0].failureLimit = 1;
  run.status = {
    phase: 'Running',
    startedAt: '2025-06-01T11:50:00Z',
    metricResults: [
      {
        name: 'web',
        phase: 'Running',
        count: 3,
        successful: 3,
        measurements: ['11:50:00', '11:52:00', '11:54:00'].map(t => ({
          phase: 'Successful',
          value: 'true',
          startedAt: `2025-06-01T${t}Z`,
          finishedAt: `2025-06-01T${t}Z`,
        })),
      },
    ],
  };
});
