import type { Diagnosis } from '../diagnosis/diagnose';
import type { Ladder, LadderServiceCell } from './types';
import { cellBrief, detailsLeftOut, summarizeLadder } from './summary';

const STUCK: Diagnosis = {
  state: 'stuck',
  code: 'hop-stalled',
  lastCompletedStep: 'ArgoCD synced the new Release',
  likelyCause: 'The image cannot be pulled',
  whereToLook: [{ label: 'Pods', url: 'https://argocd.example/pods' }],
  hops: [
    { hop: 'registry', mark: 'completed' },
    { hop: 'image-pull', mark: 'stalled', evidence: 'manifest unknown', lookAt: { kind: 'kubectl', text: 'kubectl describe pod x' } },
  ],
};

const cell = (overrides: Partial<LadderServiceCell> = {}): LadderServiceCell => ({
  digest: `sha256:${'a'.repeat(64)}`,
  declared: true,
  healthy: false,
  verdict: 'unhealthy',
  reasons: ['image pull failing'],
  runningDigests: [],
  waitingToClimb: true,
  checks: [
    { id: 'application', ok: true, detail: 'Synced', verdict: 'healthy' },
    { id: 'image', ok: false, detail: 'not running', verdict: 'unhealthy' },
    { id: 'rollout', ok: undefined, detail: 'unknown', verdict: 'unknown' },
  ],
  checklist: [
    { gate: 'declared', ok: true, detail: 'declared' },
    { gate: 'health', ok: false, detail: 'unhealthy in dev' },
    { gate: 'approval', ok: true, detail: 'no approval needed' },
    { gate: 'carried', ok: false, detail: 'already there' },
  ],
  diagnosis: STUCK,
  ...overrides,
});

const ladderOf = (services: Record<string, LadderServiceCell>): Ladder => ({
  team: 'alpha',
  product: 'shop',
  services: Object.keys(services),
  stages: [
    {
      name: 'dev',
      requiresApproval: false,
      healthy: false,
      verdict: 'unhealthy',
      reasons: [],
      services,
      release: { path: 'r' },
      environment: { path: 'e', declaredServices: Object.keys(services) },
    },
  ],
  promotions: [],
  revision: 'abc',
  generatedAt: '2026-12-06T10:00:00Z',
});

describe('summarizeLadder', () => {
  it("leaves out checks, checklist, diagnosis and what the table does not draw, and keeps the rest with a brief", () => {
    const undrawn = {
      rolloutHealth: { status: 'Degraded' as const, message: 'ProgressDeadlineExceeded' },
      healthySince: '2026-12-06T09:00:00Z',
      arrivedAt: '2026-12-06T08:59:00Z',
    };
    const full = ladderOf({
      storefront: cell(undrawn),
      cart: cell({ checks: undefined, checklist: undefined, diagnosis: undefined }),
    });
    const summary = summarizeLadder(full);
    const storefront = summary.stages[0].services.storefront;
    for (const left of ['checks', 'checklist', 'diagnosis', ...Object.keys(undrawn)]) {
      expect(storefront).not.toHaveProperty(left);
    }
    const { checks, checklist, diagnosis, rolloutHealth, healthySince, arrivedAt, ...kept } = full.stages[0].services.storefront;
    expect(storefront).toEqual({ ...kept, brief: cellBrief(full.stages[0].services.storefront) });
    // Nothing to say: an empty brief, read as none.
    expect(summary.stages[0].services.cart.brief).toEqual({});
    expect(cellBrief(summary.stages[0].services.cart)).toEqual({ failingChecks: 0, blockingGates: [], otherGates: 0 });
    expect({ ...summary, stages: [] }).toEqual({ ...full, stages: [] });
    // The full ladder itself is untouched: it is shared by every viewer of the Product.
    expect(full.stages[0].services.storefront.checks).toHaveLength(3);
  });

  it('tells a summary cell from a full one', () => {
    const full = ladderOf({ storefront: cell() });
    expect(detailsLeftOut(full.stages[0].services.storefront)).toBe(false);
    expect(detailsLeftOut(summarizeLadder(full).stages[0].services.storefront)).toBe(true);
  });
});

describe('cellBrief', () => {
  it('counts the failing checks, keeps the blocking gates and counts the others', () => {
    expect(cellBrief(cell())).toMatchObject({
      failingChecks: 1,
      blockingGates: [{ gate: 'health', ok: false, detail: 'unhealthy in dev' }],
      otherGates: 3,
    });
  });

  it("keeps a diagnosis that is not ok: its state, cause and deciding hop, without where to look", () => {
    expect(cellBrief(cell()).diagnosis).toEqual({
      state: 'stuck',
      code: 'hop-stalled',
      likelyCause: 'The image cannot be pulled',
      decidingHop: { hop: 'image-pull', mark: 'stalled', evidence: 'manifest unknown' },
    });
    const ok: Diagnosis = { ...STUCK, state: 'ok', code: 'healthy', hops: undefined };
    expect(cellBrief(cell({ diagnosis: ok })).diagnosis).toBeUndefined();
  });

  it("answers a summary cell's own brief", () => {
    const brief = { failingChecks: 2, otherGates: 9 };
    expect(cellBrief(cell({ brief }))).toEqual({ ...brief, blockingGates: [] });
  });
});
