import {
  evaluateServiceHealth,
  evaluateStageHealth,
  HealthVerdict,
  ServiceHealth,
  worstVerdict,
} from './serviceHealth';
import {
  SERVICE,
  OLD,
  image,
  syntheticApp,
  input,
} from './__testUtils__/serviceHealthInput';

describe('evaluateStageHealth', () => {
  const healthy = evaluateServiceHealth(SERVICE, input());
  const progressing = evaluateServiceHealth(
    SERVICE,
    input({
      application: syntheticApp(a => {
        a.status.sync.status = 'OutOfSync';
        a.status.summary.images = [image(OLD)];
      }),
    }),
  );
  const unknown = evaluateServiceHealth(
    SERVICE,
    input({ applicationLookupError: 'timeout' }),
  );
  const unhealthy = evaluateServiceHealth(
    SERVICE,
    input({
      application: syntheticApp(a => (a.status.summary.images = [image(OLD)])),
    }),
  );

  it.each<[string, Record<string, ServiceHealth>, HealthVerdict]>([
    ['all healthy', { storefront: healthy, cart: healthy }, 'healthy'],
    [
      'one progressing',
      { storefront: healthy, cart: progressing },
      'progressing',
    ],
    [
      'unknown beats progressing',
      { storefront: unknown, cart: progressing },
      'unknown',
    ],
    [
      'unhealthy beats unknown',
      { storefront: unknown, cart: unhealthy },
      'unhealthy',
    ],
    ['no services', {}, 'unknown'],
  ])('%s', (_name, services, verdict) => {
    const stage = evaluateStageHealth(services);
    expect(stage.verdict).toBe(verdict);
    expect(stage.healthy).toBe(verdict === 'healthy');
  });

  it('prefixes reasons with the service and gives a shared reason once', () => {
    const stage = evaluateStageHealth({
      storefront: unknown,
      cart: unknown,
      web: healthy,
    });
    expect(stage.reasons).toEqual([
      'storefront, cart: ArgoCD unreachable: timeout',
    ]);
    expect(stage.services).toEqual({
      storefront: 'unknown',
      cart: 'unknown',
      web: 'healthy',
    });
  });

  it('keeps each service’s own reasons', () => {
    const stage = evaluateStageHealth({ storefront: healthy, cart: unhealthy });
    expect(stage.reasons).toEqual([
      'cart: Running sha256:aaaabbbbbbbb… but the Release names sha256:ddddeeeeeeee…',
    ]);
  });

  it('worstVerdict orders healthy < progressing < unknown < unhealthy', () => {
    expect(worstVerdict(['healthy', 'progressing'])).toBe('progressing');
    expect(worstVerdict(['unhealthy', 'unknown', 'healthy'])).toBe('unhealthy');
    expect(worstVerdict([])).toBe('unknown');
  });
});
