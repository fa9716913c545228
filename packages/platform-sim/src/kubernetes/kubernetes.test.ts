import { RunningSim } from '../sim';
import { seedDigest } from '../seed/seedData';
import { customObjectsFor } from '../__testUtils__/kubernetesClient';
import { getJson, startTestSim, stopTestSim } from '../__testUtils__/testSim';

describe('the Kubernetes API through @kubernetes/client-node', () => {
  let sim: RunningSim;
  let customObjects: any;

  beforeAll(async () => {
    sim = await startTestSim();
    customObjects = await customObjectsFor(sim);
  });
  afterAll(() => stopTestSim(sim));

  it('lists Applications cluster-wide with a labelSelector', async () => {
    const list = await customObjects.listClusterCustomObject({
      group: 'argoproj.io',
      version: 'v1alpha1',
      plural: 'applications',
      labelSelector: 'refplat.org/team=alpha,refplat.org/product=shop',
    });
    expect(list.kind).toBe('ApplicationList');
    expect(list.metadata.resourceVersion).toBeTruthy();
    expect(list.items.map((app: any) => app.metadata.name)).toEqual([
      'alpha-shop-dev',
      'alpha-shop-prod',
      'alpha-shop-staging',
      'alpha-shop-test',
      'alpha-shop-uat',
    ]);
    const prod = list.items.find(
      (app: any) => app.metadata.name === 'alpha-shop-prod',
    );
    expect(prod.metadata.namespace).toBe('argocd');
    expect(prod.status.sync.status).toBe('Synced');
    expect(prod.status.health.status).toBe('Healthy');
  });

  it('lists namespaced Applications and gets a Rollout', async () => {
    const list = await customObjects.listNamespacedCustomObject({
      group: 'argoproj.io',
      version: 'v1alpha1',
      namespace: 'argocd',
      plural: 'applications',
      labelSelector: 'refplat.org/stage=prod',
    });
    expect(list.items.map((app: any) => app.metadata.name)).toEqual([
      'alpha-shop-prod',
      'beta-payments-prod',
    ]);

    const rollout = await customObjects.getNamespacedCustomObject({
      group: 'argoproj.io',
      version: 'v1alpha1',
      namespace: 'alpha-shop-prod',
      plural: 'rollouts',
      name: 'cart',
    });
    expect(rollout.kind).toBe('Rollout');
    expect(rollout.status.phase).toBe('Healthy');
    expect(String(rollout.status.observedGeneration)).toBe(
      String(rollout.metadata.generation),
    );
    expect(rollout.status.currentStepIndex).toBe(
      rollout.spec.strategy.canary.steps.length,
    );
    expect(rollout.spec.template.spec.containers[0].image).toBe(
      `registry.refplat.org/team-alpha/shop-cart@${seedDigest('alpha', 'shop', 'cart', 1)}`,
    );
  });

  it('answers a missing Rollout with a NotFound Status and a bad token with 401', async () => {
    const error = await customObjects
      .getNamespacedCustomObject({
        group: 'argoproj.io',
        version: 'v1alpha1',
        namespace: 'alpha-shop-prod',
        plural: 'rollouts',
        name: 'nope',
      })
      .catch((e: any) => e);
    expect(error.code).toBe(404);
    const missing = await getJson(
      `${sim.kubernetesUrl}/apis/argoproj.io/v1alpha1/namespaces/alpha-shop-prod/rollouts/nope`,
      sim.tokens.kubernetes,
    );
    expect(missing.body).toMatchObject({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
    });
    const unauthorized = await getJson(
      `${sim.kubernetesUrl}/apis/argoproj.io/v1alpha1/rollouts`,
      'wrong',
    );
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body).toMatchObject({
      kind: 'Status',
      reason: 'Unauthorized',
      code: 401,
    });
  });

  it('lists Rollouts cluster-wide', async () => {
    const list = await customObjects.listClusterCustomObject({
      group: 'argoproj.io',
      version: 'v1alpha1',
      plural: 'rollouts',
    });
    expect(list.kind).toBe('RolloutList');
    // alpha/shop: 3+3+2+3+3 services, beta/payments: 2 × 5 stages
    expect(list.items).toHaveLength(24);
  });
});
