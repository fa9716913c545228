import { diagnose } from '../diagnose';
import {
  NEW,
  OLD,
  NOW,
  ago,
  PR,
  APP_URL,
  urls,
  labels,
  input,
} from '../__testUtils__/diagnosisInput';

describe('diagnose: ArgoCD and the Application', () => {
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

  it('names the checked supply-chain fact when admission refused an unsigned digest', () => {
    const unsigned = "storefront sha256:0123456789ab is not signed (look at the build-sign workflow's sign step)";
    const result = diagnose(
      input({
        runningDigests: [OLD],
        provenance: { state: 'unverified', reasons: [unsigned] },
        application: {
          syncStatus: 'OutOfSync',
          operationPhase: 'Failed',
          operationMessage: 'admission webhook "validate.kyverno.svc-fail" denied the request: verify-image-signature',
        },
      }),
    );
    expect(result).toMatchObject({ state: 'stuck', code: 'merged-out-of-sync' });
    expect(result.likelyCause).toBe(
      `ArgoCD's sync failed because admission refused the workload, and its supply chain is broken: checked in the registry: ${unsigned}. Admission said: admission webhook "validate.kyverno.svc-fail" denied the request: verify-image-signature`,
    );
  });

  it('points at the admission policy when admission refused a digest the registry check verified', () => {
    const result = diagnose(
      input({
        runningDigests: [OLD],
        provenance: { state: 'verified', reasons: [] },
        application: { syncStatus: 'OutOfSync', operationPhase: 'Failed', operationMessage: 'admission webhook denied the request: require-labels' },
      }),
    );
    expect(result.likelyCause).toContain('though the digest is signed and has SLSA provenance from the provenance workflow (checked in the registry): look at the admission policy itself');
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
    [60, 'in-progress', 'merged-out-of-sync'],
    [302, 'stuck', 'wrong-digest-running'],
  ])(
    "Synced and healthy, reconciled in the merge's own second, the old digest running %ss after the merge is %s (%s)",
    (since, state, code) => {
      // ArgoCD's reconciledAt has whole seconds: that reconcile may have come just before the merge.
      const merged = new Date(NOW.getTime() - since * 1000 + 400);
      const result = diagnose(
        input({
          promotion: {},
          releaseChangedAt: merged.toISOString(),
          runningDigests: [OLD],
          application: {
            reconciledAt: new Date(Math.floor(merged.getTime() / 1000) * 1000).toISOString(),
            operationFinishedAt: ago(7200),
          },
        }),
      );
      expect(result).toMatchObject({ state, code });
    },
  );

  it.each([
    // Backstage saw the Release after ArgoCD compared the spec that carries it.
    [
      'the revision check says ArgoCD compared the released spec',
      { releaseApplied: true },
      0.5,
      'rollout-aborted',
    ],
    // ArgoCD's reconciledAt has whole seconds; a merge later in that second is not after it.
    ["ArgoCD reconciled in the merge's own second", {}, 0, 'rollout-aborted'],
    [
      'nothing says ArgoCD saw the merge',
      { releaseApplied: false },
      1.5,
      'merged-out-of-sync',
    ],
  ])(
    'an aborted canary whose Release %s is %s',
    (_case, extra, reconciledBeforeMerge, code) => {
      const merged = new Date(NOW.getTime() - 60_000 + 400);
      const result = diagnose(
        input({
          ...extra,
          promotion: {},
          releaseChangedAt: merged.toISOString(),
          runningDigests: [OLD],
          application: {
            healthStatus: 'Degraded',
            reconciledAt: new Date(
              Math.floor(merged.getTime() / 1000) * 1000 -
                reconciledBeforeMerge * 1000,
            ).toISOString(),
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
    },
  );
});
