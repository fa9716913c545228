import type { CanaryState } from '../argo/canaryState';
import {
  gitComparison,
  hasCanarySteps,
  runsDigest,
  syncDidNotApply,
  syncOperationState,
} from './argoFacts';

const digest = (c: string) => `sha256:${c.repeat(64)}`;

describe('syncOperationState', () => {
  it.each([
    ['Running', 'running', false],
    ['Terminating', 'running', false],
    ['Failed', 'failed', true],
    ['Error', 'errored', true],
    ['Succeeded', 'settled', false],
    [undefined, 'settled', false],
  ] as const)('%s is %s', (phase, state, didNotApply) => {
    expect(syncOperationState(phase)).toBe(state);
    expect(syncDidNotApply(syncOperationState(phase))).toBe(didNotApply);
  });
});

describe('gitComparison', () => {
  it.each([
    ['Synced', 'synced'],
    ['OutOfSync', 'out-of-sync'],
    ['Unknown', 'not-compared'],
    [undefined, 'not-compared'],
  ] as const)('%s is %s', (syncStatus, comparison) => {
    expect(gitComparison(syncStatus)).toBe(comparison);
  });
});

describe('runsDigest', () => {
  it.each([
    [[digest('a')], digest('a'), true],
    [[digest('b'), digest('a')], digest('a'), true],
    [[digest('A').replace('SHA256', 'sha256')], digest('a'), true],
    [[digest('a')], digest('A').replace('SHA256', 'sha256'), true],
    [[digest('b')], digest('a'), false],
    [[], digest('a'), false],
  ])('%j runs %s: %s', (running, wanted, expected) => {
    expect(runsDigest(running, wanted)).toBe(expected);
  });
});

describe('hasCanarySteps', () => {
  const canary = (totalSteps: number) => ({ totalSteps }) as CanaryState;
  it.each([
    [undefined, false],
    [canary(0), false],
    [canary(4), true],
  ])('%j: %s', (state, expected) => {
    expect(hasCanarySteps(state)).toBe(expected);
  });
});
