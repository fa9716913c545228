import { luaToNumber, rolloutHealth } from './rolloutHealth';
import type { Rollout } from './types';
import { loadFixture, modifiedFixture } from '../__testUtils__/fixtures';

/** `inputPath` in Argo CD's health_test.yaml → our fixture file (see __fixtures__/README.md). */
const ORIGINAL_PATHS: Record<string, string> = {
  'testdata/canary/progressing_setWeightStep.yaml':
    'rollout-canary-progressing-setweight.yaml',
  'testdata/suspended_v1.0_pausedRollout.yaml':
    'rollout-canary-paused-phase.yaml',
  'testdata/degraded_statusPhaseMessage.yaml':
    'rollout-canary-degraded-phase-message.yaml',
  'testdata/degraded_abortedRollout.yaml':
    'rollout-canary-degraded-aborted.yaml',
  'testdata/canary/healthy_executedAllSteps.yaml':
    'rollout-canary-healthy-completed.yaml',
};

interface Expectation {
  inputPath: string;
  healthStatus: { status: string; message?: string };
}

const expectations = loadFixture<{ tests: Expectation[] }>(
  'argocd-rollout-health-expectations.yaml',
).tests.filter(t => t.inputPath in ORIGINAL_PATHS);

describe('rolloutHealth against Argo CD health_test.yaml', () => {
  it('covers every Rollout fixture that the expectations name', () => {
    expect(expectations.map(t => ORIGINAL_PATHS[t.inputPath]).sort()).toEqual(
      Object.values(ORIGINAL_PATHS).sort(),
    );
  });

  describe.each(['core', 'yaml-1.1'] as const)(
    'parsed with the YAML %s schema',
    schema => {
      it.each(
        expectations.map(
          t => [ORIGINAL_PATHS[t.inputPath], t.healthStatus] as const,
        ),
      )('%s → Argo CD expectation', (file, expected) => {
        const actual = rolloutHealth(loadFixture<Rollout>(file, schema));
        expect(actual.status).toBe(expected.status);
        // Argo CD treats an absent message as "".
        expect(actual.message ?? '').toBe(expected.message ?? '');
      });
    },
  );
});

describe('rolloutHealth on the other real Rollout fixtures (health from the fixtures README)', () => {
  it.each([
    [
      'rollout-canary-paused-inconclusive-analysis.yaml',
      'Degraded',
      'ReplicaSet "rollout-experiment-analysis-6f646bf7b7" has timed out progressing.',
    ],
    [
      'rollout-canary-aborted-failed-analysis.yaml',
      'Degraded',
      'metric "web" assessed Failed due to failed (1) > failureLimit (0)',
    ],
    [
      'rollout-canary-traffic-weights.yaml',
      'Degraded',
      'ReplicaSet "canary-demo-65fb5ffc84" has timed out progressing.',
    ],
    // No generation in this file: counted as 0, as the Rollouts controller does.
    ['rollout-canary-paused-2025.yaml', 'Suspended', 'CanaryPauseStep'],
  ])('%s → %s', (file, status, message) => {
    expect(rolloutHealth(loadFixture<Rollout>(file))).toEqual({ status, message });
  });
});

/** A synthetic Rollout: the real healthy completed canary, modified. */
function synthetic(mutate: (r: any) => void): Rollout {
  return modifiedFixture('rollout-canary-healthy-completed.yaml', mutate);
}

describe('rolloutHealth rules (synthetic Rollouts derived from healthy_executedAllSteps)', () => {
  it.each<[string, (r: any) => void, string, string | undefined]>([
    ['unmodified', () => {}, 'Healthy', undefined],
    [
      'no status',
      r => delete r.status,
      'Progressing',
      'Waiting for rollout spec update to be observed',
    ],
    [
      'numeric observedGeneration behind metadata.generation',
      r => {
        r.metadata.generation = 7;
        r.status.observedGeneration = '6';
      },
      'Progressing',
      'Waiting for rollout spec update to be observed',
    ],
    [
      'numeric observedGeneration (a number, not a string) equal to generation',
      r => {
        r.metadata.generation = 7;
        r.status.observedGeneration = 7;
      },
      'Healthy',
      undefined,
    ],
    [
      'all-digit legacy hash larger than generation counts as observed',
      r => {
        r.status.observedGeneration = '8575574967';
      },
      'Healthy',
      undefined,
    ],
    [
      'stale v1.0 phase is not trusted while the generation is not observed',
      r => {
        r.metadata.generation = 3;
        r.status.observedGeneration = '2';
        r.status.phase = 'Healthy';
      },
      'Progressing',
      'Waiting for rollout spec update to be observed',
    ],
    [
      'v1.0 phase Progressing with message',
      r => {
        r.status.phase = 'Progressing';
        r.status.message = 'more replicas need to be updated';
      },
      'Progressing',
      'more replicas need to be updated',
    ],
    [
      'v1.0 phase Paused maps to Suspended',
      r => {
        r.status.phase = 'Paused';
        r.status.message = 'CanaryPauseStep';
      },
      'Suspended',
      'CanaryPauseStep',
    ],
    [
      'workloadRef generation not yet observed',
      r => {
        r.spec.workloadRef = {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'x',
        };
        r.metadata.annotations['rollout.argoproj.io/workload-generation'] = '4';
        r.status.workloadObservedGeneration = '3';
      },
      'Progressing',
      'Waiting for rollout spec update to be observed',
    ],
    [
      'InvalidSpec condition',
      r =>
        r.status.conditions.push({
          type: 'InvalidSpec',
          status: 'True',
          message: 'bad spec',
        }),
      'Degraded',
      'bad spec',
    ],
    [
      'RolloutAborted condition',
      r => {
        r.status.conditions[0] = {
          type: 'Progressing',
          reason: 'RolloutAborted',
          message: 'Rollout is aborted',
        };
      },
      'Degraded',
      'Rollout is aborted',
    ],
    [
      'conditions is {} (tolerated)',
      r => {
        r.status.conditions = {};
      },
      'Healthy',
      undefined,
    ],
    [
      'pauseConditions',
      r => {
        r.status.pauseConditions = [
          { reason: 'CanaryPauseStep', startTime: '2019-05-01T22:00:00Z' },
        ];
      },
      'Suspended',
      'Rollout is paused',
    ],
    [
      'spec.paused',
      r => (r.spec.paused = true),
      'Suspended',
      'Rollout is paused',
    ],
    [
      'no currentPodHash',
      r => delete r.status.currentPodHash,
      'Progressing',
      'Waiting for rollout to finish: status has not been reconciled.',
    ],
    [
      'more replicas need to be updated',
      r => (r.status.updatedReplicas = 3),
      'Progressing',
      'Waiting for roll out to finish: More replicas need to be updated',
    ],
    [
      'spec.replicas absent defaults to 1',
      r => {
        delete r.spec.replicas;
        r.status.updatedReplicas = 0;
      },
      'Progressing',
      'Waiting for roll out to finish: More replicas need to be updated',
    ],
    [
      'updated replicas still becoming available',
      r => (r.status.availableReplicas = 4),
      'Progressing',
      'Waiting for roll out to finish: updated replicas are still becoming available',
    ],
    [
      'old replicas pending termination',
      r => (r.status.replicas = 6),
      'Progressing',
      'Waiting for roll out to finish: old replicas are pending termination',
    ],
    [
      'stable RS is not the current pod hash',
      r => (r.status.stableRS = 'somethingelse'),
      'Progressing',
      'Waiting for rollout to finish steps',
    ],
    [
      'legacy status.canary.stableRS equal to the current pod hash',
      r => {
        delete r.status.stableRS;
        r.status.canary = { stableRS: r.status.currentPodHash };
      },
      'Healthy',
      undefined,
    ],
    [
      'blue-green: active service not yet cut over',
      r => {
        r.spec.strategy = { blueGreen: { activeService: 'active' } };
        r.status.blueGreen = { activeSelector: 'old' };
      },
      'Progressing',
      'active service cutover pending',
    ],
    [
      'blue-green: active service serves the current pod hash',
      r => {
        r.spec.strategy = { blueGreen: { activeService: 'active' } };
        r.status.blueGreen = { activeSelector: r.status.currentPodHash };
      },
      'Healthy',
      undefined,
    ],
  ])('synthetic: %s → %s', (_name, mutate, status, message) => {
    const health = rolloutHealth(synthetic(mutate));
    expect(health.status).toBe(status);
    expect(health.message).toBe(message);
  });
});

describe('luaToNumber', () => {
  it.each<[unknown, number | undefined]>([
    ['15', 15],
    [' 5 ', 5],
    [7, 7],
    ['8575574967', 8575574967],
    ['6df79499bc', undefined],
    ['58b949649c', undefined],
    ['c45557fd9', undefined],
    ['0x1f', 31],
    ['', undefined],
    [undefined, undefined],
    [null, undefined],
  ])('%p → %p', (value, expected) => {
    expect(luaToNumber(value)).toBe(expected);
  });
});
