import { diagnose } from '../diagnose';
import { ago, PR, urls, labels, input } from '../__testUtils__/diagnosisInput';

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
