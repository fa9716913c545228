import {
  advanceRollout,
  applyDigest,
  canarySteps,
  newStableRollout,
  setFrozen,
} from './rolloutState';
import { argoHealthOfRollout, viewRollout } from './rolloutView';
import { worstHealth } from './health';
import { matchesLabelSelector } from './labelSelector';

const plan = { weights: [10, 25, 50], stepMs: 1000 };
const oldDigest = `sha256:${'1'.repeat(64)}`;
const newDigest = `sha256:${'2'.repeat(64)}`;
const never = () => false;

function rollout() {
  return newStableRollout({
    name: 'cart',
    namespace: 'alpha-shop-dev',
    repository: 'registry.refplat.org/alpha/cart',
    digest: oldDigest,
    now: 0,
  });
}

describe('canary progression', () => {
  it('has setWeight/pause steps from the weights', () => {
    expect(canarySteps(plan)).toEqual([
      { setWeight: 10 },
      { pause: { duration: '1s' } },
      { setWeight: 25 },
      { pause: { duration: '1s' } },
      { setWeight: 50 },
      { pause: { duration: '1s' } },
    ]);
  });

  it('steps through the weights on time and promotes the new digest', () => {
    const state = rollout();
    applyDigest(state, newDigest, 0);
    const at = (t: number) => {
      advanceRollout(state, plan, t, never);
      const view = viewRollout(state, plan);
      return [
        view.phase,
        view.currentStepIndex,
        view.canaryWeight,
        argoHealthOfRollout(view).status,
      ];
    };
    expect(at(100)).toEqual(['Progressing', 0, 10, 'Progressing']);
    expect(at(600)).toEqual(['Paused', 1, 10, 'Suspended']);
    expect(at(1600)).toEqual(['Progressing', 2, 25, 'Progressing']);
    expect(at(2100)).toEqual(['Paused', 3, 25, 'Suspended']);
    expect(at(3600)).toEqual(['Paused', 5, 50, 'Suspended']);
    expect(at(4600)).toEqual(['Progressing', 6, 100, 'Progressing']);
    expect(at(5100)).toEqual(['Healthy', 6, 0, 'Healthy']);
    expect(state.stableDigest).toBe(newDigest);
    expect(viewRollout(state, plan).runningImages).toEqual([
      `registry.refplat.org/alpha/cart@${newDigest}`,
    ]);
  });

  it('runs both images during the canary', () => {
    const state = rollout();
    applyDigest(state, newDigest, 0);
    advanceRollout(state, plan, 700, never);
    expect(viewRollout(state, plan).runningImages).toEqual([
      `registry.refplat.org/alpha/cart@${oldDigest}`,
      `registry.refplat.org/alpha/cart@${newDigest}`,
    ]);
  });

  it('aborts a bad digest when the first pause begins, keeping the old digest', () => {
    const state = rollout();
    applyDigest(state, newDigest, 0);
    advanceRollout(state, plan, 10_000, digest => digest === newDigest);
    const view = viewRollout(state, plan);
    expect(view.phase).toBe('Degraded');
    expect(view.message).toBe(
      'RolloutAborted: Rollout aborted update to revision 2: Metric "success-rate" assessed Failed due to failed (1) > failureLimit (0)',
    );
    expect(view.canaryWeight).toBe(0);
    expect(state.abortedAt).toBe(500);
    expect(view.runningImages).toEqual([
      `registry.refplat.org/alpha/cart@${oldDigest}`,
    ]);
    expect(argoHealthOfRollout(view).status).toBe('Degraded');
  });

  it('goes straight back to a stable digest (rollback during a canary)', () => {
    const state = rollout();
    applyDigest(state, newDigest, 0);
    advanceRollout(state, plan, 700, never);
    applyDigest(state, oldDigest, 800);
    expect(viewRollout(state, plan).phase).toBe('Healthy');
    expect(state.generation).toBe(3);
  });

  it('holds a frozen canary and resumes with the time it had left', () => {
    const state = rollout();
    applyDigest(state, newDigest, 0);
    advanceRollout(state, plan, 600, never);
    setFrozen(state, true, 600);
    advanceRollout(state, plan, 60_000, never);
    expect(viewRollout(state, plan).currentStepIndex).toBe(1);
    setFrozen(state, false, 60_000);
    advanceRollout(state, plan, 60_800, never);
    expect(viewRollout(state, plan).currentStepIndex).toBe(1);
    advanceRollout(state, plan, 61_000, never);
    expect(viewRollout(state, plan).currentStepIndex).toBe(2);
  });
});

describe('health aggregation and label selectors', () => {
  it('takes the worst health (Healthy < Suspended < Progressing < Missing < Degraded < Unknown)', () => {
    expect(worstHealth([])).toEqual({ status: 'Healthy' });
    expect(
      worstHealth([{ status: 'Healthy' }, { status: 'Suspended' }]).status,
    ).toBe('Suspended');
    expect(
      worstHealth([{ status: 'Progressing' }, { status: 'Suspended' }]).status,
    ).toBe('Progressing');
    expect(
      worstHealth([
        { status: 'Degraded', message: 'x' },
        { status: 'Missing' },
      ]),
    ).toEqual({ status: 'Degraded', message: 'x' });
    expect(
      worstHealth([{ status: 'Degraded' }, { status: 'Unknown' }]).status,
    ).toBe('Unknown');
  });

  it('matches Kubernetes label selectors', () => {
    const labels = { 'refplat.org/team': 'alpha', 'refplat.org/stage': 'dev' };
    expect(
      matchesLabelSelector(
        labels,
        'refplat.org/team=alpha,refplat.org/stage==dev',
      ),
    ).toBe(true);
    expect(matchesLabelSelector(labels, 'refplat.org/team!=alpha')).toBe(false);
    expect(
      matchesLabelSelector(labels, 'refplat.org/stage in (dev, test)'),
    ).toBe(true);
    expect(matchesLabelSelector(labels, 'refplat.org/stage notin (dev)')).toBe(
      false,
    );
    expect(
      matchesLabelSelector(labels, 'refplat.org/team,!refplat.org/product'),
    ).toBe(true);
  });
});
