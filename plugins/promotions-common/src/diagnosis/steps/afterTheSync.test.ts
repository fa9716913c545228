import { diagnose } from '../diagnose';
import {
  NEW,
  OLD,
  PR,
  APP_URL,
  RELEASE_PATH,
  urls,
  labels,
  input,
  ago,
} from '../__testUtils__/diagnosisInput';

describe('diagnose: ArgoCD and the Application', () => {
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

  it("is not stuck while the Release changed lately and no sync finished since: ArgoCD read the merge and has not synced it (a restore's merge one second later)", () => {
    const result = diagnose(
      input({
        promotion: null,
        releaseChangedAt: ago(1),
        runningDigests: [OLD],
        application: { reconciledAt: ago(0), operationFinishedAt: ago(3500) },
      }),
    );
    expect(result).toMatchObject({ state: 'in-progress', code: 'merged-out-of-sync' });
    expect(result.likelyCause).toBe(
      'ArgoCD has not synced the new Release yet (it changed 1s ago, and storefront still runs the digest before it); it usually does within a few minutes.',
    );
  });

  it('is the wrong digest once the Release changed longer ago than the sync threshold, though no sync finished since', () => {
    const result = diagnose(
      input({
        promotion: null,
        releaseChangedAt: ago(301),
        runningDigests: [OLD],
        application: { reconciledAt: ago(0), operationFinishedAt: ago(3500) },
      }),
    );
    expect(result).toMatchObject({ state: 'stuck', code: 'wrong-digest-running' });
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
