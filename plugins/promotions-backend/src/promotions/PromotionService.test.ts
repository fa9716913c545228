import { ConflictError, InputError } from '@backstage/errors';
import { PromotionEventInput, PromotionStore } from '@refplat/plugin-promotions-node';
import { PlatformRepoMethod } from '@refplat/plugin-promotions-node/testUtils';
import { releasePath } from '../ladder/readProductRecords';
import { SHOP, digest, promotionsWorld, releaseFile } from './__testUtils__/promotionsWorld';
import { dyingAt } from './__testUtils__/dying';
import { PromotionOpener } from './PromotionOpener';
import { parseMarker } from './pullRequestText';

/** Lets the microtasks of a call that will never answer run up to where it hangs. */
const settle = () => new Promise(resolve => setImmediate(resolve));

const ALICE = 'user:default/alice';
const BOB = 'user:default/bob';

/** The port methods that change something on GitHub. */
const WRITES: PlatformRepoMethod[] = [
  'createBranch',
  'commitFile',
  'openPullRequest',
  'addLabels',
  'closePullRequest',
  'comment',
  'setStatus',
  'mergePullRequest',
  'deleteBranch',
];

/** alpha/shop (dev runs `b`, uat and prod `a`, unless `releases` says otherwise), every stage running what it releases, healthy. */
function serviceWorld(options: Parameters<typeof promotionsWorld>[0] = {}) {
  const world = promotionsWorld(options);
  world.directory.setUser(BOB, { name: 'Bob Builder' });
  world.runAsReleased();
  const service = world.promotionService();
  const writes = () => world.repo.calls.filter(call => WRITES.includes(call));
  /** dev's Release record now names these digests, and dev runs them. */
  const releaseToDev = (services: Record<string, string>) => {
    world.repo.commit({ [releasePath(world.config, SHOP, 'dev')]: releaseFile('dev', services) });
    world.runAsReleased();
  };
  return { ...world, service, writes, releaseToDev };
}

describe('PromotionService', () => {
  it('opens a Release PR that writes the stage below’s digests into the stage, and records the promotion', async () => {
    const { service, repo, store, config, changed } = serviceWorld();

    const outcome = await service.request(SHOP, { toStage: 'uat' }, ALICE);

    const [pr] = repo.pullRequests();
    expect(outcome).toMatchObject({
      existing: false,
      plan: [{ service: 'api', included: true, from: digest('b'), to: digest('a') }],
      guards: [],
      promotion: {
        fromStage: 'dev',
        toStage: 'uat',
        services: { api: digest('b') },
        previousServices: { api: digest('a') },
        status: 'open',
        requestedBy: ALICE,
        pullRequest: { number: pr.number, url: pr.url },
        headSha: pr.headSha,
      },
    });
    expect(pr.state).toBe('open');
    expect(parseMarker(pr.body).id).toBe(outcome.promotion.id);
    expect((await repo.changedFiles(pr.headSha)).map(file => file.filename)).toEqual([releasePath(config, SHOP, 'uat')]);
    expect(repo.fileAt(pr.headSha, releasePath(config, SHOP, 'uat'))).toBe(releaseFile('uat', { api: digest('b') }));
    expect(await store.findLive(SHOP.team, SHOP.product, 'uat')).toMatchObject({ id: outcome.promotion.id, status: 'open' });
    expect(changed).toEqual([outcome.promotion.id]);
  });

  it('opens a promotion into an approval stage waiting for a release-approver', async () => {
    const { service, repo } = serviceWorld({
      releases: { dev: { api: digest('b') }, uat: { api: digest('b') }, prod: { api: digest('a') } },
    });

    const { promotion } = await service.request(SHOP, { toStage: 'prod' }, ALICE);

    expect(promotion).toMatchObject({ status: 'awaiting-approval', fromStage: 'uat', toStage: 'prod' });
    expect(repo.pullRequests()).toMatchObject([{ number: promotion.pullRequest.number, state: 'open' }]);
  });

  it('answers a repeated identical request with the promotion already open, and opens no second PR', async () => {
    const { service, repo, store } = serviceWorld();
    const first = await service.request(SHOP, { toStage: 'uat' }, ALICE);

    const again = await service.request(SHOP, { toStage: 'uat', services: ['api'] }, BOB);

    expect(again).toMatchObject({ existing: true, promotion: { id: first.promotion.id, requestedBy: ALICE } });
    expect(repo.pullRequests()).toHaveLength(1);
    expect(await store.listForProduct(SHOP.team, SHOP.product, 10)).toHaveLength(1);
  });

  it('makes one promotion of two identical requests at the same time', async () => {
    const { service, repo, store } = serviceWorld();

    const [one, other] = await Promise.all([
      service.request(SHOP, { toStage: 'uat' }, ALICE),
      service.request(SHOP, { toStage: 'uat' }, BOB),
    ]);

    expect(one.promotion.id).toBe(other.promotion.id);
    expect([one.existing, other.existing].sort()).toEqual([false, true]);
    expect(repo.pullRequests()).toMatchObject([{ number: 1, state: 'open' }]);
    expect(await store.listForProduct(SHOP.team, SHOP.product, 10)).toMatchObject([{ status: 'open' }]);
  });

  it('leaves one live promotion and one open PR when two different requests race', async () => {
    const { service, repo, store } = serviceWorld({
      releases: {
        dev: { api: digest('b'), web: digest('d') },
        uat: { api: digest('a'), web: digest('c') },
        prod: { api: digest('a'), web: digest('c') },
      },
    });

    const outcomes = await Promise.allSettled([
      service.request(SHOP, { toStage: 'uat', services: ['api'] }, ALICE),
      service.request(SHOP, { toStage: 'uat', services: ['web'] }, BOB),
    ]);

    // The later one supersedes the earlier; if that one was still opening its PR, its caller is told
    // (the PR it opened is closed, or, stopped at its lease's renewal, it opened none).
    for (const outcome of outcomes.filter(o => o.status === 'rejected')) {
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError);
      expect((outcome as PromiseRejectedResult).reason.message).toMatch(
        /^A newer request replaced this promotion into uat while its pull request was being opened(; #1 is closed)?$/,
      );
    }

    const live = await store.findLive(SHOP.team, SHOP.product, 'uat');
    const open = repo.pullRequests().filter(pr => pr.state === 'open');
    expect(open).toMatchObject([{ number: live!.pullRequest.number }]);
    const all = await store.listForProduct(SHOP.team, SHOP.product, 10);
    expect(all.map(p => p.status).sort()).toEqual(['closed', 'open']);
    expect(all.find(p => p.status === 'closed')!.statusReason).toBe('Superseded by a newer promotion request');
  });

  describe('when the request opening the same promotion died', () => {
    /** A request whose process dies at the call `diesAt` says, left hanging once `reached` was called. */
    async function diedOpening(world: ReturnType<typeof serviceWorld>, dying: { store?: PromotionStore; writer?: typeof world.repo }, reached: PlatformRepoMethod) {
      const crashed = new PromotionOpener({
        ...world,
        store: dying.store ?? world.store,
        writer: dying.writer ?? world.repo,
        names: world.directory,
      });
      void world.promotionService({ opener: crashed }).request(SHOP, { toStage: 'uat' }, ALICE);
      while (!world.repo.calls.includes(reached)) await settle();
    }

    it('adopts the PR it left behind once its lease ran out, and opens no second one', async () => {
      const world = serviceWorld();
      const dyingStore = dyingAt<PromotionStore>(
        world.store,
        (method, args) => method === 'transition' && (args[3] as PromotionEventInput | undefined)?.type === 'pr-opened',
      );
      await diedOpening(world, { store: dyingStore }, 'openPullRequest');
      world.clock.advance({ seconds: 60 });

      const { promotion, existing } = await world.service.request(SHOP, { toStage: 'uat' }, BOB);

      expect(existing).toBe(true);
      expect(promotion).toMatchObject({ status: 'open', requestedBy: ALICE, pullRequest: { number: 1 } });
      expect(world.repo.pullRequests()).toMatchObject([{ number: 1, state: 'open' }]);
      expect((await world.store.listEvents(promotion.id)).at(-1)).toMatchObject({ type: 'pr-opened', actor: BOB });
    });

    it('fails it and opens the promotion anew when it died before its PR', async () => {
      const world = serviceWorld();
      await diedOpening(world, { writer: dyingAt(world.repo, method => method === 'openPullRequest') }, 'commitFile');
      const [died] = await world.store.listForProduct(SHOP.team, SHOP.product, 1);
      world.clock.advance({ seconds: 60 });

      const { promotion, existing } = await world.service.request(SHOP, { toStage: 'uat' }, BOB);

      expect(existing).toBe(false);
      expect(promotion).toMatchObject({ status: 'open', requestedBy: BOB, pullRequest: { number: 1 } });
      expect(await world.store.get(died.id)).toMatchObject({ status: 'failed' });
      expect(world.repo.branchHead(died.branch!)).toBeUndefined();
      expect(world.repo.pullRequests()).toMatchObject([{ number: 1, state: 'open' }]);
    });

    it('answers 409 while its lease still runs, after waiting for it as long as the lease at most', async () => {
      const world = serviceWorld({ config: { gate: { openingLease: { seconds: 1 } } } });
      await diedOpening(world, { writer: dyingAt(world.repo, method => method === 'openPullRequest') }, 'commitFile');

      await expect(world.service.request(SHOP, { toStage: 'uat' }, BOB)).rejects.toThrow(
        new ConflictError(
          'The same promotion is being opened by another request and its pull request is not open yet; if that request stopped, the promotion is finished from GitHub once its lease ends in 1 s: try again then',
        ),
      );
      expect(world.repo.pullRequests()).toEqual([]);
    });
  });

  it('supersedes the open promotion with a newer request: the old PR is closed pointing at the new one, its branch deleted', async () => {
    const { service, repo, store, releaseToDev } = serviceWorld();
    const old = (await service.request(SHOP, { toStage: 'uat' }, ALICE)).promotion;
    releaseToDev({ api: digest('c') });

    const { promotion, existing } = await service.request(SHOP, { toStage: 'uat' }, BOB);

    expect(existing).toBe(false);
    expect(promotion).toMatchObject({ services: { api: digest('c') }, pullRequest: { number: 2 }, status: 'open' });
    expect(await store.get(old.id)).toMatchObject({
      status: 'closed',
      statusReason: 'Superseded by a newer promotion request',
    });
    expect(repo.pullRequests()).toMatchObject([
      { number: 1, state: 'closed', merged: false },
      { number: 2, state: 'open' },
    ]);
    expect(repo.commentsOn(1)).toEqual([
      `Superseded by #2 (requested by Bob Builder (\`bob\`)), which promotes api \`${digest('c')}\`.`,
    ]);
    expect(repo.branchHead(old.branch!)).toBeUndefined();
    expect(await store.findLive(SHOP.team, SHOP.product, 'uat')).toMatchObject({ id: promotion.id });
  });

  it('replaces an approved promotion with a newer one, which needs approving afresh', async () => {
    const { service, store, releaseToDev, repo, config } = serviceWorld({
      releases: { dev: { api: digest('b') }, uat: { api: digest('b') }, prod: { api: digest('a') } },
    });
    const old = (await service.request(SHOP, { toStage: 'prod' }, ALICE)).promotion;
    await store.transition(old.id, {}, { status: 'approved', approvedBy: BOB, approvedSha: old.headSha });
    repo.commit({ [releasePath(config, SHOP, 'uat')]: releaseFile('uat', { api: digest('c') }) });
    releaseToDev({ api: digest('c') });

    const { promotion } = await service.request(SHOP, { toStage: 'prod' }, ALICE);

    expect(promotion).toMatchObject({ services: { api: digest('c') }, status: 'awaiting-approval' });
    expect(promotion.approvedBy).toBeUndefined();
    expect(await store.get(old.id)).toMatchObject({ status: 'closed' });
    expect(repo.pullRequests().map(pr => pr.state)).toEqual(['closed', 'open']);
  });

  it('does not supersede when asked not to (the auto-promoter): 409, and the open promotion stays', async () => {
    const { service, repo, store, releaseToDev } = serviceWorld();
    const old = (await service.request(SHOP, { toStage: 'uat' }, ALICE)).promotion;
    releaseToDev({ api: digest('c') });

    await expect(service.request(SHOP, { toStage: 'uat' }, BOB, { supersede: false })).rejects.toThrow(
      new ConflictError('A different promotion into uat is open (#1); not superseding it'),
    );

    expect(await store.findLive(SHOP.team, SHOP.product, 'uat')).toMatchObject({ id: old.id, status: 'open' });
    expect(repo.pullRequests()).toMatchObject([{ number: 1, state: 'open' }]);
  });

  it('makes a promotion a guard wants approved wait for approval, even below the approval stages', async () => {
    const { promotionService, store } = serviceWorld();
    const service = promotionService({ guard: () => ({ verdict: 'needs-approval', reason: 'Incident INC-1 is open' }) });

    const { promotion, guards } = await service.request(SHOP, { toStage: 'uat' }, ALICE);

    expect(guards).toEqual([{ guard: 'change-window', verdict: 'needs-approval', reason: 'Incident INC-1 is open' }]);
    expect(await store.get(promotion.id)).toMatchObject({ status: 'awaiting-approval' });
  });

  describe('rolling back', () => {
    /** uat ran `a`, then `b` was released into it. */
    function rolledForward() {
      const world = serviceWorld();
      world.repo.commit({ [releasePath(world.config, SHOP, 'uat')]: releaseFile('uat', { api: digest('b') }) });
      world.runAsReleased();
      return world;
    }

    it("opens a PR writing the earlier digest back, and holds the stage's service so the auto-promoter does not undo it", async () => {
      const { service, repo, holds, config, clock } = rolledForward();

      const { promotion } = await service.rollback(SHOP, { stage: 'uat', services: { api: digest('a') } }, BOB);

      expect(promotion).toMatchObject({ kind: 'rollback', fromStage: 'uat', toStage: 'uat', status: 'open', services: { api: digest('a') } });
      expect(repo.fileAt(promotion.headSha!, releasePath(config, SHOP, 'uat'))).toBe(releaseFile('uat', { api: digest('a') }));
      expect(await holds.listLive(SHOP)).toEqual([
        {
          stage: 'uat',
          service: 'api',
          reason: `Rolled back to sha256:${'a'.repeat(12)} (PR #1)`,
          placedBy: BOB,
          placedAt: clock.now().toISOString(),
        },
      ]);
    });

    it("holds nothing on the bottom rung, which CI writes and the auto-promoter never promotes into (issue 45)", async () => {
      const world = serviceWorld();
      // CI released c, then d, into dev.
      world.repo.commit({ [releasePath(world.config, SHOP, 'dev')]: releaseFile('dev', { api: digest('c') }) });
      world.repo.commit({ [releasePath(world.config, SHOP, 'dev')]: releaseFile('dev', { api: digest('d') }) });
      world.runAsReleased();

      const { promotion } = await world.service.rollback(SHOP, { stage: 'dev', services: { api: digest('c') } }, BOB);

      expect(promotion).toMatchObject({ kind: 'rollback', toStage: 'dev', services: { api: digest('c') } });
      expect(await world.holds.listLive(SHOP)).toEqual([]);
    });

    it('refuses a digest the stage never ran, and places no hold', async () => {
      const { service, writes, holds } = rolledForward();

      await expect(service.rollback(SHOP, { stage: 'uat', services: { api: digest('e') } }, BOB)).rejects.toThrow(
        new ConflictError(`Rollback refused: ${digest('e')} is not in the recent history of api in uat`),
      );

      expect(writes()).toEqual([]);
      expect(await holds.listLive(SHOP)).toEqual([]);
    });
  });

  describe('refuses, and writes nothing,', () => {
    it('when the stage already carries every digest of the stage below', async () => {
      const { service, writes, store } = serviceWorld({
        releases: { dev: { api: digest('a') }, uat: { api: digest('a') }, prod: { api: digest('a') } },
      });

      await expect(service.request(SHOP, { toStage: 'uat' }, ALICE)).rejects.toThrow(
        new ConflictError('Promotion into uat refused: uat already carries every digest of dev'),
      );

      expect(writes()).toEqual([]);
      expect(await store.listForProduct(SHOP.team, SHOP.product, 10)).toEqual([]);
    });

    it('when the stage below is not healthy', async () => {
      const { service, writes, store, argo, repo } = serviceWorld();
      argo.setApplication(SHOP, 'dev', { health: 'Degraded', revision: repo.branchHead() });

      await expect(service.request(SHOP, { toStage: 'uat' }, ALICE)).rejects.toThrow(/^Promotion into uat refused: /);

      expect(writes()).toEqual([]);
      expect(await store.listForProduct(SHOP.team, SHOP.product, 10)).toEqual([]);
    });

    it("when the stage is held for the service, with the hold's reason, until the hold is lifted", async () => {
      const { service, writes, store, holds } = serviceWorld();
      await holds.place(SHOP, { stage: 'uat', service: 'api', reason: 'Investigating INC-7', placedBy: BOB });

      await expect(service.request(SHOP, { toStage: 'uat' }, ALICE)).rejects.toThrow(
        new ConflictError(`Promotion into uat refused: api is held in uat: Investigating INC-7 (by bob); lift the hold first`),
      );

      expect(writes()).toEqual([]);
      expect(await store.listForProduct(SHOP.team, SHOP.product, 10)).toEqual([]);
      await holds.lift(SHOP, 'uat', 'api', BOB);
      expect((await service.request(SHOP, { toStage: 'uat' }, ALICE)).promotion).toMatchObject({ status: 'open' });
    });

    it('while the digest below soaks, until its soak time has passed since it was first seen healthy', async () => {
      const { service, writes, clock } = serviceWorld({
        config: { stages: [{ name: 'dev', soakTime: { minutes: 10 } }, 'uat', 'prod'] },
      });

      await expect(service.request(SHOP, { toStage: 'uat' }, ALICE)).rejects.toThrow(
        new ConflictError('Promotion into uat refused: api is soaking in dev: 10m left'),
      );
      clock.advance({ minutes: 10 });

      expect(writes()).toEqual([]);
      expect((await service.request(SHOP, { toStage: 'uat' }, ALICE)).promotion).toMatchObject({ status: 'open' });
    });

    it('when a guard blocks it, at the clock’s time', async () => {
      const { promotionService, writes, store, clock } = serviceWorld();
      const asked: string[] = [];
      const service = promotionService({
        guard: () => {
          asked.push(clock.now().toISOString());
          return { verdict: 'block', reason: 'uat is frozen' };
        },
      });
      clock.advance({ hours: 3 });

      await expect(service.request(SHOP, { toStage: 'uat' }, ALICE)).rejects.toThrow(
        new ConflictError('Promotion into uat refused by policy: change-window: uat is frozen'),
      );

      expect(asked).toEqual(['2026-01-01T03:00:00.000Z']);
      expect(writes()).toEqual([]);
      expect(await store.listForProduct(SHOP.team, SHOP.product, 10)).toEqual([]);
    });

    it.each([
      ['an unknown stage', { toStage: 'qa' }, InputError, /^Unknown stage 'qa'/],
      ['an unknown service', { toStage: 'uat', services: ['cart'] }, InputError, /cart is not a service of alpha\/shop/],
      ['the first stage', { toStage: 'dev' }, ConflictError, /dev is the first stage/],
    ])('for %s', async (_what, request, errorClass, message) => {
      const { service, writes, store } = serviceWorld();

      const refusal = service.request(SHOP, request, ALICE);

      await expect(refusal).rejects.toThrow(errorClass);
      await expect(refusal).rejects.toThrow(message);
      expect(writes()).toEqual([]);
      expect(await store.listForProduct(SHOP.team, SHOP.product, 10)).toEqual([]);
    });

    it('for a Product the platform repo does not have', async () => {
      const { service, writes, store } = serviceWorld();

      await expect(service.request({ team: 'beta', product: 'cart' }, { toStage: 'uat' }, ALICE)).rejects.toThrow();

      expect(writes()).toEqual([]);
      expect(await store.listForProduct('beta', 'cart', 10)).toEqual([]);
    });
  });

  describe('reads for a request only what its decision needs', () => {
    /**
     * ArgoCD synced every stage at the commit before the head (a commit
     * elsewhere moved it), and uat's and prod's Rollouts are progressing: a
     * stage's health costs a tree of that commit and a read of the Rollouts.
     */
    function laggingWorld() {
      const world = serviceWorld();
      const synced = world.repo.branchHead()!;
      world.repo.commit({ 'README.md': 'The platform' });
      world.argo.runs(SHOP, 'dev', world.released('dev')!, synced);
      for (const stage of ['uat', 'prod']) {
        world.argo.setApplication(SHOP, stage, {
          revision: synced,
          images: [`registry.example/team-alpha/shop-api@${digest('a')}`],
          rollouts: { api: 'Progressing' },
        });
      }
      const healthCalls = (['listApplications', 'resourceHealth', 'liveRollouts'] as const).map(
        method => [method, jest.spyOn(world.argo, method)] as const,
      );
      /** What `act` asks the health source and reads of the platform repo. */
      const upstreamCalls = async (act: () => Promise<unknown>) => {
        const before = world.repo.calls.length;
        healthCalls.forEach(([, spy]) => spy.mockClear());
        await act();
        return {
          health: Object.fromEntries(healthCalls.map(([method, spy]) => [method, spy.mock.calls.length])),
          reads: world.repo.calls.slice(before).filter(call => !WRITES.includes(call)),
        };
      };
      return { ...world, upstreamCalls };
    }

    // The Product's files readied together (a small repository's tarball when few are cached), then read.
    const RECORDS = ['headCommit', 'fileIndex', 'prefetchBlobs', ...Array(6).fill('readBlob')];

    // Planning from the annotated ladder cost 3 health calls (the list, uat's and prod's Rollouts) and 12 reads
    // (the tree of the synced commit once per stage).
    it('a promotion: the Product’s records at the head, and the health of the stage below alone', async () => {
      const { service, upstreamCalls } = laggingWorld();

      const calls = await upstreamCalls(() => service.request(SHOP, { toStage: 'uat' }, ALICE));

      expect(calls).toEqual({
        health: { listApplications: 1, resourceHealth: 0, liveRollouts: 0 },
        // dev's synced commit, then the opener looking for the Release file on the branch.
        reads: [...RECORDS, 'fileIndex', 'readFileIfPresent'],
      });
    });

    it('a rollback: the Product’s records at the head, and no health at all', async () => {
      const { service, upstreamCalls, repo, config } = laggingWorld();
      repo.commit({ [releasePath(config, SHOP, 'uat')]: releaseFile('uat', { api: digest('b') }) });

      const calls = await upstreamCalls(() => service.rollback(SHOP, { stage: 'uat', services: { api: digest('a') } }, BOB));

      // From the annotated ladder: 3 health calls and 16 reads (each stage's synced tree, uat's Release there).
      expect(calls).toEqual({
        health: { listApplications: 0, resourceHealth: 0, liveRollouts: 0 },
        // uat's history (was the digest released there?), then the opener.
        reads: [...RECORDS, 'listCommits', 'readFileIfPresent', 'readFileIfPresent', 'readFileIfPresent'],
      });
    });
  });

  describe('when GitHub fails with a 5xx while writing', () => {
    it.each<[PlatformRepoMethod]>([['createBranch'], ['commitFile'], ['openPullRequest']])(
      'at %s: says so, leaves no branch, PR or live promotion, and a retry opens it',
      async method => {
        const { service, repo, store } = serviceWorld();
        repo.failNext(method, { status: 503 });

        await expect(service.request(SHOP, { toStage: 'uat' }, ALICE)).rejects.toThrow(
          /The platform repo failed while .* \(HTTP 503\)/,
        );

        const [failed] = await store.listForProduct(SHOP.team, SHOP.product, 10);
        expect(failed).toMatchObject({ status: 'failed', statusReason: expect.stringMatching(/^Could not open the Release PR: .*HTTP 503/) });
        expect(await store.findLive(SHOP.team, SHOP.product, 'uat')).toBeUndefined();
        expect(repo.branchHead(failed.branch!)).toBeUndefined();
        expect(repo.pullRequests()).toEqual([]);

        const retried = await service.request(SHOP, { toStage: 'uat' }, ALICE);
        expect(retried).toMatchObject({ existing: false, promotion: { status: 'open', pullRequest: { number: 1 } } });
      },
    );

    it('while closing the superseded PR: the new promotion stands, and the old PR is left to the reconciler', async () => {
      const { service, repo, store, releaseToDev, logger } = serviceWorld();
      const old = (await service.request(SHOP, { toStage: 'uat' }, ALICE)).promotion;
      releaseToDev({ api: digest('c') });
      repo.failNext('closePullRequest', { status: 502 });

      const { promotion } = await service.request(SHOP, { toStage: 'uat' }, BOB);

      expect(promotion).toMatchObject({ status: 'open', pullRequest: { number: 2 } });
      expect(await store.get(old.id)).toMatchObject({ status: 'closed' });
      expect(repo.pullRequests()).toMatchObject([{ number: 1, state: 'open' }, { number: 2, state: 'open' }]);
      expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/^Could not close superseded PR #1: .*HTTP 502/));
    });
  });
});
