import { actorNameWithoutCatalog } from '@refplat/plugin-promotions-common';
import { parsePullRequestBody, promotionFingerprint, pullRequestBody, PullRequestTextInput } from './pullRequestText';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

/** As the catalog names the demo's people; groups and workers by name. */
const DISPLAY_NAMES: Record<string, string> = {
  'user:default/bob': 'Bob Builder',
  'user:default/alice': 'Alice Approver',
};
const nameOf = (actor: string) => DISPLAY_NAMES[actor] ?? actorNameWithoutCatalog(actor);

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
    nameOf,
    ...overrides,
  };
}

describe('pullRequestBody', () => {
  it('names people and groups as the catalog does, with the plain name that finds them, never their refs', () => {
    const body = pullRequestBody(input({ approvers: ['group:default/release-approvers', 'group:default/shop-release'] }));
    expect(body).toMatch(/^Requested by Bob Builder \(`bob`\) from \[Backstage\]\(http:\/\/backstage\/catalog\/default\/system\/shop\)\.$/m);
    expect(body).toContain('(members of release-approvers, shop-release)');
    expect(body).not.toMatch(/(user|group):default\//);
  });

  it.each([
    ['someone the catalog names by their entity name', 'user:default/carol', 'Requested by `carol`.'],
    ['someone in another namespace', 'user:ops/dan', 'Requested by dan (`user:ops/dan`).'],
    ['the auto-promoter', 'plugin:promotions/auto-promoter', 'Requested by Auto-promoter (`plugin:promotions/auto-promoter`).'],
  ])('names %s', (_case, requestedBy, line) => {
    expect(pullRequestBody(input({ requestedBy, entityUrl: undefined }))).toContain(line);
  });
});

describe('pullRequestBody: who must approve', () => {
  it('says how many release-approvers a quorum of two needs (issue 45)', () => {
    expect(pullRequestBody(input({ quorum: 2 }))).toContain('**Needs 2 release-approvers** (members of');
    expect(pullRequestBody(input())).toContain('**Needs a release-approver** (members of');
  });
});

describe('pullRequestBody: what follows a rollback', () => {
  it('says the auto-promoter holds the stage, or, on the bottom rung, that CI replaces it (issue 45)', () => {
    expect(pullRequestBody(input({ kind: 'rollback', fromStage: 'prod' }))).toContain(
      'The auto-promoter holds `prod` for these services until someone resumes it.',
    );
    const dev = pullRequestBody(input({ kind: 'rollback', fromStage: 'dev', toStage: 'dev', requiresApproval: false, bottomRung: true }));
    expect(dev).toContain("CI's next release into `dev` replaces it.");
    expect(dev).not.toContain('holds');
  });
});

describe('parsePullRequestBody: a promotion rebuilt from the PR the plugin wrote', () => {
  it.each<[string, PullRequestTextInput]>([
    ['a promotion', input()],
    ['a promotion without an entity link', input({ entityUrl: undefined, requiresApproval: false, toStage: 'test', fromStage: 'dev' })],
    ['a rollback', input({ kind: 'rollback', fromStage: 'prod' })],
    ['a requester the catalog names by their entity name', input({ nameOf: actorNameWithoutCatalog })],
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
      previousServices: { storefront: D2, cart: null },
      requestedBy: 'user:default/bob',
    });
  });

  it('lists what the stage ran before, whole, so a restored promotion shows "from → to" as before', () => {
    const body = pullRequestBody(input());
    expect(body).toContain(['Full digests in `prod` before this PR:', `- storefront: \`${D2}\``, '- cart: _none_'].join('\n'));
  });

  it('reads back a body written before it listed the digests it replaces: the services, nothing made up', () => {
    const body = pullRequestBody(input()).replace(/\n\nFull digests in `prod` before this PR:(\n- .*)+/, '');
    expect(body).not.toContain('before this PR');
    const facts = parsePullRequestBody(body);
    expect(facts?.services).toEqual({ storefront: D1, cart: D2 });
    expect(facts).not.toHaveProperty('previousServices');
  });

  it('leaves out a list of replaced digests that is not whole', () => {
    const body = pullRequestBody(input()).replace('- cart: _none_', '- cart: latest');
    expect(parsePullRequestBody(body)).not.toHaveProperty('previousServices');
  });

  it.each([
    ['user:ops/dan'],
    ['plugin:promotions/auto-promoter'],
  ])('reads back the requester %s', requestedBy => {
    expect(parsePullRequestBody(pullRequestBody(input({ requestedBy })))?.requestedBy).toBe(requestedBy);
  });

  it('reads back a body written before people were named, with the whole ref', () => {
    const body = pullRequestBody(input()).replace(/^Requested by .*$/m, 'Requested by `user:default/bob` from [Backstage](http://b).');
    expect(parsePullRequestBody(body)?.requestedBy).toBe('user:default/bob');
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
