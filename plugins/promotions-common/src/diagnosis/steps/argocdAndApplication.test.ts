import { diagnose } from '../diagnose';
import {
  ago,
  PR,
  APP_URL,
  RELEASE_PATH,
  urls,
  labels,
  input,
} from '../__testUtils__/diagnosisInput';

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
});
