import type { Rollout } from '../argo/types';
import { loadFixture } from '../__testUtils__/fixtures';
import { evaluateServiceHealth } from './serviceHealth';
import {
  SERVICE,
  RELEASED,
  OLD,
  image,
  EVERY_CHECK,
  syntheticApp,
  rolloutEntry,
  input,
  failing,
} from './__testUtils__/serviceHealthInput';

describe('evaluateServiceHealth: the all-good case', () => {
  it('synthetic: Synced, carries the Release, reconciled, Healthy app and Rollout, released digest running → healthy', () => {
    const health = evaluateServiceHealth(SERVICE, input());
    expect(health.verdict).toBe('healthy');
    expect(health.healthy).toBe(true);
    expect(health.reasons).toEqual([]);
    expect(health.checks.map(c => [c.id, c.ok])).toEqual(
      EVERY_CHECK.map(id => [id, true]),
    );
    expect(health.runningDigests).toEqual([RELEASED]);
    expect(health.rolloutHealth).toEqual({ status: 'Healthy' });
    expect(health.canary).toBeUndefined();
  });

  it('synthetic: with the live completed Rollout (healthy_executedAllSteps) → healthy, canary complete', () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        rollout: loadFixture<Rollout>('rollout-canary-healthy-completed.yaml'),
      }),
    );
    expect(health.verdict).toBe('healthy');
    expect(health.canary).toMatchObject({
      complete: true,
      weight: 100,
      phase: 'Healthy',
    });
    expect(health.checks.find(c => c.id === 'rollout')!.detail).toBe(
      'Canary complete: all 4 steps done',
    );
  });

  it('synthetic: timestamps parsed as Date objects (YAML 1.1) → healthy', () => {
    const app = loadFixture<any>('argocd-app-synced-healthy.yaml', 'yaml-1.1');
    const base: any = syntheticApp();
    base.status.reconciledAt = new Date(String(app.status.reconciledAt));
    base.status.operationState.finishedAt = new Date(
      String(app.status.operationState.finishedAt),
    );
    expect(
      evaluateServiceHealth(SERVICE, input({ application: base })).verdict,
    ).toBe('healthy');
  });
});

/**
 * A neighbour's change or failure seen at the Application level, while storefront's own Rollout is
 * Healthy, its Release applied and only its released digest running: storefront stays healthy.
 */
const neighbourCases: { name: string; mutate: (app: any) => void }[] = [
  {
    name: "Application Degraded by cart's aborted canary",
    mutate: a => {
      a.status.health = { status: 'Degraded', message: 'Rollout is aborted' };
      a.status.resources.push({
        ...rolloutEntry(a),
        name: 'cart',
        health: { status: 'Degraded' },
      });
    },
  },
  {
    name: "Application Progressing while cart's canary runs",
    mutate: a => {
      a.status.health = { status: 'Progressing' };
      a.status.resources.push({
        ...rolloutEntry(a),
        name: 'cart',
        health: { status: 'Progressing' },
      });
    },
  },
  {
    name: "Application OutOfSync because cart's digest changed",
    mutate: a => {
      a.status.sync.status = 'OutOfSync';
      a.status.resources.push({
        ...rolloutEntry(a),
        name: 'cart',
        status: 'OutOfSync',
      });
    },
  },
  {
    name: "sync operation Running for cart's new digest",
    mutate: a => {
      a.status.operationState.phase = 'Running';
      a.status.operationState.message =
        'waiting for healthy state of argoproj.io/Rollout/cart';
      delete a.status.operationState.finishedAt;
    },
  },
  {
    name: "not refreshed since cart's sync finished",
    mutate: a => (a.status.reconciledAt = '2024-03-05T07:33:00Z'),
  },
];

describe('evaluateServiceHealth: each service tells its own truth', () => {
  it.each(neighbourCases.map(c => [c.name, c] as const))(
    '%s → storefront healthy',
    (_name, c) => {
      const health = evaluateServiceHealth(
        SERVICE,
        input({ application: syntheticApp(c.mutate) }),
      );
      expect(health.reasons).toEqual([]);
      expect(health.verdict).toBe('healthy');
    },
  );

  it.each(neighbourCases.map(c => [c.name, c] as const))(
    '%s, storefront still running its previous digest → not healthy',
    (_name, c) => {
      const health = evaluateServiceHealth(
        SERVICE,
        input({
          application: syntheticApp(a => {
            c.mutate(a);
            a.status.summary.images = [image(OLD)];
          }),
        }),
      );
      expect(health.healthy).toBe(false);
      expect(failing(health)).toContain('image');
    },
  );

  it("an OutOfSync Application whose OutOfSync resource is this service's Rollout holds it back", () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        application: syntheticApp(a => {
          a.status.sync.status = 'OutOfSync';
          rolloutEntry(a).status = 'OutOfSync';
        }),
      }),
    );
    expect(health.verdict).toBe('progressing');
    expect(failing(health)).toEqual(['sync']);
  });

  it("an OutOfSync Application that no other service's Rollout explains holds every service back", () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        application: syntheticApp(a => (a.status.sync.status = 'OutOfSync')),
      }),
    );
    expect(health.verdict).toBe('progressing');
    expect(failing(health)).toEqual(['sync']);
  });

  it("an Application Degraded that no other service's Rollout explains counts for every service", () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        application: syntheticApp(
          a => (a.status.health = { status: 'Degraded' }),
        ),
      }),
    );
    expect(health.verdict).toBe('unhealthy');
    expect(failing(health)).toEqual(['app-health']);
  });

  it("the Application's health decides when the Rollout's is unknown", () => {
    const health = evaluateServiceHealth(
      SERVICE,
      input({
        application: syntheticApp(a => {
          a.status.health = { status: 'Degraded' };
          a.status.resources = a.status.resources.filter(
            (r: any) => r.kind !== 'Rollout',
          );
        }),
      }),
    );
    expect(health.verdict).toBe('unhealthy');
    expect(failing(health)).toEqual(['app-health', 'rollout']);
  });
});
