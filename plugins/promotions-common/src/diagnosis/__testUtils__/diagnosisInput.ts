import type { CanaryState } from '../../argo/canaryState';
import type { Diagnosis, DiagnosisInput } from '../diagnosisTypes';

/** The deployment every diagnose test starts from, and the helpers to read a diagnosis. */

export const d = (c: string) => `sha256:${c.repeat(64)}`;
export const NEW = d('a');
export const OLD = d('b');
export const NOW = new Date('2025-06-01T12:00:00Z');
export const ago = (seconds: number) =>
  new Date(NOW.getTime() - seconds * 1000).toISOString();
export const PR = 'https://github.com/asanexample/platform/pull/42';
export const APP_URL =
  'https://argocd.example.org/applications/alpha-shop-test';
export const RELEASE_PATH = 'gitops/releases/alpha/shop/test.yaml';

type AppInput = NonNullable<DiagnosisInput['application']>;
type PromotionInput = NonNullable<DiagnosisInput['promotion']>;

/** A settled, healthy deployment of NEW merged 1 h ago; every test changes one thing. */
export function input(
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

export function canary(overrides: Partial<CanaryState> = {}): CanaryState {
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
export function pausedCanary(
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

export const urls = (diagnosis: Diagnosis) =>
  diagnosis.whereToLook.filter(l => l.url).map(l => l.url);
export const labels = (diagnosis: Diagnosis) =>
  diagnosis.whereToLook.map(l => l.label).join('\n');
