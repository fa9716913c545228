import { execFileSync } from 'node:child_process';
import { RunningSim } from '../sim';
import { octokitFor, startTestSim, stopTestSim } from '../__testUtils__/testSim';

const owner = 'refplat';
const repo = 'platform';

describe('GET /repos/{o}/{r}/tarball/{ref}', () => {
  let sim: RunningSim;

  beforeAll(async () => {
    sim = await startTestSim();
  });
  afterAll(() => stopTestSim(sim));

  const git = (...args: string[]) =>
    execFileSync('git', ['--git-dir', sim.repoDir, ...args], { encoding: 'utf8' }).trim();

  it('answers 302 to a codeload link that serves the commit as a gzipped tar, entries under <owner>-<repo>-<sha7>/', async () => {
    const head = git('rev-parse', 'main');
    sim.control.clearRequests();
    const response = await octokitFor(sim).rest.repos.downloadTarballArchive({ owner, repo, ref: 'main' });
    expect(response.status).toBe(200);
    const calls = sim.control.getRequests('github').map(call => `${call.status} ${call.path}`);
    expect(calls).toEqual([
      `302 /repos/${owner}/${repo}/tarball/main`,
      `200 /${owner}/${repo}/legacy.tar.gz/${head}`,
    ]);

    const listing = execFileSync('tar', ['-tzf', '-'], { input: Buffer.from(response.data as ArrayBuffer) })
      .toString('utf8')
      .split('\n')
      .filter(name => name && !name.endsWith('/'));
    const files = git('ls-tree', '-r', '--name-only', head).split('\n');
    expect(listing.sort()).toEqual(files.map(file => `${owner}-${repo}-${head.slice(0, 7)}/${file}`).sort());
  });

  it('serves a commit by sha, and 404 for an unknown ref', async () => {
    const head = git('rev-parse', 'main');
    const bySha = await octokitFor(sim).rest.repos.downloadTarballArchive({ owner, repo, ref: head });
    expect(Buffer.from(bySha.data as ArrayBuffer).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    await expect(
      octokitFor(sim).rest.repos.downloadTarballArchive({ owner, repo, ref: 'no-such-branch' }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it('refuses a codeload link whose token is not one it issued', async () => {
    const head = git('rev-parse', 'main');
    const forged = await fetch(`${sim.url}/codeload/${owner}/${repo}/legacy.tar.gz/${head}?token=${Date.now() + 60_000}.00`);
    expect(forged.status).toBe(404);
  });
});
