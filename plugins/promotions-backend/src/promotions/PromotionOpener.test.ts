import { ConflictError } from '@backstage/errors';
import { PlatformRepoUnansweredError, PromotionEventInput, PromotionStore } from '@refplat/plugin-promotions-node';
import { releasePath } from '../ladder/readProductRecords';
import { dyingAt } from './__testUtils__/dying';
import { SHOP, digest, promotionsWorld, releaseFile } from './__testUtils__/promotionsWorld';
import { AUTO_PROMOTER } from './AutoPromoter';
import { PromotionOpener } from './PromotionOpener';
import { parseMarker } from './pullRequestText';

/** Lets the microtasks of a call that will never answer run up to where it hangs. */
const settle = () => new Promise(resolve => setImmediate(resolve));

describe('PromotionOpener', () => {
  it('opens the Release PR on its own branch, labels it and records it on the promotion', async () => {
    const { request, repo, store, config } = promotionsWorld();

    const promotion = await request('uat', { api: digest('b') });

    const [pr] = repo.pullRequests();
    expect(promotion).toMatchObject({
      pullRequest: { number: pr.number, url: pr.url },
      headSha: pr.headSha,
      leaseExpiresAt: undefined,
      status: 'open',
    });
    expect(pr.headRef).toBe(promotion.branch);
    expect(parseMarker(pr.body).id).toBe(promotion.id);
    expect(pr.body).toContain('Alice Developer');
    expect((await repo.changedFiles(pr.headSha)).map(file => file.filename)).toEqual([releasePath(config, SHOP, 'uat')]);
    expect(repo.fileAt(pr.headSha, releasePath(config, SHOP, 'uat'))).toBe(releaseFile('uat', { api: digest('b') }));
    expect(repo.labelsOf(pr.number)).toEqual(['promotion', 'stage:uat', 'product:alpha-shop']);
    expect((await store.listEvents(promotion.id)).map(event => event.type)).toEqual(['requested', 'pr-opened']);
  });

  it('takes the target Release from the files the request read (files), not from one more read', async () => {
    const { request, repo, store, config, logger, directory } = promotionsWorld();
    const opener = new PromotionOpener({ config, store, writer: repo, logger, names: directory, files: repo });
    const recorded = await request('uat', { api: digest('b') }, { open: false });
    repo.calls.length = 0;

    const promotion = await opener.open(recorded, (await repo.headCommit())!, false);

    expect(promotion.status).toBe('open');
    // readFile is the port's readFileIfPresent when it records its calls.
    expect(repo.calls).not.toContain('readFileIfPresent');
    expect(repo.calls).toEqual(expect.arrayContaining(['fileIndex', 'readBlob']));
    expect(repo.fileAt(promotion.headSha!, releasePath(config, SHOP, 'uat'))).toBe(releaseFile('uat', { api: digest('b') }));
  });

  it("writes the Product's approvers and quorum into the PR description (issue 45)", async () => {
    const { request, repo, store, config, logger, directory } = promotionsWorld();
    const opener = new PromotionOpener({
      config,
      store,
      writer: repo,
      logger,
      names: directory,
      approval: async () => ({ approvers: ['group:default/shop-release'], quorum: { uat: 2 } }),
    });
    const recorded = await request('uat', { api: digest('b') }, { open: false });

    const promotion = await opener.open(recorded, (await repo.headCommit())!, true);

    const [pr] = repo.pullRequests().filter(candidate => candidate.number === promotion.pullRequest.number);
    expect(pr.body).toContain('**Needs 2 release-approvers** (members of shop-release)');
  });

  it('fails the promotion and deletes its branch when GitHub fails while opening', async () => {
    const { request, repo, store } = promotionsWorld();
    repo.failNext('commitFile', { status: 502 });

    await expect(request('uat', { api: digest('b') })).rejects.toThrow(/HTTP 502/);

    const [failed] = await store.listForProduct(SHOP.team, SHOP.product, 1);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.statusReason).toMatch(/^Could not open the Release PR: .*HTTP 502/);
    expect(repo.branchHead(failed.branch!)).toBeUndefined();
    expect(repo.pullRequests()).toEqual([]);
  });

  it('leaves a promotion whose PR GitHub did not answer to the reconciler, which adopts the PR once the lease ended', async () => {
    const { request, repo, store, clock, opener } = promotionsWorld();
    repo.failNext('openPullRequest', { status: 0, unanswered: true, applied: true });

    await expect(request('uat', { api: digest('b') })).rejects.toBeInstanceOf(PlatformRepoUnansweredError);

    // Not failed: the PR GitHub made is the promotion's, and no second one is opened.
    const [waiting] = await store.listForProduct(SHOP.team, SHOP.product, 1);
    expect(waiting).toMatchObject({ status: 'open', pullRequest: { number: 0 } });
    expect(repo.pullRequests()).toHaveLength(1);
    clock.advance({ seconds: 60 });
    await opener.reconcileAbandoned(waiting, 'promotions-gate');
    expect(await store.get(waiting.id)).toMatchObject({ status: 'open', pullRequest: { number: 1 }, leaseExpiresAt: undefined });
    expect(repo.pullRequests()).toHaveLength(1);
  });

  it.each([
    ['requested', 'user:default/alice', ['promotion', 'stage:uat', 'product:alpha-shop']],
    ['requested', AUTO_PROMOTER, []],
    ['all', AUTO_PROMOTER, ['promotion', 'stage:uat', 'product:alpha-shop']],
    ['none', 'user:default/alice', []],
  ])('labels by pullRequestLabels %s a PR %s asked for: %j, with no write for no label', async (labelling, requestedBy, labels) => {
    const { request, repo } = promotionsWorld({ config: { platformRepo: { owner: 'platform', repo: 'gitops', pullRequestLabels: labelling } } });

    const promotion = await request('uat', { api: digest('b') }, { requestedBy });

    expect(repo.labelsOf(promotion.pullRequest.number!)).toEqual(labels);
    expect(repo.calls.includes('addLabels')).toBe(labels.length > 0);
  });

  it('keeps a PR whose label failed: labels are best-effort', async () => {
    const { request, repo } = promotionsWorld();
    repo.failNext('addLabels', { status: 500 });

    const promotion = await request('uat', { api: digest('b') });

    expect(promotion.pullRequest.number).toBe(1);
    expect(repo.labelsOf(1)).toEqual([]);
  });

  it('closes its PR and says so when a newer request replaced the promotion while it was opening', async () => {
    const world = promotionsWorld();
    const record = await world.request('uat', { api: digest('b') }, { open: false });
    const replacing = new Proxy(world.repo, {
      get(repo, property) {
        if (property !== 'openPullRequest') return Reflect.get(repo, property).bind(repo);
        return async (options: Parameters<typeof repo.openPullRequest>[0]) => {
          await world.store.transition(record.id, {}, { status: 'closed', statusReason: 'Superseded by a newer promotion request' });
          return repo.openPullRequest(options);
        };
      },
    });
    const opener = new PromotionOpener({ ...world, writer: replacing, names: world.directory });

    await expect(opener.open(record, world.repo.branchHead()!, false)).rejects.toThrow(ConflictError);

    expect(world.repo.pullRequests()).toMatchObject([{ number: 1, state: 'closed' }]);
    expect(world.repo.commentsOn(1)).toEqual([
      'Closed by the promotions plugin: its promotion is closed: Superseded by a newer promotion request.',
    ]);
    expect(world.repo.branchHead(record.branch!)).toBeUndefined();
  });

  it('renews its lease after each step made on GitHub, so a slow GitHub does not make it look stopped', async () => {
    const world = promotionsWorld();
    const record = await world.request('uat', { api: digest('b') }, { open: false });
    const leases: Array<string | undefined> = [];
    // Each step takes 20 s of the clock: longer, together, than one lease of 30 s.
    const slow = new Proxy(world.repo, {
      get(repo, property) {
        const member = Reflect.get(repo, property);
        if (!['createBranch', 'commitFile', 'openPullRequest'].includes(String(property))) return member.bind(repo);
        return async (...args: unknown[]) => {
          leases.push((await world.store.get(record.id))!.leaseExpiresAt);
          world.clock.advance({ seconds: 20 });
          return member.apply(repo, args);
        };
      },
    });
    const opener = new PromotionOpener({ ...world, writer: slow, names: world.directory });

    const opened = await opener.open(record, world.repo.branchHead()!, false);

    expect(leases).toEqual([
      '2026-01-01T00:00:30.000Z',
      '2026-01-01T00:00:50.000Z',
      '2026-01-01T00:01:10.000Z',
    ]);
    expect(opened).toMatchObject({ status: 'open', pullRequest: { number: 1 }, leaseExpiresAt: undefined });
  });

  it('stops, opening no PR, when its promotion was failed as abandoned between two steps', async () => {
    const world = promotionsWorld();
    const record = await world.request('uat', { api: digest('b') }, { open: false });
    const takenOver = new Proxy(world.repo, {
      get(repo, property) {
        const member = Reflect.get(repo, property);
        if (property !== 'createBranch') return member.bind(repo);
        return async (...args: unknown[]) => {
          const made = await member.apply(repo, args);
          world.clock.advance({ seconds: 31 });
          await world.opener.reconcileAbandoned((await world.store.get(record.id))!, 'promotions-gate');
          return made;
        };
      },
    });
    const opener = new PromotionOpener({ ...world, writer: takenOver, names: world.directory });

    await expect(opener.open(record, world.repo.branchHead()!, false)).rejects.toThrow(
      /^This promotion into uat ended \(failed\) while its pull request was being opened: The request opening its pull request stopped/,
    );
    expect(world.repo.pullRequests()).toEqual([]);
    expect(world.repo.branchHead(record.branch!)).toBeUndefined();
  });

  describe('after a crash', () => {
    /** The opener's process dies right before it records the PR it opened. */
    async function crashAfterOpeningThePr() {
      const world = promotionsWorld();
      const record = await world.request('uat', { api: digest('b') }, { open: false });
      const dyingStore = dyingAt<PromotionStore>(
        world.store,
        (method, args) => method === 'transition' && (args[3] as PromotionEventInput | undefined)?.type === 'pr-opened',
      );
      const crashed = new PromotionOpener({ ...world, store: dyingStore, writer: world.repo, names: world.directory });
      void crashed.open(record, world.repo.branchHead()!, false);
      while (!world.repo.calls.includes('openPullRequest')) await settle();
      return { ...world, record };
    }

    it('leaves the promotion alone while the crashed opener’s lease runs', async () => {
      const { opener, record, store, repo, clock } = await crashAfterOpeningThePr();
      // The lease (30 s by default) ran from the crashed opener's last step, its commit.
      clock.advance({ seconds: 29 });

      await opener.reconcileAbandoned((await store.get(record.id))!, 'promotions-gate');

      expect(await store.get(record.id)).toMatchObject({ status: 'open', pullRequest: { number: 0 } });
      expect(repo.calls).not.toContain('findOpenPullRequests');
    });

    it('adopts the PR the crashed opener left behind once its lease ended, and opens no second one', async () => {
      const { opener, record, store, repo, clock } = await crashAfterOpeningThePr();
      clock.advance({ seconds: 60 });

      await opener.reconcileAbandoned((await store.get(record.id))!, 'promotions-gate');

      expect(repo.pullRequests()).toHaveLength(1);
      expect(await store.get(record.id)).toMatchObject({
        status: 'open',
        pullRequest: { number: 1 },
        branch: record.branch,
        leaseExpiresAt: undefined,
      });
      expect((await store.listEvents(record.id)).at(-1)).toMatchObject({
        type: 'pr-opened',
        actor: 'promotions-gate',
        detail: expect.stringMatching(/^adopted .*: its record did not name it \(the request that opened it ended first, or the record was restored from it\)$/),
      });
      expect(repo.labelsOf(1)).toEqual(['promotion', 'stage:uat', 'product:alpha-shop']);
    });

    it('fails the promotion and deletes its branch when the crash came before the PR', async () => {
      const world = promotionsWorld();
      const record = await world.request('uat', { api: digest('b') }, { open: false });
      const dyingRepo = dyingAt(world.repo, method => method === 'openPullRequest');
      const crashed = new PromotionOpener({ ...world, writer: dyingRepo, names: world.directory });
      void crashed.open(record, world.repo.branchHead()!, false);
      while (!world.repo.calls.includes('commitFile')) await settle();
      expect(world.repo.branchHead(record.branch!)).toBeDefined();

      world.clock.advance({ minutes: 2 });
      await world.opener.reconcileAbandoned((await world.store.get(record.id))!, 'promotions-gate');

      expect(await world.store.get(record.id)).toMatchObject({
        status: 'failed',
        statusReason: expect.stringMatching(/^The request opening its pull request stopped before it finished/),
      });
      expect(world.repo.branchHead(record.branch!)).toBeUndefined();
      expect(world.repo.pullRequests()).toEqual([]);
    });
  });
});
