import { isRepoUrlOf } from './repoUrl';

const PLATFORM = { host: 'github.com', owner: 'refplat', repo: 'platform' };

describe('isRepoUrlOf: the forms of one GitHub repository', () => {
  it.each([
    ['https://github.com/refplat/platform.git', true],
    ['https://github.com/refplat/platform', true],
    ['https://github.com/refplat/platform/', true],
    ['https://GitHub.com/RefPlat/Platform.git', true],
    ['http://github.com/refplat/platform', true],
    ['git@github.com:refplat/platform.git', true],
    ['git@github.com:refplat/platform', true],
    ['ssh://git@github.com/refplat/platform.git', true],
    ['ssh://git@github.com:22/refplat/platform.git', true],
    ['git://github.com/refplat/platform.git', true],
    ['  https://github.com/refplat/platform.git  ', true],
    ['https://github.com/refplat/platform-apps.git', false],
    ['https://github.com/alpha/platform.git', false],
    ['https://gitlab.com/refplat/platform.git', false],
    ['git@gitlab.com:refplat/platform.git', false],
    ['https://github.com/platform.git', false],
    ['https://charts.example.com', false],
    ['oci://ghcr.io/refplat/platform', false],
    ['not a url', false],
    ['', false],
  ])('%s → %s', (url, expected) => {
    expect(isRepoUrlOf(url, PLATFORM)).toBe(expected);
  });

  it('GitHub Enterprise with a port in the configured host and a path prefix (the simulator)', () => {
    const ghe = { host: '127.0.0.1:7070', owner: 'refplat', repo: 'platform' };
    expect(isRepoUrlOf('http://127.0.0.1:7070/web/refplat/platform.git', ghe)).toBe(true);
    expect(isRepoUrlOf('git@127.0.0.1:refplat/platform.git', ghe)).toBe(true);
    expect(isRepoUrlOf('http://127.0.0.1:7070/git/alpha/shop-app.git', ghe)).toBe(false);
    expect(isRepoUrlOf('http://127.0.0.2:7070/web/refplat/platform.git', ghe)).toBe(false);
  });

  it('an undefined repoURL is no repository', () => {
    expect(isRepoUrlOf(undefined, PLATFORM)).toBe(false);
  });
});
