import { application, exchange, rollout, SHA } from '../__testUtils__/exchanges';
import { createArgoCdChecker } from '../checks/argocd';
import { createCrdValidator } from '../checks/crd';
import { createGithubChecker } from '../checks/github';
import { createKubernetesChecker } from '../checks/kubernetes';
import { createFieldChecker } from './fieldChecker';

const github = createGithubChecker();
const crds = { application: createCrdValidator('application-crd.yaml'), rollout: createCrdValidator('rollout-crd.yaml') };
const argocd = createArgoCdChecker(crds);
const kubernetes = createKubernetesChecker(crds);
const fields = createFieldChecker({ github, argocdSwagger: argocd.swagger, ...crds });

describe('the fields the product reads', () => {
  it('exist in the real descriptions, except those read with a fallback', () => {
    const missing = fields.rows.filter(row => !row.found && !row.tolerant).map(row => `${row.api} ${row.op} ${row.field}`);
    expect(missing).toEqual([]);
  });

  it('are marked as read with a fallback only where the real description lacks them', () => {
    const needlesslyTolerant = fields.rows.filter(row => row.found && row.tolerant).map(row => `${row.api} ${row.op} ${row.field}`);
    expect(needlesslyTolerant).toEqual([]);
  });
});

describe('the simulator values of read fields', () => {
  const REPO = '/github/repos/refplat/platform';
  const pull = (overrides: Record<string, unknown>) =>
    github.check(exchange('GET', `${REPO}/pulls/7`, { response: { number: 7, html_url: 'https://github.com/refplat/platform/pull/7', state: 'open', merged: false, merged_at: null, merged_by: null, head: { sha: SHA, ref: 'promotions/x' }, body: null, mergeable: null, ...overrides } }));

  it.each([
    ['GitHub null where the description allows it', pull({}), []],
    ['a number where GitHub sends a date-time string', pull({ merged_at: 1764500000 }), ['merged_at is integer (1764500000); the real API sends string']],
    ['a date that is not a date-time', pull({ merged_at: '30/11/2026' }), ['merged_at is "30/11/2026", not a date-time']],
    ['a state GitHub never sends', pull({ state: 'merged' }), ['state is "merged"; the real API sends one of ["open","closed"]']],
    ['null where GitHub always sends a value', pull({ number: null }), ['number is null; the real API never sends null here']],
    ['a field GitHub always sends left out', pull({ head: { ref: 'promotions/x' } }), ['head.sha is missing; the real API always sends it']],
  ])('%s', (_name, result, problems) => {
    expect((fields.check(result) ?? []).map(p => `${p.at} ${p.problem}`)).toEqual(problems);
  });

  it('treat an Argo CD or Kubernetes null as an absent field, and check each Application and the live Rollout', () => {
    const list = argocd.check(exchange('GET', '/argocd/api/v1/applications?selector=x', { response: { items: [application({ reconciledAt: null }), application({ reconciledAt: 'yesterday' })] } }));
    expect(fields.check(list)!.map(p => `${p.at} ${p.problem}`)).toEqual(['items[1].status.reconciledAt is "yesterday", not a date-time']);
    const live = kubernetes.check(exchange('GET', '/k8s/apis/argoproj.io/v1alpha1/namespaces/n/rollouts/storefront', { response: rollout({ currentStepIndex: '1' }) }));
    expect(fields.check(live)!.map(p => `${p.at} ${p.problem}`)).toEqual(['status.currentStepIndex is string ("1"); the real API sends integer']);
  });

  it('check the Argo CD 3 resource tree and every Rollout of a Kubernetes list', () => {
    const tree = argocd.check(
      exchange('GET', '/argocd/api/v1/applications/alpha-shop-dev/resource-tree?appNamespace=argocd', {
        response: { nodes: [{ group: 'argoproj.io', version: 'v1alpha1', kind: 'Rollout', namespace: 'alpha-shop-dev', name: 'storefront', uid: 'u1', health: { status: 'Healthy' } }, { kind: 'Service', name: 'storefront', health: 'Healthy' }] },
      }),
    );
    expect(tree.operationId).toBe('ApplicationService_ResourceTree');
    expect(fields.check(tree)!.map(p => `${p.at} ${p.problem}`)).toEqual(['nodes[1].health is string ("Healthy"); the real API sends object']);
    const list = kubernetes.check(
      exchange('GET', '/k8s/apis/argoproj.io/v1alpha1/namespaces/alpha-shop-dev/rollouts', { response: { kind: 'RolloutList', items: [rollout(), rollout({ abort: 'yes' })] } }),
    );
    expect(fields.check(list)!.map(p => `${p.at} ${p.problem}`)).toEqual(['items[1].status.abort is string ("yes"); the real API sends boolean']);
  });

  it('are not judged in answers the product does not read', () => {
    expect(fields.check(github.check(exchange('POST', `${REPO}/statuses/${SHA}`, { status: 201, request: { state: 'success' }, response: {} })))).toBeUndefined();
    expect(fields.check(github.check(exchange('GET', `${REPO}/pulls/7`, { status: 404, response: { message: 'Not Found' } })))).toBeUndefined();
  });
});
