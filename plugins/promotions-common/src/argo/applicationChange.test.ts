import { applicationChangeMatters } from './applicationChange';
import type { Application } from './types';

const base: Application = {
  metadata: { name: 'shop-dev', resourceVersion: '10' },
  status: {
    health: { status: 'Healthy' },
    sync: { status: 'Synced', revision: 'a1' },
    operationState: { phase: 'Succeeded' },
    summary: { images: ['registry/storefront@sha256:1'] },
    reconciledAt: '2026-01-01T00:00:00Z',
  },
};

function changed(mutate: (app: any) => void): Application {
  const copy = structuredClone(base);
  mutate(copy);
  return copy;
}

describe('applicationChangeMatters', () => {
  it.each([
    ['appeared', undefined, base, true],
    ['went away', base, undefined, true],
    ['neither known', undefined, undefined, false],
    ['nothing changed', base, structuredClone(base), false],
    [
      'reconciledAt, observedAt and resourceVersion only',
      base,
      changed(app => {
        app.status.reconciledAt = '2026-01-01T00:01:00Z';
        app.status.observedAt = '2026-01-01T00:01:00Z';
        app.metadata.resourceVersion = '11';
      }),
      false,
    ],
    ['health', base, changed(app => (app.status.health.status = 'Degraded')), true],
    ['health message only', base, changed(app => (app.status.health.message = 'slow')), false],
    ['sync status', base, changed(app => (app.status.sync.status = 'OutOfSync')), true],
    ['synced revision', base, changed(app => (app.status.sync.revision = 'b2')), true],
    [
      'multi-source revisions',
      changed(app => (app.status.sync = { status: 'Synced', revisions: ['a1', 'c3'] })),
      changed(app => (app.status.sync = { status: 'Synced', revisions: ['a1', 'c4'] })),
      true,
    ],
    ['operation phase', base, changed(app => (app.status.operationState.phase = 'Running')), true],
    ['operation started', changed(app => delete app.status.operationState), base, true],
    [
      'running images',
      base,
      changed(app => (app.status.summary.images = ['registry/storefront@sha256:2'])),
      true,
    ],
  ])('%s', (_what, before, after, matters) => {
    expect(applicationChangeMatters(before, after)).toBe(matters);
  });
});
