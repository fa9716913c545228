import { resolveOptions } from '../options';
import { optionsFromArgs, registryPortFromArgs } from './main';

describe('the platform shape on the command line', () => {
  afterEach(() => {
    delete process.env.PLATFORM_SIM_ARGOCD_VERSION;
    delete process.env.PLATFORM_SIM_TREE_ENTRY_LIMIT;
  });

  it('reads --argocd-version, --application-source and --tree-entry-limit, or their PLATFORM_SIM_* variables', () => {
    expect(
      optionsFromArgs([
        '--argocd-version',
        '3',
        '--application-source=multi-source',
        '--tree-entry-limit',
        '50',
      ]),
    ).toMatchObject({
      argocdVersion: '3',
      applicationSource: 'multi-source',
      treeEntryLimit: 50,
    });
    process.env.PLATFORM_SIM_ARGOCD_VERSION = '2';
    process.env.PLATFORM_SIM_TREE_ENTRY_LIMIT = '7';
    expect(optionsFromArgs([])).toMatchObject({
      argocdVersion: '2',
      treeEntryLimit: 7,
    });
  });

  it('refuses a shape the simulator does not have', () => {
    expect(() =>
      resolveOptions({
        dataDir: '/tmp/unused',
        ...optionsFromArgs(['--argocd-version', '4']),
      }),
    ).toThrow('argocdVersion must be one of 2, 3, got 4');
    expect(() =>
      resolveOptions({
        dataDir: '/tmp/unused',
        ...optionsFromArgs(['--application-source', 'helm']),
      }),
    ).toThrow(
      'applicationSource must be one of app-repo, platform-repo, multi-source, got helm',
    );
    expect(() =>
      resolveOptions({ dataDir: '/tmp/unused', treeEntryLimit: 0 }),
    ).toThrow('treeEntryLimit must be at least 1');
  });
});

describe('the secondary write limit on the command line', () => {
  it('reads --write-limits as writes a minute/an hour, and is unlimited without it', () => {
    expect(optionsFromArgs(['--write-limits', '80/500']).writeLimits).toEqual({ perMinute: 80, perHour: 500 });
    expect(optionsFromArgs([]).writeLimits).toBeUndefined();
    expect(() => optionsFromArgs(['--write-limits', '80'])).toThrow('--write-limits takes writes a minute/an hour');
    expect(() => resolveOptions({ dataDir: '/tmp/unused', writeLimits: { perMinute: 0, perHour: 500 } })).toThrow(
      'writeLimits needs perMinute and perHour of at least 1',
    );
  });
});

describe('webhooks on the command line', () => {
  it('reads --webhook-url with --webhook-secret, and refuses one without the other', () => {
    expect(
      optionsFromArgs(['--webhook-url', 'http://localhost:7007/api/events/http/github', '--webhook-secret', 's']).webhooks,
    ).toEqual({ url: 'http://localhost:7007/api/events/http/github', secret: 's' });
    expect(optionsFromArgs([]).webhooks).toBeUndefined();
    expect(() => optionsFromArgs(['--webhook-url', 'http://localhost:7007/x'])).toThrow(
      '--webhook-url and --webhook-secret go together',
    );
  });
});

describe('a registry on the command line', () => {
  afterEach(() => {
    delete process.env.PLATFORM_SIM_REGISTRY_URL;
  });

  it('reads --registry-url or PLATFORM_SIM_REGISTRY_URL, and has none by default', () => {
    expect(optionsFromArgs(['--registry-url', 'http://127.0.0.1:5000']).registry).toEqual({ url: 'http://127.0.0.1:5000' });
    expect(optionsFromArgs([]).registry).toBeUndefined();
    process.env.PLATFORM_SIM_REGISTRY_URL = 'http://127.0.0.1:5001';
    expect(optionsFromArgs([]).registry).toEqual({ url: 'http://127.0.0.1:5001' });
  });

  it('publishes the seed as real builds into a registry it is given, and starts one on --registry-port', () => {
    expect(optionsFromArgs(['--registry-url', 'http://127.0.0.1:5000'])).toMatchObject({ seedBuilds: true });
    expect(optionsFromArgs([]).seedBuilds).toBeUndefined();
    expect(optionsFromArgs(['--registry-port', '7071'])).toMatchObject({ registry: { url: 'http://127.0.0.1:7071' }, seedBuilds: true });
    expect(registryPortFromArgs(['--registry-port', '7071'])).toBe(7071);
    expect(registryPortFromArgs(['--registry-url', 'http://127.0.0.1:5000'])).toBeUndefined();
    expect(() => optionsFromArgs(['--registry-port', '7071', '--registry-url', 'http://127.0.0.1:5000'])).toThrow(
      '--registry-url names a registry, --registry-port starts one: give one of them',
    );
  });

  it('refuses a registry URL that is not a base URL', () => {
    expect(() => resolveOptions({ dataDir: '/tmp/unused', ...optionsFromArgs(['--registry-url', 'registry.refplat.org/team-alpha']) })).toThrow(
      "registry.url must be a registry's base URL (http://host:port), got registry.refplat.org/team-alpha",
    );
  });
});
