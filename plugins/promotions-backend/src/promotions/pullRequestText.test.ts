import { parsePullRequestBody, promotionFingerprint, pullRequestBody, PullRequestTextInput } from './pullRequestText';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

function input(overrides: Partial<PullRequestTextInput> = {}): PullRequestTextInput {
  const services = overrides.services ?? { storefront: D1, cart: D2 };
  return {
    id: '6f1c2a9e-0000-4000-8000-000000000001',
    team: 'alpha',
    product: 'shop',
    fromStage: 'staging',
    toStage: 'prod',
    services,
    previous: { storefront: D2, cart: null },
    requestedBy: 'user:default/bob',
    requiresApproval: true,
    approvers: ['group:default/release-approvers'],
    fingerprint: promotionFingerprint('alpha', 'shop', overrides.toStage ?? 'prod', services),
    entityUrl: 'http://backstage/catalog/default/system/shop',
    ...overrides,
  };
}

describe('parsePullRequestBody: a promotion rebuilt from the PR the plugin wrote', () => {
  it.each<[string, PullRequestTextInput]>([
    ['a promotion', input()],
    ['a promotion without an entity link', input({ entityUrl: undefined, requiresApproval: false, toStage: 'test', fromStage: 'dev' })],
    ['a rollback', input({ kind: 'rollback', fromStage: 'prod' })],
  ])('reads back %s', (_case, written) => {
    expect(parsePullRequestBody(pullRequestBody(written))).toEqual({
      id: written.id,
      fingerprint: written.fingerprint,
      team: 'alpha',
      product: 'shop',
      fromStage: written.fromStage,
      toStage: written.toStage,
      kind: written.kind ?? 'promotion',
      services: written.services,
      requestedBy: 'user:default/bob',
    });
  });

  it.each<[string, (body: string) => string]>([
    ['no marker', body => body.replace(/<!--.*-->/, '')],
    ['a digest edited (the fingerprint no longer matches)', body => body.replace(`- cart: \`${D2}\``, `- cart: \`${D1}\``)],
    ['no digests', body => body.replace(/^- .*$/gm, '')],
    ['no requester', body => body.replace(/^Requested by .*$/m, '')],
    ['no summary', body => body.replace(/^Promotes .*$/m, '')],
  ])('refuses a body with %s', (_case, edit) => {
    expect(parsePullRequestBody(edit(pullRequestBody(input())))).toBeUndefined();
  });
});
