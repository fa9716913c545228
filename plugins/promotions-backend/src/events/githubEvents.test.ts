import { pullRequestToCheck, pushImpact, statusShaToCheck, WatchedRepo } from './githubEvents';

const REPO: WatchedRepo = {
  owner: 'refplat',
  repo: 'platform',
  branch: 'main',
  prefixes: ['gitops/releases', 'gitops/environments'],
};
const repository = { full_name: 'refplat/platform' };
const SHA = 'a'.repeat(40);

function push(commits: Array<Partial<Record<'added' | 'modified' | 'removed', string[]>>>, extra = {}) {
  return { ref: 'refs/heads/main', repository, forced: false, deleted: false, commits, ...extra };
}

describe('pushImpact', () => {
  it.each([
    ['a Release modified', push([{ modified: ['gitops/releases/alpha/shop/test.yaml'] }]), ['alpha/shop']],
    [
      'Releases and an Environment across commits, each Product once',
      push([
        { modified: ['gitops/releases/alpha/shop/dev.yaml'] },
        { added: ['gitops/environments/beta/payments/prod.yaml'], removed: ['gitops/releases/alpha/shop/uat.yaml'] },
      ]),
      ['alpha/shop', 'beta/payments'],
    ],
    ['files outside the watched prefixes', push([{ modified: ['README.md', 'gitops/releasesX/a/b/c.yaml'] }]), []],
    ['a file directly in a team directory', push([{ added: ['gitops/releases/alpha/notes.md'] }]), []],
    ['an invalid Product name', push([{ added: ['gitops/releases/Alpha/shop/dev.yaml'] }]), []],
    ['no commits (e.g. a ref moved back to a known commit)', push([]), []],
  ])('%s', (_name, payload, products) => {
    const impact = pushImpact(payload, REPO);
    expect(impact.kind).toBe('products');
    if (impact.kind !== 'products') return;
    expect(impact.products.map(p => `${p.team}/${p.product}`).sort()).toEqual(products);
  });

  it.each([
    ['another branch', push([{ modified: ['gitops/releases/alpha/shop/dev.yaml'] }], { ref: 'refs/heads/promotions/x' })],
    ['a tag', push([], { ref: 'refs/tags/main' })],
    ['another repository', push([{ modified: ['gitops/releases/alpha/shop/dev.yaml'] }], { repository: { full_name: 'refplat/other' } })],
    ['no repository', { ref: 'refs/heads/main', commits: [] }],
    ['no payload', undefined],
  ])('ignores %s', (_name, payload) => {
    expect(pushImpact(payload as any, REPO)).toEqual({ kind: 'ignore' });
  });

  it('matches the repository case-insensitively, as GitHub names are', () => {
    expect(pushImpact(push([], { repository: { full_name: 'RefPlat/Platform' } }), REPO).kind).toBe('products');
  });

  it.each([
    ['a force push', push([{ modified: ['gitops/releases/alpha/shop/dev.yaml'] }], { forced: true })],
    ['a deleted branch', push([], { deleted: true })],
    ['a commit list GitHub cut at 20', push(Array.from({ length: 20 }, () => ({ modified: ['README.md'] })))],
  ])('cannot tell which Products from %s', (_name, payload) => {
    expect(pushImpact(payload, REPO)).toEqual({ kind: 'unknown' });
  });
});

describe('pullRequestToCheck', () => {
  it.each([
    [{ action: 'closed', number: 7, pull_request: { merged: true }, repository }, 7],
    [{ action: 'closed', number: 8, pull_request: { merged: false }, repository }, 8],
    [{ action: 'synchronize', number: 9, repository }, 9],
    [{ action: 'reopened', pull_request: { number: 10 }, repository }, 10],
    [{ action: 'opened', number: 11, repository }, undefined],
    [{ action: 'labeled', number: 12, repository }, undefined],
    [{ action: 'closed', number: 13, repository: { full_name: 'refplat/other' } }, undefined],
    [{ action: 'closed', number: '14', repository }, undefined],
    [{ action: 'closed', number: 0, repository }, undefined],
  ])('%j → %p', (payload, expected) => {
    expect(pullRequestToCheck(payload, REPO)).toBe(expected);
  });
});

describe('statusShaToCheck', () => {
  it.each([
    [{ sha: SHA, context: 'ci/build', state: 'success', repository }, SHA],
    [{ sha: SHA, context: 'promotions/health', state: 'success', repository }, undefined],
    [{ sha: SHA, context: 'promotions/approval', state: 'pending', repository }, undefined],
    [{ sha: 'not-a-sha', context: 'ci/build', repository }, undefined],
    [{ sha: SHA, context: 'ci/build', repository: { full_name: 'refplat/other' } }, undefined],
  ])('%j → %p', (payload, expected) => {
    expect(statusShaToCheck(payload, REPO)).toBe(expected);
  });
});
