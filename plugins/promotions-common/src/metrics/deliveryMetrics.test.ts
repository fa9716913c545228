import { DigestArrival, computeDeliveryMetrics } from './deliveryMetrics';

const H = 60 * 60 * 1000;
const STAGES = ['dev', 'test', 'prod'];

function arrival(stage: string, digest: string, at: string, commit: string, service = 's'): DigestArrival {
  return { team: 'alpha', product: 'shop', stage, service, digest, at: `2026-11-${at}:00.000Z`, commit };
}

/** The commit that created the stage's Release record (the Product onboarded there) brought the digest. */
const onboarded = (stage: string, digest: string, at: string, commit: string, service = 's'): DigestArrival => ({
  ...arrival(stage, digest, at, commit, service),
  onboarding: true,
});

/**
 * Two weeks. Digests A–D climb dev → test → prod; O was in prod before the
 * window; prod rolls B back to A 2 h after B, and D fixes C forward 3 h
 * after C. Service t's digest T enters dev in A's commit and goes no further.
 */
const HISTORY: DigestArrival[] = [
  arrival('prod', 'O', '01T00:00', 'c0'),
  arrival('dev', 'A', '02T00:00', 'c1'),
  arrival('dev', 'T', '02T00:00', 'c1', 't'),
  arrival('test', 'A', '02T02:00', 'c2'),
  arrival('prod', 'A', '02T06:00', 'c3'),
  arrival('dev', 'B', '03T00:00', 'c4'),
  arrival('test', 'B', '03T01:00', 'c5'),
  arrival('prod', 'B', '03T10:00', 'c6'),
  arrival('prod', 'A', '03T12:00', 'c7'),
  arrival('dev', 'C', '04T00:00', 'c8'),
  arrival('test', 'C', '04T04:00', 'c9'),
  arrival('prod', 'C', '05T00:00', 'c10'),
  arrival('dev', 'D', '05T01:00', 'c11'),
  arrival('test', 'D', '05T02:00', 'c12'),
  arrival('prod', 'D', '05T03:00', 'c13'),
];

const WINDOW = {
  stages: STAGES,
  from: new Date('2026-11-02T00:00:00.000Z'),
  to: new Date('2026-11-16T00:00:00.000Z'),
  failureWindowMs: 24 * H,
};

describe('computeDeliveryMetrics', () => {
  it('computes the scripted history by hand', () => {
    expect(computeDeliveryMetrics({ ...WINDOW, arrivals: HISTORY })).toEqual({
      from: '2026-11-02T00:00:00.000Z',
      to: '2026-11-16T00:00:00.000Z',
      deploymentFrequency: [
        // c1 (two services, one commit), c4, c8, c11
        { stage: 'dev', deployments: 4, perWeek: 2 },
        { stage: 'test', deployments: 4, perWeek: 2 },
        // c3, c6, the rollback c7, c10, c13; c0 is before the window
        { stage: 'prod', deployments: 5, perWeek: 2.5 },
      ],
      leadTime: {
        // A 6 h, B 10 h, C 24 h, D 2 h → [2, 6, 10, 24]
        samples: 4,
        medianMs: 8 * H,
        p90Ms: 19.8 * H, // 10 + 0.7 × 14
        rungs: [
          // [2, 1, 4, 1] h
          { fromStage: 'dev', toStage: 'test', samples: 4, medianMs: 1.5 * H, p90Ms: 3.4 * H },
          // [4, 9, 20, 1] h
          { fromStage: 'test', toStage: 'prod', samples: 4, medianMs: 6.5 * H, p90Ms: 16.7 * H },
        ],
      },
      // changes A, B, C, D (A's return is a rollback, not a change); B rolled back, C fixed forward
      changeFailureRate: { changes: 4, failures: 2, rollbacks: 1, fixForwards: 1, rate: 0.5 },
      // [2, 3] h
      timeToRestore: { samples: 2, medianMs: 2.5 * H, p90Ms: 2.9 * H },
    });
  });

  it.each([
    [
      'a change replaced exactly at the failure window failed',
      [arrival('prod', 'A', '02T00:00', 'c1'), arrival('prod', 'B', '03T00:00', 'c2')],
      { changes: 2, failures: 1, rollbacks: 0, fixForwards: 1, rate: 0.5 },
    ],
    [
      'a change replaced 1 ms after the failure window did not',
      [arrival('prod', 'A', '02T00:00', 'c1'), { ...arrival('prod', 'B', '03T00:00', 'c2'), at: '2026-11-03T00:00:00.001Z' }],
      { changes: 2, failures: 0, rollbacks: 0, fixForwards: 0, rate: 0 },
    ],
    [
      'a change at the window end is outside it; its predecessor inside failed',
      [arrival('prod', 'A', '15T12:00', 'c1'), arrival('prod', 'B', '16T00:00', 'c2')],
      { changes: 1, failures: 1, rollbacks: 0, fixForwards: 1, rate: 1 },
    ],
    [
      'other Services do not replace a change',
      [arrival('prod', 'A', '02T00:00', 'c1'), arrival('prod', 'B', '02T01:00', 'c2', 't')],
      { changes: 2, failures: 0, rollbacks: 0, fixForwards: 0, rate: 0 },
    ],
    ['no prod arrivals: no rate', [arrival('dev', 'A', '02T00:00', 'c1')], { changes: 0, failures: 0, rollbacks: 0, fixForwards: 0 }],
  ])('%s', (_name, arrivals, expected) => {
    expect(computeDeliveryMetrics({ ...WINDOW, arrivals }).changeFailureRate).toEqual(expected);
  });

  it('leaves out of lead time a digest that never was in the first stage', () => {
    const metrics = computeDeliveryMetrics({
      ...WINDOW,
      arrivals: [arrival('test', 'X', '02T00:00', 'c1'), arrival('prod', 'X', '02T05:00', 'c2')],
    });
    expect(metrics.leadTime.samples).toBe(0);
    expect(metrics.leadTime.rungs[1]).toEqual({ fromStage: 'test', toStage: 'prod', samples: 1, medianMs: 5 * H, p90Ms: 5 * H });
  });

  describe('an onboarding (the commit that created a Release record)', () => {
    /** alpha/shop onboarded in the window: one commit creates every stage's record with O. */
    const ONBOARDING = STAGES.map(stage => onboarded(stage, 'O', '02T00:00', 'c0'));

    it('is no deployment, no lead time, no rung and no change', () => {
      expect(computeDeliveryMetrics({ ...WINDOW, arrivals: ONBOARDING })).toEqual({
        from: '2026-11-02T00:00:00.000Z',
        to: '2026-11-16T00:00:00.000Z',
        deploymentFrequency: STAGES.map(stage => ({ stage, deployments: 0, perWeek: 0 })),
        leadTime: {
          samples: 0,
          rungs: [
            { fromStage: 'dev', toStage: 'test', samples: 0 },
            { fromStage: 'test', toStage: 'prod', samples: 0 },
          ],
        },
        changeFailureRate: { changes: 0, failures: 0, rollbacks: 0, fixForwards: 0 },
        timeToRestore: { samples: 0 },
      });
    });

    it.each([
      [
        'a digest first in prod through its onboarding has no lead time, even when it climbs again later',
        [
          ...ONBOARDING,
          arrival('dev', 'A', '03T00:00', 'c1'),
          arrival('prod', 'A', '03T05:00', 'c2'),
          arrival('dev', 'O', '04T00:00', 'c3'),
          arrival('prod', 'O', '04T02:00', 'c4'),
        ],
        // A's 5 h only
        { samples: 1, medianMs: 5 * H, p90Ms: 5 * H },
      ],
      [
        'a digest onboarded in the first stage starts its lead time there when it climbs for real',
        [onboarded('dev', 'A', '02T00:00', 'c0'), onboarded('prod', 'O', '02T00:00', 'c0'), arrival('prod', 'A', '02T05:00', 'c1')],
        { samples: 1, medianMs: 5 * H, p90Ms: 5 * H },
      ],
      [
        'a digest onboarded in the first stage before the window starts its lead time there too',
        [onboarded('dev', 'A', '01T00:00', 'c0'), arrival('prod', 'A', '02T00:00', 'c1')],
        { samples: 1, medianMs: 24 * H, p90Ms: 24 * H },
      ],
    ])('%s', (_name, arrivals, expected) => {
      expect(computeDeliveryMetrics({ ...WINDOW, arrivals }).leadTime).toMatchObject(expected);
    });

    it('ends no rung in a stage onboarded with the digest, but starts the next one there', () => {
      const arrivals = [
        arrival('dev', 'A', '02T00:00', 'c1'),
        onboarded('test', 'A', '02T03:00', 'c2'),
        arrival('prod', 'A', '02T05:00', 'c3'),
      ];
      expect(computeDeliveryMetrics({ ...WINDOW, arrivals }).leadTime.rungs).toEqual([
        { fromStage: 'dev', toStage: 'test', samples: 0 },
        { fromStage: 'test', toStage: 'prod', samples: 1, medianMs: 2 * H, p90Ms: 2 * H },
      ]);
    });

    it.each([
      [
        'an onboarded prod digest is no change',
        [onboarded('prod', 'O', '02T00:00', 'c0')],
        { changes: 0, failures: 0, rollbacks: 0, fixForwards: 0 },
      ],
      [
        'the first change after an onboarding is a change, and returning to the onboarded digest is a rollback',
        [onboarded('prod', 'O', '02T00:00', 'c0'), arrival('prod', 'A', '03T00:00', 'c1'), arrival('prod', 'O', '03T02:00', 'c2')],
        { changes: 1, failures: 1, rollbacks: 1, fixForwards: 0, rate: 1 },
      ],
      [
        'an onboarding before the window is history too',
        [onboarded('prod', 'O', '01T00:00', 'c0'), arrival('prod', 'A', '03T00:00', 'c1'), arrival('prod', 'O', '03T02:00', 'c2')],
        { changes: 1, failures: 1, rollbacks: 1, fixForwards: 0, rate: 1 },
      ],
      [
        'a Release record created again does not replace the change before it',
        [onboarded('prod', 'O', '02T00:00', 'c0'), arrival('prod', 'A', '03T00:00', 'c1'), onboarded('prod', 'B', '03T02:00', 'c2')],
        { changes: 1, failures: 0, rollbacks: 0, fixForwards: 0, rate: 0 },
      ],
    ])('%s', (_name, arrivals, expected) => {
      expect(computeDeliveryMetrics({ ...WINDOW, arrivals }).changeFailureRate).toEqual(expected);
    });
  });
});
