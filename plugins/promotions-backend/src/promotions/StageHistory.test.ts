import { mockCache } from '../__testUtils__/lightServices';
import { releasePath } from '../ladder/readProductRecords';
import { SHOP, digest, promotionsWorld, releaseFile } from './__testUtils__/promotionsWorld';
import { StageHistory } from './StageHistory';

/** A world whose dev Release was changed twice after seeding (b, then c, then d). */
function historyWorld() {
  const world = promotionsWorld();
  const path = releasePath(world.config, SHOP, 'dev');
  world.repo.commit({ [path]: releaseFile('dev', { api: digest('c') }) }, { message: 'CI: api c' });
  world.repo.commit({ [path]: releaseFile('dev', { api: digest('d') }) }, { message: 'CI: api d' });
  const history = (files?: typeof world.repo) =>
    new StageHistory({ config: world.config, writer: world.repo, files, store: world.store, cache: mockCache() });
  const fileReads = () => world.repo.calls.filter(call => call === 'readFileIfPresent').length;
  return { ...world, history, fileReads };
}

describe('StageHistory', () => {
  it("lists a stage's Release commits newest first, with the digests each named and what changed", async () => {
    const { history } = historyWorld();

    const entries = await history().list(SHOP, 'dev');

    expect(entries.map(entry => [entry.message, entry.services.api])).toEqual([
      ['CI: api d', digest('d')],
      ['CI: api c', digest('c')],
      ['Seed alpha/shop', digest('b')],
    ]);
    expect(entries[0].changes).toEqual([{ service: 'api', from: digest('c'), to: digest('d') }]);
  });

  it('takes the newest version from the snapshot the ladder reads: one file read fewer', async () => {
    const { history, repo, fileReads } = historyWorld();

    repo.calls.length = 0;
    const fromGithub = await history().timeline(SHOP, 'dev');
    const githubReads = fileReads();
    repo.calls.length = 0;
    const fromSnapshot = await history(repo).timeline(SHOP, 'dev');

    expect(fromSnapshot).toEqual(fromGithub);
    expect(fromSnapshot.map(services => services.api)).toEqual([digest('d'), digest('c'), digest('b')]);
    expect(githubReads).toBe(3);
    expect(fileReads()).toBe(2);
  });

  it('reads from the oldest version on, and stops where the caller has enough', async () => {
    const { history, repo, fileReads, config } = historyWorld();
    const path = releasePath(config, SHOP, 'dev');
    for (const c of ['e', 'f', '0', '1']) repo.commit({ [path]: releaseFile('dev', { api: digest(c) }) });
    // Newest first: 1 (the head), 0, f, e, d, c, b (the seed's).

    repo.calls.length = 0;
    const firstRead = await history(repo).timelineUntil(SHOP, 'dev', read => read.oldest.length > 0);
    expect(firstRead).toEqual({ head: { api: digest('1') }, oldest: [{ api: digest('b') }], unread: 5 });
    expect(fileReads()).toBe(1);

    repo.calls.length = 0;
    const toD = await history(repo).timelineUntil(SHOP, 'dev', read => read.oldest.some(e => e.api === digest('d')));
    // 1, then 2 more: b, then d and c.
    expect(toD.oldest.map(e => e.api)).toEqual([digest('d'), digest('c'), digest('b')]);
    expect(toD.unread).toBe(3);
    expect(fileReads()).toBe(3);

    repo.calls.length = 0;
    const all = await history(repo).timelineUntil(SHOP, 'dev', () => false);
    expect([all.head, ...all.oldest]).toEqual(await history(repo).timeline(SHOP, 'dev'));
    expect(all.unread).toBe(0);
  });
});
