import { promotionChecklist } from './checklist';
import { NEW, OLD } from './__testUtils__/diagnosisInput';
import {
  cell,
  checks,
  CONTEXT,
  gate,
  GateRow,
  gateOf,
} from './__testUtils__/checklistCells';

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

  it.each<GateRow>([
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
  ])('%s', (_name, source, target, context, gateName, ok, detail) => {
    const item = gateOf(source, target, context, gateName);
    expect(item.ok).toBe(ok);
    expect(item.detail).toContain(detail);
  });

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
