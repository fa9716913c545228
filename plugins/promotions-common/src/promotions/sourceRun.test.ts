import { CellSpec, d, stage } from '../__testUtils__/ladders';
import { SourceRun, notHealthyReason, sourceRun } from './sourceRun';

describe('sourceRun', () => {
  it.each<[string, Record<string, CellSpec>, SourceRun]>([
    ['runs the digest healthy', { api: { digest: d('a') } }, { state: 'runs-healthy' }],
    ['names another digest now', { api: { digest: d('b') } }, { state: 'moved-on', digest: d('b') }],
    ['no longer releases the service', { api: {} }, { state: 'moved-on', digest: undefined }],
    ['does not have the service at all', { web: { digest: d('a') } }, { state: 'moved-on', digest: undefined }],
    [
      'runs the digest while it progresses',
      { api: { digest: d('a'), verdict: 'progressing', reasons: ['Rollout at 20%', 'OutOfSync'] } },
      { state: 'not-healthy-yet', verdict: 'progressing', reasons: ['Rollout at 20%', 'OutOfSync'] },
    ],
    [
      'runs the digest, its health unknown',
      { api: { digest: d('a'), verdict: 'unknown', reasons: [] } },
      { state: 'not-healthy-yet', verdict: 'unknown', reasons: [] },
    ],
    [
      'runs the digest unhealthy',
      { api: { digest: d('a'), verdict: 'unhealthy', reasons: ['Degraded'] } },
      { state: 'unhealthy', verdict: 'unhealthy', reasons: ['Degraded'] },
    ],
    [
      'names another digest that is also unhealthy (moving on comes first)',
      { api: { digest: d('b'), verdict: 'unhealthy' } },
      { state: 'moved-on', digest: d('b') },
    ],
  ])("when dev %s, says so of api's digest a", (_name, cells, expected) => {
    expect(sourceRun(stage('dev', cells), 'api', d('a'))).toEqual(expected);
  });
});

describe('notHealthyReason', () => {
  it.each([
    ['progressing', 'Rollout at 20%', 'api is not healthy in dev: Rollout at 20%'],
    ['unhealthy', 'Degraded', 'api is not healthy in dev: Degraded'],
    ['unknown', 'ArgoCD unreachable', "api's health in dev is unknown: ArgoCD unreachable"],
    ['unknown', undefined, "api's health in dev is unknown"],
    ['progressing', '', 'api is not healthy in dev'],
  ] as const)('for a %s source with the detail %p says %p', (verdict, detail, reason) => {
    expect(notHealthyReason('api', 'dev', verdict, detail)).toBe(reason);
  });
});
