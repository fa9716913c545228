import { mockCredentials } from '@backstage/backend-test-utils';
import { Octokit } from '@octokit/rest';
import type { FaultSpec, RunningSim } from '@refplat/platform-sim';
import type { Promotion, PromotionEvent } from '@refplat/plugin-promotions-common';
import { BackendProcess } from '../__testUtils__/backendProcess';
import { createFreshDatabase, postgresAnswers, POSTGRES_URL } from '../__testUtils__/freshPostgres';
import { sharedSim, TestProduct } from '../__testUtils__/sharedSimBackend';
import { FAST_SIM_TIMINGS, eventually, simAddresses } from '../__testUtils__/testBackend';
import { parseMarker } from '../promotions/pullRequestText';

/** Long enough for the victim to reach each kill point (GitHub writes are paced a second apart) before it ends. */
const LEASE_SECONDS = 10;
const GATE_SECONDS = 1;
/** Time the Gate gets to converge, beyond the lease and two of its cycles, on a busy 2-core machine. */
const BUSY_MACHINE_SLACK_MS = 30_000;
const GATE = {
  frequency: { seconds: GATE_SECONDS },
  openingLease: { seconds: LEASE_SECONDS },
  orphanGracePeriod: { seconds: 2 },
};
const REPO = { owner: 'refplat', repo: 'platform' };

const POSTGRES_HOST = new URL(POSTGRES_URL).host;
const [describeWithPostgres, where] = postgresAnswers()
  ? [describe, `on PostgreSQL at ${POSTGRES_HOST}`]
  : [describe.skip, `skipped: PostgreSQL does not answer at ${POSTGRES_HOST}`];

/** Crashes while opening a PR (was openingCrash.process.test.ts), on the file's simulator. */
export function openingCrashSuite() {
  /**
   * `kill -9` of the replica opening a promotion's PR, at each step, with the
   * simulator holding exactly the next GitHub call so the kill lands there.
   * The other replica (an OS process too, on the same PostgreSQL database)
   * runs the Gate; it must make GitHub and the database agree within the
   * lease plus two Gate cycles, and an identical retry must then succeed.
   */
  describeWithPostgres(`kill -9 while opening a PR (replicas as OS processes, ${where})`, () => {
    // The file's simulator, and a Product of the block's own: each case ends with its promotion closed.
    // A simulator of its own: the kill points are its next call of a kind, whoever makes it.
    const shared = sharedSim(FAST_SIM_TIMINGS, 'opening-crash');
    let sim: RunningSim;
    let shop: TestProduct;
    let database: Awaited<ReturnType<typeof createFreshDatabase>>;
    let survivor: BackendProcess;
    let github: Octokit;

    const processInput = (gate: object) => ({
      sim: simAddresses(sim),
      database: database.url,
      gate: { ...GATE, ...gate },
    });

    beforeAll(async () => {
      sim = shared.sim;
      shop = await shared.addProduct('alpha/shop');
      database = await createFreshDatabase();
      survivor = await BackendProcess.start(processInput({}));
      github = new Octokit({ baseUrl: sim.githubApiUrl, auth: sim.tokens.github });
    });

    afterAll(async () => {
      await survivor?.stop();
      await database?.drop();
    });

    const requestProd = (backend: BackendProcess) =>
      fetch(`${backend.url}/api/promotions/products/${shop.ref}/promotions`, {
        method: 'POST',
        headers: { authorization: mockCredentials.user.header('user:default/bob'), 'content-type': 'application/json' },
        body: JSON.stringify({ toStage: 'prod' }),
      });

    const getJson = async (path: string) =>
      (await fetch(`${survivor.url}/api/promotions${path}`, {
        headers: { authorization: mockCredentials.user.header('user:default/bob') },
      })).json();

    const newestPromotion = async (): Promise<Promotion & { branch?: string }> =>
      (await getJson(`/products/${shop.ref}/promotions`)).items[0];

    /** The open promotion PRs of the block's Product (other suites' Products have theirs on this simulator). */
    const openPromotionPulls = async () =>
      (await github.rest.pulls.list({ ...REPO, state: 'open', per_page: 100 })).data.filter(
        pr => parseMarker(pr.body ?? '').id && pr.head.ref.startsWith(shop.branchPrefix),
      );

    const promotionBranches = async () =>
      (await github.rest.git.listMatchingRefs({ ...REPO, ref: `heads/${shop.branchPrefix}` })).data.map(ref =>
        ref.ref.replace('refs/heads/', ''),
      );

    /** GitHub and the database tell the same story about the newest promotion (of the block's Product), or undefined. */
    async function agreement() {
      const [promotion, pulls, branches] = [await newestPromotion(), await openPromotionPulls(), await promotionBranches()];
      if (promotion.status === 'failed' && pulls.length === 0 && branches.length === 0) {
        return { outcome: 'failed, nothing left on GitHub', promotion };
      }
      const recorded =
        ['open', 'awaiting-approval'].includes(promotion.status) &&
        pulls.length === 1 &&
        pulls[0].number === promotion.pullRequest.number &&
        branches.length === 1 &&
        branches[0] === promotion.branch;
      return recorded ? { outcome: 'open and recorded', promotion } : undefined;
    }

    /** Every open promotion PR (of the block's Product) is the recorded PR of a live promotion. */
    async function expectNoUnknownPullRequest() {
      for (const pr of await openPromotionPulls()) {
        const { promotion } = await getJson(`/promotions/${parseMarker(pr.body ?? '').id}`);
        expect(promotion).toMatchObject({ status: 'awaiting-approval', pullRequest: { number: pr.number } });
      }
    }

    /** Ends the scenario's promotion by hand; the Gate notices and the reconciler sweeps its branch. */
    async function closeByHand(number: number) {
      await github.rest.pulls.update({ ...REPO, pull_number: number, state: 'closed' });
      await eventually(async () => {
        const done = (await newestPromotion()).status === 'closed' && (await promotionBranches()).length === 0;
        return done || undefined;
      }, 60_000);
    }

    it.each<[string, FaultSpec, string, RegExp, number]>([
      [
        'after the branch is created',
        { target: 'github', method: 'PUT', path: '/contents/', kind: 'stall' },
        'failed, nothing left on GitHub',
        // The Gate's run or the write queue's task (the reconciler), whichever comes first once the lease ends.
        /^failed promotions-(gate|reconciler) The request opening its pull request stopped before it finished/m,
        201,
      ],
      [
        'after the commit',
        { target: 'github', method: 'POST', path: '/pulls', kind: 'stall' },
        'failed, nothing left on GitHub',
        /^failed promotions-(gate|reconciler) The request opening its pull request stopped before it finished/m,
        201,
      ],
      [
        'after the PR is created',
        { target: 'github', method: 'POST', path: '/pulls', kind: 'stall-response' },
        'open and recorded',
        /^pr-opened promotions-(gate|reconciler) adopted \S+: its record did not name it \(the request that opened it ended first/m,
        200,
      ],
      [
        'before the labels',
        { target: 'github', method: 'POST', path: '/labels', kind: 'stall' },
        'open and recorded',
        /^pr-opened user:default\/bob http/m,
        200,
      ],
    ])('killed %s: the Gate makes GitHub and the database agree, and a retry succeeds', async (_step, fault, outcome, audit, retryStatus) => {
      // The victim serves requests only; the survivor runs the Gate.
      const victim = await BackendProcess.start(processInput({ enabled: false }));
      sim.control.addFault({ ...fault, count: 1 });
      const answer = requestProd(victim).catch(() => undefined);
      // The fault is used up once the victim's call is held: kill it right there.
      await eventually(async () => sim.control.getState().faults.length === 0 || undefined, 60_000);
      await victim.kill9();
      expect(await answer).toBeUndefined();

      const settled = await eventually(agreement, LEASE_SECONDS * 1000 + 2 * GATE_SECONDS * 1000 + BUSY_MACHINE_SLACK_MS);
      expect(settled.outcome).toBe(outcome);
      const { events } = await getJson(`/promotions/${settled.promotion.id}`);
      expect(events.map((e: PromotionEvent) => `${e.type} ${e.actor} ${e.detail}`).join('\n')).toMatch(audit);

      const retry = await requestProd(survivor);
      expect(retry.status).toBe(retryStatus);
      const { promotion } = await retry.json();
      const pulls = await openPromotionPulls();
      expect(pulls.map(pr => pr.number)).toEqual([promotion.pullRequest.number]);
      expect(promotion.status).toBe('awaiting-approval');
      await expectNoUnknownPullRequest();

      await closeByHand(promotion.pullRequest.number);
    });
  });

  /**
   * The same crash with the plugin's timings: the default lease (30 s from
   * the opener's last step on GitHub) and the Gate's default 30 s between
   * runs. The write queue's task (every 10 s, on one replica) finishes the
   * opening; the bar: settled within 60 s of the kill.
   */
  describeWithPostgres(`kill -9 while opening a PR, with the default lease and Gate (${where})`, () => {
    // A simulator of its own: the kill points are its next call of a kind, whoever makes it.
    const shared = sharedSim(FAST_SIM_TIMINGS, 'opening-crash');
    let database: Awaited<ReturnType<typeof createFreshDatabase>>;
    let survivor: BackendProcess;
    const defaults = (gate: object) => ({ sim: simAddresses(shared.sim), database: database.url, gate: { frequency: { seconds: 30 }, ...gate } });

    beforeAll(async () => {
      database = await createFreshDatabase();
      survivor = await BackendProcess.start(defaults({}));
    });

    afterAll(async () => {
      await survivor?.stop();
      await database?.drop();
    });

    it('killed after the commit: failed, its branch deleted, within 60 s of the kill', async () => {
      const shop = await shared.addProduct('alpha/shop');
      const victim = await BackendProcess.start(defaults({ enabled: false }));
      shared.sim.control.addFault({ target: 'github', method: 'POST', path: '/pulls', kind: 'stall', count: 1 });
      const answer = fetch(`${victim.url}/api/promotions/products/${shop.ref}/promotions`, {
        method: 'POST',
        headers: { authorization: mockCredentials.user.header('user:default/bob'), 'content-type': 'application/json' },
        body: JSON.stringify({ toStage: 'prod' }),
      }).catch(() => undefined);
      await eventually(async () => shared.sim.control.getState().faults.length === 0 || undefined, 60_000);
      await victim.kill9();
      const killedAt = Date.now();
      expect(await answer).toBeUndefined();

      const github = new Octokit({ baseUrl: shared.sim.githubApiUrl, auth: shared.sim.tokens.github });
      const settled = await eventually(async () => {
        const { items } = await (
          await fetch(`${survivor.url}/api/promotions/products/${shop.ref}/promotions`, {
            headers: { authorization: mockCredentials.user.header('user:default/bob') },
          })
        ).json();
        const branches = (await github.rest.git.listMatchingRefs({ ...REPO, ref: `heads/${shop.branchPrefix}` })).data;
        return items[0]?.status === 'failed' && branches.length === 0 ? items[0] : undefined;
      }, 90_000);
      const settledAfterMs = Date.now() - killedAt;

      expect(settled.statusReason).toMatch(/^The request opening its pull request stopped before it finished/);
      expect(settledAfterMs).toBeLessThan(60_000);
    });
  });
}
