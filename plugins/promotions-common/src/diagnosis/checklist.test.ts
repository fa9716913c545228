import type {
  ServiceHealthCheck,
  ServiceHealthCheckId,
} from '../health/serviceHealth';
import type { LadderServiceCell } from '../ladder/types';
import { PromotionChecklistContext, promotionChecklist } from './checklist';
import type { PromotionChecklistItem, PromotionGate } from './checklistItem';

const d = (c: string) => `sha256:${c.repeat(64)}`;
const NEW = d('a');
const OLD = d('b');
const PR = 'https://github.com/asanexample/platform/pull/7';

const IDS: ServiceHealthCheckId[] = [
  'application',
  'sync',
  'revision',
  'reconciled',
  'app-health',
  'rollout',
  'image',
];

function checks(
  failing: Partial<Record<ServiceHealthCheckId, string>> = {},
): ServiceHealthCheck[] {
  return IDS.map(id =>
    failing[id]
      ? { id, ok: false, detail: failing[id]!, verdict: 'unhealthy' }
      : { id, ok: true, detail: `${id} holds`, verdict: 'healthy' },
  );
}

function cell(overrides: Partial<LadderServiceCell> = {}): LadderServiceCell {
  return {
    digest: NEW,
    declared: true,
    healthy: true,
    verdict: 'healthy',
    reasons: [],
    checks: checks(),
    runningDigests: [NEW],
    waitingToClimb: false,
    soakRemainingSeconds: 0,
    ...overrides,
  };
}

const CONTEXT: PromotionChecklistContext = {
  fromStage: 'staging',
  toStage: 'prod',
  requiresApproval: true,
  approvers: ['group:default/alpha-release-approvers'],
};

function gate(
  items: PromotionChecklistItem[],
  name: PromotionGate,
): PromotionChecklistItem {
  const item = items.find(i => i.gate === name);
  if (!item) throw new Error(`no ${name} gate`);
  return item;
}

describe('promotionChecklist', () => {
  it('lists every gate once, in a fixed order, all ok when the promotion can go', () => {
    const items = promotionChecklist(
      cell(),
      cell({ digest: OLD, runningDigests: [OLD] }),
      CONTEXT,
    );
    expect(items.map(i => i.gate)).toEqual([
      'declared',
      'released',
      'health',
      'running-digest',
      'soak',
      'hold',
      'open-promotion',
      'approval',
      'carried',
    ]);
    expect(items.filter(i => !i.ok)).toEqual([]);
    expect(gate(items, 'released').detail).toBe(
      'Released in staging: sha256:aaaaaaaaaaaa…',
    );
    expect(gate(items, 'health').detail).toBe('Synced and Healthy in staging');
    expect(gate(items, 'running-digest').detail).toBe('image holds');
    expect(gate(items, 'carried').detail).toBe(
      'prod has sha256:bbbbbbbbbbbb…; the promotion writes sha256:aaaaaaaaaaaa…',
    );
  });

  it.each<
    [
      string,
      Partial<LadderServiceCell> | undefined,
      Partial<LadderServiceCell> | null, // null: no target cell at all
      Partial<PromotionChecklistContext>,
      PromotionGate,
      boolean,
      string,
    ]
  >([
    [
      'target not declared',
      undefined,
      { declared: false, digest: undefined },
      {},
      'declared',
      false,
      "prod's Environment does not declare it",
    ],
    [
      'target cell absent',
      undefined,
      null,
      {},
      'declared',
      false,
      'does not declare it',
    ],
    [
      'target declared',
      undefined,
      {},
      {},
      'declared',
      true,
      "prod's Environment declares it",
    ],
    [
      'not released in the source',
      { digest: undefined },
      {},
      {},
      'released',
      false,
      'Not released in staging: nothing to promote',
    ],
    [
      'source unhealthy (checks)',
      {
        healthy: false,
        verdict: 'unhealthy',
        checks: checks({
          'app-health': 'Application alpha-shop-staging is Degraded',
        }),
      },
      {},
      {},
      'health',
      false,
      'Not healthy in staging: Application alpha-shop-staging is Degraded',
    ],
    [
      'source check unknown',
      {
        checks: checks().map(c =>
          c.id === 'reconciled'
            ? {
                ...c,
                ok: undefined,
                verdict: 'unknown' as const,
                detail: 'not refreshed',
              }
            : c,
        ),
      },
      {},
      {},
      'health',
      false,
      'not refreshed',
    ],
    [
      'image check alone does not fail health',
      {
        checks: checks({
          image: 'Running sha256:bbbb but the Release names sha256:aaaa',
        }),
      },
      {},
      {},
      'health',
      true,
      'Synced and Healthy in staging',
    ],
    [
      'running another digest (checks)',
      {
        checks: checks({
          image: 'Running sha256:bbbb but the Release names sha256:aaaa',
        }),
      },
      {},
      {},
      'running-digest',
      false,
      'Running sha256:bbbb but the Release names sha256:aaaa',
    ],
    [
      'no checks: health from reasons',
      {
        checks: undefined,
        healthy: false,
        verdict: 'progressing',
        reasons: ['canary paused'],
      },
      {},
      {},
      'health',
      false,
      'Not healthy in staging: canary paused',
    ],
    [
      'no checks: unknown health',
      {
        checks: undefined,
        healthy: false,
        verdict: 'unknown',
        reasons: ['ArgoCD unreachable'],
      },
      {},
      {},
      'health',
      false,
      'Health unknown in staging: ArgoCD unreachable',
    ],
    [
      'no checks: healthy',
      { checks: undefined },
      {},
      {},
      'health',
      true,
      'Healthy in staging',
    ],
    [
      'no checks: running digest matches',
      { checks: undefined },
      {},
      {},
      'running-digest',
      true,
      'staging runs the released sha256:aaaaaaaaaaaa…',
    ],
    [
      'no checks: running another digest',
      { checks: undefined, runningDigests: [OLD] },
      {},
      {},
      'running-digest',
      false,
      'staging runs sha256:bbbbbbbbbbbb…, not the released sha256:aaaaaaaaaaaa…',
    ],
    [
      'no checks: running nothing',
      { checks: undefined, runningDigests: [] },
      {},
      {},
      'running-digest',
      false,
      'no reported digest',
    ],
    [
      'still soaking',
      { soakRemainingSeconds: 1800 },
      {},
      {},
      'soak',
      false,
      'Soaking in staging: 30m left',
    ],
    [
      'soaking 1s',
      { soakRemainingSeconds: 1 },
      {},
      {},
      'soak',
      false,
      '1s left',
    ],
    [
      'soaked',
      { soakRemainingSeconds: 0 },
      {},
      {},
      'soak',
      true,
      'Soaked in staging',
    ],
    [
      'no soak known',
      { soakRemainingSeconds: undefined },
      {},
      {},
      'soak',
      true,
      'No soak time to wait for in staging',
    ],
    [
      'held in the target',
      undefined,
      {
        hold: {
          stage: 'prod',
          service: 'storefront',
          reason: 'incident INC-12',
          placedBy: 'user:default/sre',
          placedAt: '2025-06-01T10:00:00Z',
        },
      },
      {},
      'hold',
      false,
      'Held in prod by user:default/sre since 2025-06-01T10:00:00Z: incident INC-12',
    ],
    ['no hold', undefined, {}, {}, 'hold', true, 'No hold in prod'],
    [
      'a promotion already open',
      undefined,
      {},
      { openPromotion: { status: 'awaiting-approval', pullRequestUrl: PR } },
      'open-promotion',
      false,
      `A promotion into prod is already awaiting-approval: ${PR}`,
    ],
    [
      'a merged promotion does not block',
      undefined,
      {},
      { openPromotion: { status: 'merged', pullRequestUrl: PR } },
      'open-promotion',
      true,
      'No promotion into prod in flight',
    ],
    [
      'approval needed',
      undefined,
      {},
      { approvers: ['group:default/a', 'group:default/b'] },
      'approval',
      true,
      'prod needs a release-approver: members of a, b',
    ],
    [
      'approval needed, no approvers',
      undefined,
      {},
      { approvers: [] },
      'approval',
      true,
      'no approver group is configured',
    ],
    [
      'no approval',
      undefined,
      {},
      { requiresApproval: false },
      'approval',
      true,
      'prod merges automatically',
    ],
    [
      'already carried',
      undefined,
      { digest: NEW },
      {},
      'carried',
      false,
      'prod already carries sha256:aaaaaaaaaaaa…: nothing to promote',
    ],
    [
      'target has nothing yet',
      undefined,
      { digest: undefined },
      {},
      'carried',
      true,
      'prod has no digest yet',
    ],
  ])(
    '%s',
    (
      _name,
      sourceOverrides,
      targetOverrides,
      context,
      gateName,
      ok,
      detail,
    ) => {
      const source =
        sourceOverrides === undefined ? cell() : cell(sourceOverrides);
      const target =
        targetOverrides === null
          ? undefined
          : cell({ digest: OLD, runningDigests: [OLD], ...targetOverrides });
      const item = gate(
        promotionChecklist(source, target, { ...CONTEXT, ...context }),
        gateName,
      );
      expect(item.ok).toBe(ok);
      expect(item.detail).toContain(detail);
    },
  );

  it('without a source, nothing can be promoted', () => {
    const items = promotionChecklist(undefined, cell({ digest: OLD }), CONTEXT);
    expect(gate(items, 'released')).toEqual({
      gate: 'released',
      ok: false,
      detail: 'Not released in staging: nothing to promote',
    });
    expect(gate(items, 'health').ok).toBe(false);
    expect(gate(items, 'running-digest').ok).toBe(false);
    expect(gate(items, 'carried').ok).toBe(true);
    expect(gate(items, 'approval').ok).toBe(true);
  });

  it('compares digests case-insensitively', () => {
    const items = promotionChecklist(
      cell({
        checks: undefined,
        runningDigests: [NEW.toUpperCase().replace('SHA256', 'sha256')],
      }),
      cell({ digest: NEW.toUpperCase().replace('SHA256', 'sha256') }),
      CONTEXT,
    );
    expect(gate(items, 'running-digest').ok).toBe(true);
    expect(gate(items, 'carried').ok).toBe(false);
  });
});
