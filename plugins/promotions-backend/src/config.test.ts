import { ConfigReader } from '@backstage/config';
import { readPromotionsConfig } from './config';

const base = { platformRepo: { owner: 'o', repo: 'r' } };

describe('readPromotionsConfig', () => {
  it('applies the contract defaults', () => {
    const config = readPromotionsConfig(new ConfigReader({ promotions: base }));
    expect(config.stages).toEqual(['dev', 'test', 'uat', 'staging', 'prod']);
    expect(config.approval).toEqual({
      stages: ['prod'],
      approvers: ['group:default/release-approvers'],
      requireDistinctApprover: true,
      quorum: {},
      productApprovers: 'add',
    });
    expect(config.platformRepo).toEqual({
      host: 'github.com',
      owner: 'o',
      repo: 'r',
      branch: 'main',
      writeSpacingMs: 1_000,
      pullRequestSpacingMs: 3_000,
      retryBackoffMs: 1_000,
      writeBudget: { perMinute: 80, perHour: 500 },
      pullRequestLabels: 'requested',
    });
    expect(config.releasesPath).toBe('gitops/releases');
    expect(config.soakSeconds).toEqual({});
    expect(config.images).toEqual({ repository: '{registry}/team-{team}/{product}-{service}' });
    expect(config.applicationLabels).toEqual({ team: 'refplat.org/team', product: 'refplat.org/product' });
  });

  it("reads how far apart GitHub writes are paced (promotions.platformRepo.writePacing)", () => {
    const config = readPromotionsConfig(
      new ConfigReader({
        promotions: { platformRepo: { ...base.platformRepo, writePacing: { writes: { milliseconds: 250 }, pullRequests: { seconds: 2 } } } },
      }),
    );
    expect(config.platformRepo).toMatchObject({ writeSpacingMs: 250, pullRequestSpacingMs: 2_000 });
  });

  it("reads how long a GitHub 5xx waits before its retry (promotions.platformRepo.retryBackoff)", () => {
    const config = readPromotionsConfig(
      new ConfigReader({ promotions: { platformRepo: { ...base.platformRepo, retryBackoff: { milliseconds: 50 } } } }),
    );
    expect(config.platformRepo.retryBackoffMs).toBe(50);
  });

  it('reads the write budget (promotions.platformRepo.writeBudget), and refuses one that allows no write', () => {
    const read = (writeBudget: object) =>
      readPromotionsConfig(new ConfigReader({ promotions: { platformRepo: { ...base.platformRepo, writeBudget } } }));
    expect(read({ perHour: 5000 }).platformRepo.writeBudget).toEqual({ perMinute: 80, perHour: 5000 });
    expect(() => read({ perMinute: 0 })).toThrow('promotions.platformRepo.writeBudget.perMinute must be a whole number of at least 1, got 0');
  });

  it('reads which Release PRs get labels (promotions.platformRepo.pullRequestLabels), and refuses another word', () => {
    const read = (pullRequestLabels: string) =>
      readPromotionsConfig(new ConfigReader({ promotions: { platformRepo: { ...base.platformRepo, pullRequestLabels } } }));
    expect(read('all').platformRepo.pullRequestLabels).toBe('all');
    expect(read('none').platformRepo.pullRequestLabels).toBe('none');
    expect(() => read('some')).toThrow("promotions.platformRepo.pullRequestLabels must be one of all, requested, none, got 'some'");
  });

  it('reads how images and Applications are named, and refuses an image template that names no Service', () => {
    const read = (promotions: object) =>
      readPromotionsConfig(new ConfigReader({ promotions: { ...base, ...promotions } }));
    expect(read({ images: { repository: '{registry}/{team}/{service}', registry: 'ghcr.io' } }).images).toEqual({
      repository: '{registry}/{team}/{service}',
      registry: 'ghcr.io',
    });
    expect(read({ applications: { labels: { team: 'acme.io/team' } } }).applicationLabels).toEqual({
      team: 'acme.io/team',
      product: 'refplat.org/product',
    });
    expect(() => read({ images: { repository: '{registry}/{team}/shop' } })).toThrow(/must name each Service's image with \{service\}/);
    expect(() => read({ images: { repository: '{registry}/{org}/{service}' } })).toThrow(
      "promotions.images.repository must name each Service's image with {service} and may use only {registry}, {team}, {product}, {service}; got '{registry}/{org}/{service}'",
    );
  });

  it("reads whether a Product's own approvers add to the global ones or replace them", () => {
    const read = (productApprovers: string) =>
      readPromotionsConfig(new ConfigReader({ promotions: { ...base, approval: { productApprovers } } })).approval
        .productApprovers;
    expect(read('replace')).toBe('replace');
    expect(read('add')).toBe('add');
    expect(() => read('instead')).toThrow(
      "promotions.approval.productApprovers must be one of add, replace, got 'instead'",
    );
  });

  it('leaves the auto-promoter off and the Gate on unless told otherwise', () => {
    const config = readPromotionsConfig(new ConfigReader({ promotions: base }));
    expect(config.autoPromote.enabled).toBe(false);
    expect(config.gate.enabled).toBe(true);
    const optedIn = readPromotionsConfig(
      new ConfigReader({ promotions: { ...base, autoPromote: { enabled: true } } }),
    );
    expect(optedIn.autoPromote.enabled).toBe(true);
  });

  it.each([
    ['defaults', {}, { enabled: true, frequency: { minutes: 1 }, backfillCommits: 500, failureWindowSeconds: 86400 }],
    [
      'every key set',
      { metrics: { enabled: false, frequency: { seconds: 30 }, backfillCommits: 50, failureWindow: { hours: 4 } } },
      { enabled: false, frequency: { seconds: 30 }, backfillCommits: 50, failureWindowSeconds: 14400 },
    ],
  ])('reads delivery metrics settings: %s', (_name, promotions, expected) => {
    expect(readPromotionsConfig(new ConfigReader({ promotions: { ...base, ...promotions } })).metrics).toEqual(expected);
  });

  it.each([
    ['defaults', {}, { enabled: true, frequency: { minutes: 5 } }],
    ['every key set', { stuckNotifications: { enabled: false, frequency: { minutes: 1 } } }, { enabled: false, frequency: { minutes: 1 } }],
  ])('reads stuck notification settings: %s', (_name, promotions, expected) => {
    expect(readPromotionsConfig(new ConfigReader({ promotions: { ...base, ...promotions } })).stuckNotifications).toEqual(expected);
  });

  const secret = { events: { modules: { github: { webhookSecret: 's' } } } };
  it.each([
    ['no webhooks', {}, { enabled: false }, { seconds: 30 }],
    ['the GitHub module has a webhook secret', secret, { enabled: true }, { minutes: 5 }],
    ['webhooks enabled without that secret (e.g. GitHub App secrets)', { promotions: { webhooks: { enabled: true } } }, { enabled: true }, { minutes: 5 }],
    ['a secret, but webhooks turned off', { ...secret, promotions: { webhooks: { enabled: false } } }, { enabled: false }, { seconds: 30 }],
    ['webhooks and an explicit Gate frequency', { ...secret, promotions: { gate: { frequency: { seconds: 10 } } } }, { enabled: true }, { seconds: 10 }],
  ])('with %s, webhooks are %j and the Gate polls every %j', (_name, root: any, webhooks, frequency) => {
    const config = readPromotionsConfig(
      new ConfigReader({ ...root, promotions: { ...base, ...root.promotions } }),
    );
    expect(config.webhooks).toEqual(webhooks);
    expect(config.gate.frequency).toEqual(frequency);
  });

  it('reads stages with soak times mixed with plain names', () => {
    const config = readPromotionsConfig(
      new ConfigReader({
        promotions: {
          ...base,
          stages: ['dev', { name: 'test', soakTime: { minutes: 10 } }, { name: 'prod' }],
        },
      }),
    );
    expect(config.stages).toEqual(['dev', 'test', 'prod']);
    expect(config.soakSeconds).toEqual({ test: 600 });
  });

  it('reads one or several ArgoCD instances', () => {
    const config = readPromotionsConfig(
      new ConfigReader({
        promotions: {
          ...base,
          argocd: {
            baseUrl: 'https://argocd.example.com/',
            token: 't',
            instances: [{ name: 'us', baseUrl: 'https://us.example.com', token: 'u' }],
          },
        },
      }),
    );
    expect(config.argocd.map(i => [i.name, i.baseUrl])).toEqual([
      ['argocd', 'https://argocd.example.com'],
      ['us', 'https://us.example.com'],
    ]);
  });

  it("borrows the ArgoCD plugin's instances only when promotions has no health source", () => {
    const argocd = {
      appLocatorMethods: [{ type: 'config', instances: [{ name: 'eu', url: 'https://eu', token: 't' }] }],
    };
    const borrowed = readPromotionsConfig(new ConfigReader({ promotions: base, argocd }));
    expect(borrowed.healthConfig.origin).toBe('argocd.appLocatorMethods');
    expect(borrowed.argocd.map(i => i.baseUrl)).toEqual(['https://eu']);
    const own = readPromotionsConfig(
      new ConfigReader({ promotions: { ...base, argocd: { baseUrl: 'https://own', token: 'o' } }, argocd }),
    );
    expect(own.healthConfig.origin).toBe('promotions.argocd');
    expect(own.argocd.map(i => i.baseUrl)).toEqual(['https://own']);
  });

  it('reads promotions.kubernetes.applicationNamespace as every cluster\'s default', () => {
    const config = readPromotionsConfig(
      new ConfigReader({
        promotions: {
          ...base,
          kubernetes: {
            applicationNamespace: 'gitops',
            clusters: [
              { name: 'a', url: 'https://a' },
              { name: 'b', url: 'https://b', applicationNamespace: 'other' },
            ],
          },
        },
      }),
    );
    expect(config.kubernetes.map(c => c.applicationNamespace)).toEqual(['gitops', 'other']);
  });

  it.each([
    [{ stages: ['dev', 'Dev'] }, /distinct lowercase names/],
    [{ stages: ['dev', 'dev'] }, /distinct lowercase names/],
    [{ approval: { stages: ['live'] } }, /names 'live'/],
  ])('rejects %p', (extra, message) => {
    expect(() => readPromotionsConfig(new ConfigReader({ promotions: { ...base, ...extra } }))).toThrow(message);
  });

  it("reads the Products a freeze window names, and refuses one that is not team/product", () => {
    const window = { name: 'launch', stages: ['uat'], schedule: 'Mon 00:00 – Mon 00:00', reason: 'Launch week' };
    const read = (freeze: object) => readPromotionsConfig(new ConfigReader({ promotions: { ...base, freezes: [freeze] } }));
    expect(read(window).freezes).toEqual([{ ...window, timezone: 'UTC' }]);
    expect(read({ ...window, products: ['alpha/blog'] }).freezes[0].products).toEqual(['alpha/blog']);
    expect(() => read({ ...window, products: ['blog'] })).toThrow(
      "promotions.freezes[0]: freeze launch names the Product 'blog', which is not team/product",
    );
  });

  it.each([
    ['not configured', {}, undefined],
    ['the defaults', { incidents: {} }, { stages: ['prod'], mode: 'block', commanders: ['group:default/incident-commanders'] }],
    [
      'approval mode with its own commanders',
      { incidents: { stages: ['staging', 'prod'], mode: 'approval', commanders: ['group:default/sre'] } },
      { stages: ['staging', 'prod'], mode: 'approval', commanders: ['group:default/sre'] },
    ],
  ])('reads the incident gate: %s', (_name, promotions, expected) => {
    expect(readPromotionsConfig(new ConfigReader({ promotions: { ...base, ...promotions } })).incidents).toEqual(expected);
  });

  it.each([
    [{ incidents: { stages: ['live'] } }, /promotions.incidents.stages names 'live'/],
    [{ incidents: { mode: 'page-someone' } }, /promotions.incidents.mode must be 'block' or 'approval', got "page-someone"/],
    [{ incidents: { mode: 'approval', commanders: [] } }, /at least one group in approval mode/],
  ])('rejects the incident gate %p', (extra, message) => {
    expect(() => readPromotionsConfig(new ConfigReader({ promotions: { ...base, ...extra } }))).toThrow(message);
  });
});
