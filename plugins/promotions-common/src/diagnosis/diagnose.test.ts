import type { CanaryState } from '../argo/canaryState';
import {
  DEFAULT_DIAGNOSIS_THRESHOLDS,
  Diagnosis,
  DiagnosisInput,
  diagnose,
} from './diagnose';

const d = (c: string) => `sha256:${c.repeat(64)}`;
const NEW = d('a');
const OLD = d('b');
const NOW = new Date('2025-06-01T12:00:00Z');
const ago = (seconds: number) =>
  new Date(NOW.getTime() - seconds * 1000).toISOString();
const PR = 'https://github.com/asanexample/platform/pull/42';
const APP_URL = 'https://argocd.example.org/applications/alpha-shop-test';
const RELEASE_PATH = 'gitops/releases/alpha/shop/test.yaml';

type AppInput = NonNullable<DiagnosisInput['application']>;
type PromotionInput = NonNullable<DiagnosisInput['promotion']>;

/** A settled, healthy deployment of NEW merged 1 h ago; every test changes one thing. */
function input(
  overrides: Partial<Omit<DiagnosisInput, 'application' | 'promotion'>> & {
    application?: Partial<AppInput> | null;
    promotion?: Partial<PromotionInput> | null;
  } = {},
): DiagnosisInput {
  const { application, promotion, ...rest } = overrides;
  const base: DiagnosisInput = {
    service: 'storefront',
    stage: 'test',
    approvers: ['group:default/alpha-release-approvers'],
    releasedDigest: NEW,
    releaseChangedAt: ago(3600),
    runningDigests: [NEW],
    releasePath: RELEASE_PATH,
    now: NOW,
    ...rest,
  };
  if (application !== null) {
    base.application = {
      name: 'alpha-shop-test',
      url: APP_URL,
      missing: false,
      syncStatus: 'Synced',
      healthStatus: 'Healthy',
      revision: 'c0ffee0000000000000000000000000000000000',
      reconciledAt: ago(60),
      operationFinishedAt: ago(3500),
      operationPhase: 'Succeeded',
      ...application,
    };
  }
  if (promotion) {
    base.promotion = {
      status: 'merged',
      requestedBy: 'user:default/jane',
      pullRequestUrl: PR,
      since: ago(3600),
      ...promotion,
    };
  }
  return base;
}

function canary(overrides: Partial<CanaryState> = {}): CanaryState {
  return {
    phase: 'Paused',
    currentStep: 1,
    totalSteps: 4,
    complete: false,
    weight: 25,
    paused: true,
    pauseReason: 'CanaryPauseStep',
    aborted: false,
    ...overrides,
  };
}

/** A canary paused `pausedFor` seconds on a pause step of `duration` seconds (undefined = `{}`). */
function pausedCanary(
  pausedFor: number | undefined,
  duration: number | undefined,
): CanaryState {
  const state = canary();
  if (pausedFor !== undefined) {
    state.pausedForSeconds = pausedFor;
    state.pausedSince = ago(pausedFor);
  }
  if (duration !== undefined) {
    state.pauseDurationSeconds = duration;
    if (pausedFor !== undefined)
      state.pauseRemainingSeconds = Math.max(0, duration - pausedFor);
  }
  return state;
}

const urls = (diagnosis: Diagnosis) =>
  diagnosis.whereToLook.filter(l => l.url).map(l => l.url);
const labels = (diagnosis: Diagnosis) =>
  diagnosis.whereToLook.map(l => l.label).join('\n');

describe('DEFAULT_DIAGNOSIS_THRESHOLDS', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_DIAGNOSIS_THRESHOLDS).toEqual({
      syncStuckSeconds: 300,
      canaryStuckSeconds: 600,
      approvalWaitSeconds: 86400,
      degradedStuckSeconds: 0,
    });
  });
});

describe('diagnose: healthy', () => {
  it('is ok when synced, healthy and running the released digest', () => {
    const result = diagnose(input({ promotion: {} }));
    expect(result).toMatchObject({ state: 'ok', code: 'healthy' });
    expect(result.lastCompletedStep).toBe('Serving sha256:aaaaaaaaaaaa…');
    expect(result.likelyCause).toContain('Nothing is stuck');
    expect(urls(result)).toEqual([APP_URL, PR]);
  });

  it('says the canary is complete when there was one', () => {
    const result = diagnose(
      input({
        canary: canary({
          phase: 'Healthy',
          complete: true,
          currentStep: 4,
          weight: 100,
          paused: false,
          pauseReason: undefined,
        }),
      }),
    );
    expect(result.code).toBe('healthy');
    expect(result.lastCompletedStep).toContain('Canary complete');
  });

  it('ignores a closed promotion', () => {
    const result = diagnose(
      input({ promotion: { status: 'closed', healthState: 'failure' } }),
    );
    expect(result).toMatchObject({ state: 'ok', code: 'healthy' });
    expect(result.lastCompletedStep).toContain('Serving');
  });

  it('is ok with nothing to deploy when nothing is released', () => {
    const result = diagnose(
      input({ releasedDigest: undefined, application: { missing: true } }),
    );
    expect(result).toMatchObject({ state: 'ok', code: 'healthy' });
    expect(result.lastCompletedStep).toBe('Nothing released to test');
    expect(result.likelyCause).toContain('not released to test');
  });
});

describe('diagnose: the promotion PR', () => {
  it.each([
    [86399, 'in-progress'],
    [86400, 'in-progress'],
    [86401, 'stuck'],
  ])(
    'waits for approval %ss → %s, naming the approver groups',
    (waited, state) => {
      const result = diagnose(
        input({
          promotion: {
            status: 'awaiting-approval',
            healthState: 'success',
            since: ago(waited),
          },
          approvers: [
            'group:default/alpha-release-approvers',
            'group:default/sre',
          ],
        }),
      );
      expect(result.state).toBe(state);
      expect(result.code).toBe('awaiting-approval');
      expect(result.lastCompletedStep).toBe('PR checks passed');
      expect(result.likelyCause).toContain(
        'members of alpha-release-approvers, sre',
      );
      expect(result.whereToLook[0]).toEqual({
        label: 'The promotion pull request',
        url: PR,
      });
      expect(labels(result)).toContain('Approvers: sre');
      expect(result.likelyCause.includes('Worth a reminder')).toBe(
        state === 'stuck',
      );
    },
  );

  it('honours a custom approval wait', () => {
    const promotion = { status: 'awaiting-approval' as const, since: ago(61) };
    expect(
      diagnose(input({ promotion }), { approvalWaitSeconds: 60 }).state,
    ).toBe('stuck');
    expect(
      diagnose(input({ promotion }), { approvalWaitSeconds: 61 }).state,
    ).toBe('in-progress');
  });

  it('mentions pending checks while waiting for approval', () => {
    const result = diagnose(
      input({
        promotion: {
          status: 'awaiting-approval',
          healthState: 'pending',
          healthDescription: 'test not ready: storefront: Rollout is paused',
          since: ago(10),
        },
      }),
    );
    expect(result.code).toBe('awaiting-approval');
    expect(result.lastCompletedStep).toBe('PR opened by jane');
    expect(result.likelyCause).toContain('health check is pending');
    expect(result.likelyCause).toContain('Rollout is paused');
  });

  it('says when no approver group is configured', () => {
    const result = diagnose(
      input({
        approvers: [],
        promotion: { status: 'awaiting-approval', since: ago(10) },
      }),
    );
    expect(result.likelyCause).toContain('no approver group is configured');
  });

  it.each(['open', 'awaiting-approval', 'approved'] as const)(
    'is stuck on failing checks (%s) with the description',
    status => {
      const result = diagnose(
        input({
          promotion: {
            status,
            healthState: 'failure',
            healthDescription:
              'dev not ready: storefront: Application is Degraded',
          },
        }),
      );
      expect(result).toMatchObject({ state: 'stuck', code: 'checks-failing' });
      expect(result.lastCompletedStep).toBe('PR opened by jane');
      expect(result.likelyCause).toContain('source is not healthy');
      expect(result.likelyCause).toContain(
        'dev not ready: storefront: Application is Degraded',
      );
      expect(urls(result)).toEqual([PR]);
    },
  );

  it('is stuck on a failed promotion', () => {
    const result = diagnose(
      input({
        promotion: {
          status: 'failed',
          healthDescription: 'could not open the PR',
        },
      }),
    );
    expect(result).toMatchObject({ state: 'stuck', code: 'checks-failing' });
    expect(result.likelyCause).toContain(
      'The promotion failed: could not open the PR',
    );
  });

  it('is in progress while the checks are pending', () => {
    const result = diagnose(
      input({
        promotion: {
          status: 'open',
          healthState: 'pending',
          healthDescription: 'dev not ready: storefront: canary',
        },
      }),
    );
    expect(result).toMatchObject({
      state: 'in-progress',
      code: 'checks-pending',
    });
    expect(result.lastCompletedStep).toBe('PR opened by jane');
    expect(result.likelyCause).toContain('health check is pending');
    expect(result.likelyCause).toContain('dev not ready: storefront: canary');
    expect(urls(result)).toEqual([PR]);
  });

  it('waits for the Gate once the checks passed', () => {
    const open = diagnose(
      input({ promotion: { status: 'open', healthState: 'success' } }),
    );
    expect(open).toMatchObject({
      state: 'in-progress',
      code: 'checks-pending',
    });
    expect(open.lastCompletedStep).toBe('PR checks passed');
    expect(open.likelyCause).toContain('Gate merges it on its next run');

    const approved = diagnose(
      input({ promotion: { status: 'approved', healthState: 'success' } }),
    );
    expect(approved.code).toBe('checks-pending');
    expect(approved.lastCompletedStep).toBe('PR approved');
    expect(approved.likelyCause).toContain('approved');
  });
});

describe('diagnose: ArgoCD and the Application', () => {
  it('is unknown when ArgoCD is unreachable', () => {
    const result = diagnose(
      input({
        promotion: {},
        application: { unreachable: 'connect ECONNREFUSED 10.0.0.1:443' },
      }),
    );
    expect(result).toMatchObject({
      state: 'unknown',
      code: 'argocd-unreachable',
    });
    expect(result.lastCompletedStep).toBe('PR merged to main');
    expect(result.likelyCause).toContain('ECONNREFUSED');
    expect(urls(result)).toEqual([APP_URL, PR]);
  });

  it.each([
    [60, 'in-progress'],
    [300, 'in-progress'],
    [301, 'stuck'],
  ])('an Application missing %ss after the merge is %s', (since, state) => {
    const result = diagnose(
      input({
        promotion: {},
        releaseChangedAt: ago(since),
        application: { missing: true, url: undefined },
      }),
    );
    expect(result).toMatchObject({ state, code: 'application-missing' });
    expect(result.lastCompletedStep).toBe('PR merged to main');
    expect(result.likelyCause).toContain(
      'has not generated Application alpha-shop-test',
    );
    expect(result.likelyCause).toContain(`\`${RELEASE_PATH}\``);
    expect(result.likelyCause).toContain("generator's files pattern");
    expect(result.likelyCause).toContain('the Environment exists');
    expect(labels(result)).toContain(`The Release file ${RELEASE_PATH}`);
    expect(urls(result)).toEqual([PR]);
  });

  it('reads an absent Application as missing', () => {
    const result = diagnose(input({ application: null }));
    expect(result).toMatchObject({
      state: 'stuck',
      code: 'application-missing',
    });
    expect(result.lastCompletedStep).toBe(
      'Release on main names sha256:aaaaaaaaaaaa…',
    );
    expect(result.likelyCause).toContain("the stage's Application");
  });

  it('is syncing while a sync operation runs', () => {
    const result = diagnose(
      input({
        promotion: {},
        releaseChangedAt: ago(30),
        runningDigests: [OLD],
        application: {
          syncStatus: 'OutOfSync',
          operationPhase: 'Running',
          operationMessage:
            'waiting for healthy state of argoproj.io/Rollout/storefront',
        },
      }),
    );
    expect(result).toMatchObject({ state: 'in-progress', code: 'syncing' });
    expect(result.lastCompletedStep).toBe('PR merged to main');
    expect(result.likelyCause).toContain('ArgoCD is syncing alpha-shop-test');
    expect(result.likelyCause).toContain('waiting for healthy state');
    expect(urls(result)).toEqual([APP_URL, PR]);
  });

  it('is syncing while the new pods start', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD, NEW],
        application: { healthStatus: 'Progressing' },
      }),
    );
    expect(result).toMatchObject({ state: 'in-progress', code: 'syncing' });
    expect(result.lastCompletedStep).toBe('ArgoCD synced the new Release');
  });

  it('is stuck when admission refused the workload', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD],
        application: {
          syncStatus: 'OutOfSync',
          operationPhase: 'Failed',
          operationMessage:
            'admission webhook "validate.kyverno.svc-fail" denied the request: verify-image-signature',
        },
      }),
    );
    expect(result).toMatchObject({
      state: 'stuck',
      code: 'merged-out-of-sync',
    });
    expect(result.likelyCause).toContain('admission refused the workload');
    expect(labels(result)).toContain('Kyverno');
  });

  it('is stuck when the sync failed for another reason', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD],
        application: {
          syncStatus: 'OutOfSync',
          operationPhase: 'Error',
          operationMessage: 'one or more objects failed to apply',
        },
      }),
    );
    expect(result).toMatchObject({
      state: 'stuck',
      code: 'merged-out-of-sync',
    });
    expect(result.likelyCause).toContain('last sync errored');
    expect(result.likelyCause).toContain('failed to apply');
  });

  it('is stuck when ArgoCD cannot compare with git', () => {
    const result = diagnose(
      input({
        application: {
          syncStatus: 'Unknown',
          healthStatus: 'Unknown',
        },
      }),
    );
    expect(result).toMatchObject({
      state: 'stuck',
      code: 'merged-out-of-sync',
    });
    expect(result.likelyCause).toContain('could not compare');
    expect(result.likelyCause).toContain('manifest generation error');
  });

  it.each([
    [299, 'in-progress'],
    [300, 'in-progress'],
    [301, 'stuck'],
  ])('OutOfSync %ss after the merge is %s', (since, state) => {
    const result = diagnose(
      input({
        promotion: { since: ago(since) },
        releaseChangedAt: ago(since),
        runningDigests: [OLD],
        application: {
          syncStatus: 'OutOfSync',
          operationFinishedAt: ago(7200),
          reconciledAt: ago(5),
        },
      }),
    );
    expect(result).toMatchObject({ state, code: 'merged-out-of-sync' });
    expect(result.lastCompletedStep).toBe('PR merged to main');
    expect(result.likelyCause).toContain(
      state === 'stuck'
        ? 'still OutOfSync'
        : 'has not synced the new Release yet',
    );
    expect(urls(result)).toEqual([APP_URL, PR]);
  });

  it('honours a custom sync threshold and falls back to the merge time of the promotion', () => {
    const base = {
      releaseChangedAt: undefined,
      runningDigests: [OLD],
      application: { syncStatus: 'OutOfSync', operationFinishedAt: ago(7200) },
    };
    expect(
      diagnose(input({ ...base, promotion: { since: ago(61) } }), {
        syncStuckSeconds: 60,
      }).state,
    ).toBe('stuck');
    expect(
      diagnose(input({ ...base, promotion: { since: ago(59) } }), {
        syncStuckSeconds: 60,
      }).state,
    ).toBe('in-progress');
    // no time known at all: cannot call it stuck
    const unknownTime = diagnose(input({ ...base, promotion: null }));
    expect(unknownTime).toMatchObject({
      state: 'in-progress',
      code: 'merged-out-of-sync',
    });
    expect(unknownTime.lastCompletedStep).toBe(
      'Release on main names sha256:aaaaaaaaaaaa…',
    );
  });

  it.each([
    [
      'the Release did not change recently and runs',
      ago(86400),
      [NEW],
      ago(80000),
    ],
    [
      'no change time is known and the Release runs',
      undefined,
      [NEW],
      ago(80000),
    ],
    ['a sync finished after the change', ago(3600), [NEW], ago(3500)],
  ])(
    'OutOfSync while nothing changed (%s) is the client-side diff',
    (_case, changedAt, running, finishedAt) => {
      const result = diagnose(
        input({
          releaseChangedAt: changedAt,
          runningDigests: running,
          application: {
            syncStatus: 'OutOfSync',
            operationFinishedAt: finishedAt,
          },
        }),
      );
      expect(result).toMatchObject({
        state: 'stuck',
        code: 'out-of-sync-no-change',
      });
      expect(result.lastCompletedStep).toBe('ArgoCD synced the new Release');
      expect(result.likelyCause).toContain(
        "ArgoCD's client-side diff sees a difference that is not there (defaulted fields, mutating webhooks)",
      );
      expect(result.likelyCause).toContain(
        '`argocd.argoproj.io/compare-options: ServerSideDiff=true`',
      );
      expect(result.likelyCause).toContain('ignoreDifferences');
      expect(result.likelyCause).toContain(
        "ArgoCD's client-side diff sees a difference that is not there (defaulted fields, mutating webhooks); enable server-side diff (`argocd.argoproj.io/compare-options: ServerSideDiff=true`) or ignoreDifferences",
      );
      expect(urls(result)).toEqual([APP_URL]);
    },
  );

  it('OutOfSync just after a merge is not yet the client-side diff, even if the digest runs', () => {
    const result = diagnose(
      input({
        releaseChangedAt: ago(100),
        runningDigests: [NEW],
        application: {
          syncStatus: 'OutOfSync',
          operationFinishedAt: ago(7200),
        },
      }),
    );
    expect(result).toMatchObject({
      state: 'in-progress',
      code: 'merged-out-of-sync',
    });
  });

  it('a Degraded app that is also OutOfSync is diagnosed as Degraded', () => {
    const result = diagnose(
      input({
        releaseChangedAt: ago(86400),
        application: { syncStatus: 'OutOfSync', healthStatus: 'Degraded' },
      }),
    );
    expect(result.code).toBe('degraded');
  });

  it.each([
    [300, 'in-progress'],
    [301, 'stuck'],
  ])('Synced but not refreshed since a merge %ss ago is %s', (since, state) => {
    const result = diagnose(
      input({
        promotion: {},
        releaseChangedAt: ago(since),
        runningDigests: [OLD],
        application: {
          reconciledAt: ago(since + 10),
          operationFinishedAt: ago(7200),
        },
      }),
    );
    expect(result).toMatchObject({ state, code: 'merged-out-of-sync' });
    expect(result.lastCompletedStep).toBe('PR merged to main');
    expect(result.likelyCause).toContain(
      state === 'stuck'
        ? 'has not looked at git'
        : 'has not picked up the merge yet',
    );
  });

  it.each([
    // Backstage saw the Release after ArgoCD compared the spec that carries it.
    ['the revision check says ArgoCD compared the released spec', { releaseApplied: true }, 0.5, 'rollout-aborted'],
    // ArgoCD's reconciledAt has whole seconds; a merge later in that second is not after it.
    ["ArgoCD reconciled in the merge's own second", {}, 0, 'rollout-aborted'],
    ['nothing says ArgoCD saw the merge', { releaseApplied: false }, 1.5, 'merged-out-of-sync'],
  ])('an aborted canary whose Release %s is %s', (_case, extra, reconciledBeforeMerge, code) => {
    const merged = new Date(NOW.getTime() - 60_000 + 400);
    const result = diagnose(
      input({
        ...extra,
        promotion: {},
        releaseChangedAt: merged.toISOString(),
        runningDigests: [OLD],
        application: {
          healthStatus: 'Degraded',
          reconciledAt: new Date(Math.floor(merged.getTime() / 1000) * 1000 - reconciledBeforeMerge * 1000).toISOString(),
          operationFinishedAt: ago(7200),
        },
        canary: {
          phase: 'Degraded',
          currentStep: 0,
          totalSteps: 6,
          complete: false,
          weight: 0,
          paused: false,
          aborted: true,
          message: 'RolloutAborted',
        },
      }),
    );
    expect(result.code).toBe(code);
  });

  it('synced but running another digest is the wrong digest', () => {
    const result = diagnose(input({ promotion: {}, runningDigests: [OLD] }));
    expect(result).toMatchObject({
      state: 'stuck',
      code: 'wrong-digest-running',
    });
    expect(result.lastCompletedStep).toBe('ArgoCD synced the new Release');
    expect(result.likelyCause).toContain('runs sha256:bbbbbbbbbbbb…');
    expect(result.likelyCause).toContain(
      'the Release names sha256:aaaaaaaaaaaa…',
    );
    expect(result.likelyCause).toContain('tag/digest mismatch');
    expect(result.likelyCause).toContain('wrong environment');
    expect(labels(result)).toContain('The image reference for storefront');
    expect(labels(result)).toContain(
      `The Application's source path vs the Release path ${RELEASE_PATH}`,
    );
    expect(urls(result)).toEqual([APP_URL, PR]);
  });

  it('synced but running no digest at all is the wrong digest', () => {
    const result = diagnose(input({ runningDigests: [] }));
    expect(result.code).toBe('wrong-digest-running');
    expect(result.likelyCause).toContain('no digest ArgoCD reports');
  });

  it('is unknown when ArgoCD reports no health', () => {
    const result = diagnose(
      input({ application: { healthStatus: 'Unknown' } }),
    );
    expect(result).toMatchObject({
      state: 'unknown',
      code: 'argocd-unreachable',
    });
    expect(result.likelyCause).toContain('health Unknown');
  });
});

describe('diagnose: the Rollout', () => {
  it.each([
    [
      0,
      300,
      'in-progress',
      'canary-soaking',
      'usually soaking, not stuck: 5m pause, 5m left',
    ],
    [
      120,
      300,
      'in-progress',
      'canary-soaking',
      'usually soaking, not stuck: 5m pause, 3m left',
    ],
    [
      300,
      300,
      'in-progress',
      'canary-soaking',
      'usually soaking, not stuck: 5m pause, 0s left',
    ],
    [301, 300, 'in-progress', 'canary-soaking', 'pause ended 1s ago'],
    [900, 300, 'in-progress', 'canary-soaking', 'pause ended 10m ago'],
    [901, 300, 'stuck', 'canary-stuck', '10m 1s longer than its 5m pause'],
  ])(
    'a canary paused %ss on a %ss pause is %s (%s)',
    (pausedFor, duration, state, code, text) => {
      const result = diagnose(
        input({
          runningDigests: [OLD, NEW],
          application: { healthStatus: 'Suspended' },
          canary: pausedCanary(pausedFor, duration),
        }),
      );
      expect(result).toMatchObject({ state, code });
      expect(result.lastCompletedStep).toBe('Canary at 25% (step 1 of 4)');
      expect(result.likelyCause).toContain(text);
      expect(result.likelyCause.includes('usually soaking, not stuck')).toBe(
        code === 'canary-soaking',
      );
      expect(labels(result)).toContain(
        'kubectl argo rollouts get rollout storefront -n alpha-shop-test',
      );
      expect(urls(result)).toEqual([APP_URL]);
    },
  );

  it('honours a custom canary threshold', () => {
    const canaryInput = input({
      runningDigests: [OLD, NEW],
      application: { healthStatus: 'Suspended' },
      canary: pausedCanary(400, 300),
    });
    expect(diagnose(canaryInput, { canaryStuckSeconds: 99 }).code).toBe(
      'canary-stuck',
    );
    expect(diagnose(canaryInput, { canaryStuckSeconds: 100 }).code).toBe(
      'canary-soaking',
    );
  });

  it.each([
    [600, 'in-progress', 'canary-soaking'],
    [601, 'stuck', 'canary-stuck'],
  ])('an indefinite pause for %ss is %s', (pausedFor, state, code) => {
    const result = diagnose(
      input({
        runningDigests: [OLD, NEW],
        application: { healthStatus: 'Suspended' },
        canary: pausedCanary(pausedFor, undefined),
      }),
    );
    expect(result).toMatchObject({ state, code });
    expect(result.lastCompletedStep).toContain('Canary at 25%');
    expect(result.likelyCause).toContain(
      'waiting for a manual promote: kubectl argo rollouts promote storefront',
    );
    expect(result.whereToLook[0].label).toBe(
      'kubectl argo rollouts promote storefront -n alpha-shop-test',
    );
  });

  it('an inconclusive analysis waits for a person', () => {
    const state = pausedCanary(700, undefined);
    state.pauseReason = 'InconclusiveAnalysisRun';
    const result = diagnose(
      input({ runningDigests: [OLD, NEW], canary: state }),
    );
    expect(result).toMatchObject({ state: 'stuck', code: 'canary-stuck' });
    expect(result.likelyCause).toContain('analysis was inconclusive');
  });

  it('a timed pause of unknown start is soaking', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD, NEW],
        canary: pausedCanary(undefined, 300),
      }),
    );
    expect(result).toMatchObject({
      state: 'in-progress',
      code: 'canary-soaking',
    });
    expect(result.likelyCause).toContain('5m pause');
  });

  it('a progressing canary is in progress', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD, NEW],
        application: { healthStatus: 'Progressing' },
        canary: canary({
          phase: 'Progressing',
          paused: false,
          pauseReason: undefined,
          currentStep: 2,
          weight: 50,
        }),
      }),
    );
    expect(result).toMatchObject({
      state: 'in-progress',
      code: 'canary-soaking',
    });
    expect(result.lastCompletedStep).toBe('Canary at 50% (step 2 of 4)');
  });

  it('a Suspended Application without canary details is soaking', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD, NEW],
        application: { healthStatus: 'Suspended' },
      }),
    );
    expect(result).toMatchObject({
      state: 'in-progress',
      code: 'canary-soaking',
    });
  });

  it.each([
    [{}, 0, 'stuck'],
    [{ degradedStuckSeconds: 600 }, 599, 'in-progress'],
    [{ degradedStuckSeconds: 600 }, 600, 'in-progress'],
    [{ degradedStuckSeconds: 600 }, 601, 'stuck'],
  ])(
    'Degraded with thresholds %j for %ss is %s',
    (thresholds, degradedFor, state) => {
      const result = diagnose(
        input({
          promotion: {},
          runningDigests: [OLD, NEW],
          application: {
            healthStatus: 'Degraded',
            healthMessage:
              'Readiness probe failed: HTTP probe failed with statuscode: 503',
            healthSince: ago(degradedFor),
          },
        }),
        thresholds,
      );
      expect(result).toMatchObject({ state, code: 'degraded' });
      expect(result.lastCompletedStep).toBe('ArgoCD synced the new Release');
      expect(result.likelyCause).toContain('probes are failing');
      expect(result.likelyCause).toContain('statuscode: 503');
      const look = labels(result);
      expect(look).toContain("storefront's readiness endpoint");
      expect(look).toContain('kubectl describe pod -n alpha-shop-test');
      expect(look).toContain('kubectl argo rollouts get rollout storefront');
      expect(urls(result)).toEqual([APP_URL, PR]);
    },
  );

  it('Degraded without a known start is stuck even with a threshold', () => {
    const result = diagnose(
      input({
        releaseChangedAt: undefined,
        application: {
          healthStatus: 'Degraded',
          operationFinishedAt: undefined,
        },
      }),
      { degradedStuckSeconds: 600 },
    );
    expect(result).toMatchObject({ state: 'stuck', code: 'degraded' });
  });

  it('a Degraded canary names the canary step', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD, NEW],
        application: { healthStatus: 'Degraded' },
        canary: canary({
          phase: 'Degraded',
          paused: false,
          message: 'ProgressDeadlineExceeded',
        }),
      }),
    );
    expect(result.code).toBe('degraded');
    expect(result.lastCompletedStep).toBe('Canary at 25% (step 1 of 4)');
    expect(result.likelyCause).toContain('ProgressDeadlineExceeded');
  });

  it('Degraded on an image pull points at the CI push step', () => {
    const result = diagnose(
      input({
        application: {
          healthStatus: 'Degraded',
          healthMessage: 'Back-off pulling image: ImagePullBackOff',
        },
      }),
    );
    expect(result.code).toBe('degraded');
    expect(result.likelyCause).toContain('never reached the registry');
    expect(result.whereToLook[0].label).toContain("The CI run's push step");
  });

  it('Degraded on scheduling points at pod events', () => {
    const result = diagnose(
      input({
        application: {
          healthStatus: 'Degraded',
          healthMessage:
            '0/3 nodes are available: 3 Insufficient cpu (FailedScheduling)',
        },
      }),
    );
    expect(result.code).toBe('degraded');
    expect(result.likelyCause).toContain('cannot schedule');
    expect(result.whereToLook[0].label).toContain('Pod events');
  });

  it('an aborted Rollout keeps the old digest serving', () => {
    const result = diagnose(
      input({
        promotion: {},
        runningDigests: [OLD],
        application: { healthStatus: 'Degraded' },
        canary: canary({
          phase: 'Degraded',
          aborted: true,
          paused: false,
          weight: 0,
          message: 'RolloutAborted: Metric "success-rate" assessed Failed',
        }),
      }),
    );
    expect(result).toMatchObject({ state: 'stuck', code: 'rollout-aborted' });
    expect(result.lastCompletedStep).toBe('ArgoCD synced the new Release');
    expect(result.likelyCause).toContain('analysis failed');
    expect(result.likelyCause).toContain('success-rate');
    expect(result.likelyCause).toContain('old digest keeps serving');
    expect(result.likelyCause).toContain('push a new digest, or roll back');
    expect(labels(result)).toContain(
      'kubectl get analysisruns -n alpha-shop-test',
    );
    expect(urls(result)).toEqual([APP_URL, PR]);
  });

  it('reads an abort from the health message when no canary state is given', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD],
        application: {
          healthStatus: 'Degraded',
          healthMessage: 'Rollout aborted update to revision 3',
        },
      }),
    );
    expect(result.code).toBe('rollout-aborted');
  });
});

describe('diagnose: each service by its own resources', () => {
  /** storefront's canary failed in a stage of three services: the Application is Degraded. */
  const degradedByStorefront = {
    syncStatus: 'Synced',
    healthStatus: 'Degraded',
    healthMessage: 'Rollout is aborted',
  };

  it.each<[string, Parameters<typeof input>[0], Partial<Diagnosis>]>([
    [
      "cart, healthy, in a stage Degraded by storefront's canary",
      {
        service: 'cart',
        application: degradedByStorefront,
        rolloutHealth: { status: 'Healthy' },
        serviceHealthy: true,
        stageHealthy: false,
      },
      { state: 'ok', code: 'healthy' },
    ],
    [
      "checkout, healthy, while cart's new digest leaves the Application OutOfSync 30 s after the merge",
      {
        service: 'checkout',
        releaseChangedAt: ago(30),
        application: { syncStatus: 'OutOfSync', healthStatus: 'Progressing' },
        rolloutHealth: { status: 'Healthy' },
        serviceHealthy: true,
        stageHealthy: false,
      },
      { state: 'ok', code: 'healthy' },
    ],
    [
      "storefront itself: its own aborted Rollout, read from the Rollout's health",
      {
        runningDigests: [OLD],
        application: degradedByStorefront,
        rolloutHealth: { status: 'Degraded', message: 'Rollout is aborted' },
        serviceHealthy: false,
        stageHealthy: false,
      },
      { state: 'stuck', code: 'rollout-aborted' },
    ],
    [
      "cart's own Rollout Progressing while the Application is Degraded by storefront",
      {
        service: 'cart',
        runningDigests: [OLD, NEW],
        application: degradedByStorefront,
        rolloutHealth: { status: 'Progressing' },
        serviceHealthy: false,
        stageHealthy: false,
      },
      { state: 'in-progress', code: 'syncing' },
    ],
    [
      'no Rollout health known: the Application\'s Degraded health decides',
      {
        application: { healthStatus: 'Degraded', healthMessage: 'Readiness probe failed' },
        serviceHealthy: false,
        stageHealthy: false,
      },
      { state: 'stuck', code: 'degraded' },
    ],
  ])('%s', (_name, overrides, expected) => {
    const result = diagnose(input(overrides));
    expect(result).toMatchObject(expected);
    // a diagnosis of another service never sends people to storefront's probes
    const aboutAnotherService = !!overrides?.service && overrides.service !== 'storefront';
    expect(aboutAnotherService && /probes|storefront/.test(`${result.likelyCause}\n${labels(result)}`)).toBe(false);
  });

  it("names the failing service's own Rollout, not the Application, as Degraded", () => {
    const result = diagnose(
      input({
        runningDigests: [OLD],
        application: { healthStatus: 'Degraded' },
        rolloutHealth: { status: 'Degraded', message: 'Readiness probe failed' },
        serviceHealthy: false,
        stageHealthy: false,
      }),
    );
    expect(result.code).toBe('degraded');
    expect(result.likelyCause).toMatch(/^Rollout storefront is Degraded/);
  });
});
