import { ConfigReader } from '@backstage/config';
import type { Ladder } from '@refplat/plugin-promotions-common';
import { ManualClock } from '@refplat/plugin-promotions-node/testUtils';
import { mockCache, mockLogger } from '../__testUtils__/lightServices';
import { readPromotionsConfig } from '../config';
import type { ApplicationListing, ClusterEvidence, ObservedApplication } from '../health/HealthSource';
import { LadderDiagnosis } from './LadderDiagnosis';

const config = readPromotionsConfig(
  new ConfigReader({ promotions: { platformRepo: { owner: 'platform', repo: 'gitops' }, stages: ['dev', 'prod'] } }),
);
const DIGEST = `sha256:${'b'.repeat(64)}`;

/** alpha/shop with dev rolling storefront out (progressing) and prod healthy. */
function ladder(): Ladder {
  const stage = (name: string, verdict: 'progressing' | 'healthy') => ({
    name,
    release: { path: `releases/alpha/shop/${name}.yaml` },
    application: { name: `alpha-shop-${name}`, source: 'argocd', syncStatus: 'Synced', healthStatus: 'Progressing' },
    services: { storefront: { digest: DIGEST, verdict, healthy: verdict === 'healthy', reasons: [], runningDigests: [DIGEST] } },
  });
  return { team: 'alpha', product: 'shop', promotions: [], stages: [stage('dev', 'progressing'), stage('prod', 'healthy')] } as unknown as Ladder;
}

const listing = {
  applications: ['dev', 'prod'].map(stage => ({ application: { metadata: { name: `alpha-shop-${stage}` } }, source: 'argocd' })),
} as unknown as ApplicationListing;

const denied: ClusterEvidence = {
  namespace: 'alpha-shop-dev',
  workload: 'storefront',
  events: [
    {
      involvedObject: { kind: 'ReplicaSet', name: 'storefront-7d9f', namespace: 'alpha-shop-dev' },
      reason: 'FailedCreate',
      type: 'Warning',
      message:
        'Error creating: admission webhook "mutate.kyverno.svc-fail" denied the request: \n\nresource Pod/alpha-shop-dev/ was blocked due to the following policies \n\nverify-image:\n  check-signature: \'failed to verify image\'\n',
      lastTimestamp: '2026-12-01T09:59:00Z',
    },
  ],
};

function diagnosisWith(hopEvidence: jest.Mock, evidenceArrived = jest.fn()) {
  const diagnosis = new LadderDiagnosis({
    config,
    cache: mockCache(),
    logger: mockLogger(),
    clock: new ManualClock('2026-12-01T10:00:00Z'),
    hopEvidence,
    evidenceBudgetMs: 50,
    evidenceArrived,
  });
  return { diagnosis, evidenceArrived };
}

describe('LadderDiagnosis and the hops', () => {
  it('reads the evidence of the cells that are not healthy only, and names the stalled hop', async () => {
    const hopEvidence = jest.fn(async (_observed: ObservedApplication, _service: string) => denied);
    const { diagnosis, evidenceArrived } = diagnosisWith(hopEvidence);
    const annotated = ladder();

    await diagnosis.annotate(annotated, listing);

    expect(hopEvidence).toHaveBeenCalledTimes(1);
    expect(hopEvidence.mock.calls[0][0]).toMatchObject({ application: { metadata: { name: 'alpha-shop-dev' } } });
    const dev = annotated.stages[0].services.storefront.diagnosis!;
    expect(dev).toMatchObject({ code: 'hop-stalled', state: 'stuck' });
    expect(dev.hops?.find(hop => hop.mark === 'stalled')).toMatchObject({ hop: 'admission' });
    expect(annotated.stages[1].services.storefront.diagnosis?.hops).toBeUndefined();
    expect(evidenceArrived).not.toHaveBeenCalled();
  });

  it('answers without evidence slower than its budget, and says when it arrives', async () => {
    let arrive: (evidence: ClusterEvidence) => void = () => undefined;
    const hopEvidence = jest.fn(() => new Promise<ClusterEvidence>(resolve => (arrive = resolve)));
    const { diagnosis, evidenceArrived } = diagnosisWith(hopEvidence);
    const annotated = ladder();

    await diagnosis.annotate(annotated, listing);

    expect(annotated.stages[0].services.storefront.diagnosis?.hops).toBeUndefined();
    expect(evidenceArrived).not.toHaveBeenCalled();
    arrive(denied);
    await new Promise(setImmediate);
    expect(evidenceArrived).toHaveBeenCalledWith(expect.objectContaining({ team: 'alpha', product: 'shop' }));
  });
});
