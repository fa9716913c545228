import { application, exchange, GIT_REF } from './__testUtils__/exchanges';
import { createConformanceChecker } from './checkExchanges';

const GITHUB_REF = exchange('GET', '/github/repos/refplat/platform/git/ref/heads%2Fmain', { response: GIT_REF });

describe('createConformanceChecker', () => {
  it('loads only the descriptions of the APIs in the recording', () => {
    const githubOnly = createConformanceChecker().check([GITHUB_REF]);
    expect(githubOnly.references).toEqual([expect.stringMatching(/^@octokit\/openapi \S+ \(api.github.com.json, /)]);
    expect(new Set(githubOnly.fieldRows.map(row => row.api))).toEqual(new Set(['github']));
    expect(githubOnly).toMatchObject({ failures: [], counts: { exchanges: 1, judged: 1, fieldResponses: 1 } });
  });

  it('judges GitHub, Argo CD and Kubernetes exchanges of one recording together', () => {
    const conformance = createConformanceChecker().check([
      exchange('GET', '/github/repos/refplat/platform/git/ref/heads%2Fmain', { response: { ...GIT_REF, object: { ...GIT_REF.object, sha: 42 } } }),
      exchange('GET', '/argocd/api/v1/applications?selector=a%3Db', { response: { items: [application()] } }),
      exchange('GET', '/k8s/apis/argoproj.io/v1alpha1/namespaces/argocd/applications?selector=a%3Db', { response: { kind: 'ApplicationList', items: [] } }),
    ]);
    expect(conformance.references).toHaveLength(2);
    expect(conformance.failures.map(f => f.key)).toEqual([
      'github GET /repos/{owner}/{repo}/git/ref/{ref} (git/get-ref) object.sha: the simulator\'s value is integer (…); the real API sends string',
      'kubernetes GET /apis/argoproj.io/v1alpha1/namespaces/{namespace}/applications (listNamespaced argoproj.io/v1alpha1 applications): query selector is not a Kubernetes list parameter',
    ]);
    expect(conformance.operations.map(op => op.operation)).toEqual([
      'argocd GET /api/v1/applications (ApplicationService_List)',
      'github GET /repos/{owner}/{repo}/git/ref/{ref} (git/get-ref)',
      'kubernetes GET /apis/argoproj.io/v1alpha1/namespaces/{namespace}/applications (listNamespaced argoproj.io/v1alpha1 applications)',
    ]);
  });

  it('judges each recording on its own when one checker checks several', () => {
    const checker = createConformanceChecker();
    const argoFile = checker.check([exchange('GET', '/argocd/api/v1/applications', { response: { items: [application()] } })]);
    const githubFile = checker.check([GITHUB_REF, GITHUB_REF]);
    expect(new Set(argoFile.fieldRows.map(row => row.api))).toEqual(new Set(['argocd-swagger', 'application-crd', 'rollout-crd']));
    expect(githubFile.references).toEqual([expect.stringMatching(/^@octokit\/openapi /)]);
    expect(new Set(githubFile.fieldRows.map(row => row.api))).toEqual(new Set(['github']));
    expect(githubFile.counts).toMatchObject({ exchanges: 2, judged: 2 });
    expect(checker.check([GITHUB_REF, GITHUB_REF])).toEqual(githubFile);
  });
});
