import { execFileSync } from 'child_process';
import { mockCredentials } from '@backstage/backend-test-utils';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { Octokit } from '@octokit/rest';
import request from 'supertest';
import { startPromotionsBackend } from '../__testUtils__/testBackend';

jest.setTimeout(60_000);

const bob = mockCredentials.user.header('user:default/bob');

describe('GET /products/{team}/{product}/changes', () => {
  let sim: RunningSim;
  let server: Awaited<ReturnType<typeof startPromotionsBackend>>;

  beforeEach(async () => {
    sim = await startPlatformSim();
    server = await startPromotionsBackend(sim);
  });

  afterEach(async () => {
    await sim.stop();
  });

  const changes = (query: string) =>
    request(server).get(`/api/promotions/products/alpha/shop/changes${query}`).set('Authorization', bob);

  it('says plainly when no source commit is recorded', async () => {
    const response = await changes('?from=dev&to=test');
    expect(response.status).toBe(200);
    const storefront = response.body.items.find((i: { service: string }) => i.service === 'storefront');
    expect(storefront).toMatchObject({ changed: true });
    expect(storefront.note).toMatch(/No source commit is recorded/);
    expect(response.body.items.find((i: { service: string }) => i.service === 'cart')).toMatchObject({
      changed: false,
    });
  });

  it('lists the commits between the source revisions CI recorded in the Releases', async () => {
    // The platform repo's own history stands in for a service's source repository.
    const log = execFileSync('git', ['--git-dir', sim.repoDir, 'log', '--format=%H', 'main'], { encoding: 'utf8' })
      .trim()
      .split('\n');
    const [newer, older] = [log[0], log[3]];
    const github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
    for (const [stage, revision] of [['dev', newer], ['test', older]]) {
      const path = `gitops/releases/alpha/shop/${stage}.yaml`;
      const { data } = await github.rest.repos.getContent({ owner: 'refplat', repo: 'platform', path });
      const file = data as { content: string; sha: string };
      const text = Buffer.from(file.content, 'base64').toString('utf8');
      const withSource = text.replace(
        /(\n {4}storefront:\n {6}digest: \S+)/,
        `$1\n      source:\n        repository: refplat/platform\n        revision: ${revision}`,
      );
      await github.rest.repos.createOrUpdateFileContents({
        owner: 'refplat',
        repo: 'platform',
        path,
        message: `ci: record the source of storefront in ${stage}`,
        sha: file.sha,
        content: Buffer.from(withSource).toString('base64'),
      });
    }
    const response = await changes('?from=dev&to=test');
    const storefront = response.body.items.find((i: { service: string }) => i.service === 'storefront');
    expect(storefront.note).toBeUndefined();
    expect(storefront.commits.length).toBe(3);
    expect(storefront.commits[0].sha).toBe(newer);
    expect(storefront.compareUrl).toBeTruthy();
  });

  it('answers 400 without two stages', async () => {
    expect((await changes('?from=dev')).status).toBe(400);
    expect((await changes('?from=dev&to=qa')).status).toBe(400);
  });
});
