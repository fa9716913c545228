import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { RunningSim, startPlatformSim } from '@refplat/platform-sim';
import { createOctokit } from './createOctokit';
import { PlatformRepoReader } from './PlatformRepoReader';

jest.setTimeout(60_000);

const REPO = { owner: 'refplat', repo: 'platform' };
const LOCATION = { ...REPO, branch: 'main' };
const ONE_HOUR_MS = 60 * 60 * 1000;

describe('PlatformRepoReader', () => {
  let sim: RunningSim;

  beforeEach(async () => {
    sim = await startPlatformSim();
  });

  afterEach(async () => {
    await sim?.stop();
  });

  const client = () => {
    const host = new URL(sim.url).host;
    return createOctokit({
      config: new ConfigReader({
        integrations: { github: [{ host, apiBaseUrl: sim.githubApiUrl, token: sim.tokens.github }] },
      }),
      host,
      ...LOCATION,
      logger: mockServices.logger.mock(),
    });
  };
  const headChecks = () =>
    sim.control.getRequests('github').filter(call => call.path === '/repos/refplat/platform/git/ref/heads/main');

  it('reuses a head check within its TTL, and asks again after a write by any registered client', async () => {
    const reads = client();
    const writes = client();
    const reader = new PlatformRepoReader(reads, mockServices.cache.mock(), LOCATION, ['gitops'], ONE_HOUR_MS);
    reader.forgetHeadAfterWritesBy(writes);
    const unregistered = client();
    sim.control.clearRequests();

    const head = await reader.headCommit();
    await reader.headCommit();
    expect(headChecks()).toHaveLength(1);

    // a write nobody registered leaves the remembered head in place
    await unregistered.rest.git.createRef({ ...REPO, ref: 'refs/heads/elsewhere', sha: head });
    await reader.headCommit();
    expect(headChecks()).toHaveLength(1);

    // a write by the registered client (as the Gate's merge) forgets it
    await writes.rest.git.createRef({ ...REPO, ref: 'refs/heads/gate-write', sha: head });
    await reader.headCommit();
    expect(headChecks()).toHaveLength(2);

    // and so does a write through the reader's own client
    await reads.rest.git.deleteRef({ ...REPO, ref: 'heads/elsewhere' });
    await reader.headCommit();
    expect(headChecks()).toHaveLength(3);
  });
});
