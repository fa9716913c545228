import { pullRequestOfCommit, releaseFileOf } from './releaseCommits';

const STAGES = ['dev', 'test', 'prod'];

describe('releaseFileOf', () => {
  it.each([
    ['a Release record', 'gitops/releases/alpha/shop/prod.yaml', { product: { team: 'alpha', product: 'shop' }, stage: 'prod' }],
    ['an unconfigured stage', 'gitops/releases/alpha/shop/qa.yaml', undefined],
    ['an Environment', 'gitops/environments/alpha/shop/prod.yaml', undefined],
    ['a file deeper down', 'gitops/releases/alpha/shop/prod/extra.yaml', undefined],
    ['a file in a team directory', 'gitops/releases/alpha/prod.yaml', undefined],
    ['not YAML', 'gitops/releases/alpha/shop/prod.json', undefined],
    ['an invalid Product name', 'gitops/releases/Alpha/shop/prod.yaml', undefined],
    ['a prefix that only starts alike', 'gitops/releases-old/alpha/shop/prod.yaml', undefined],
  ])('%s', (_name, path, expected) => {
    expect(releaseFileOf(path, 'gitops/releases', STAGES)).toEqual(expected);
  });
});

describe('pullRequestOfCommit', () => {
  it.each([
    ['a squash merge', 'Promote alpha/shop to prod (#12)\n\n* Release commit', 12],
    ['a merge commit', 'Merge pull request #7 from refplat/promotions/x\n\nPromote', 7],
    ['a direct push', 'ci: alpha/shop storefront 0123 to dev', undefined],
    ['a number in the body only', 'Fix things\n\nsee (#3)', undefined],
  ])('%s', (_name, message, expected) => {
    expect(pullRequestOfCommit(message)).toBe(expected);
  });
});
