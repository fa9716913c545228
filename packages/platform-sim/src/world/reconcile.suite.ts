import { execFileSync } from 'node:child_process';
import { RunningSim } from '../sim';
import {
  PLATFORM_REPO_PLATFORM,
  PlatformShape,
  SEEDS_PLATFORM,
} from '../options';
import { setReleaseDigest } from '../platform/releaseFile';
import { digestFor } from '../seed/digests';
import { seedDigest } from '../seed/seedData';
import {
  fileTestSim,
  getJson,
  OBSERVABLE_SYNC,
  octokitFor,
  startTestSim,
  stopTestSim,
  waitFor,
} from '../__testUtils__/testSim';

interface Observation {
  sync: string;
  health: string;
  phase: string;
  step: number;
  weight: number;
  images: string[];
  abort: boolean;
}

interface ShapeCase {
  label: string;
  shape: PlatformShape;
  /** status.sync.revision(s) once main is at `mainSha`. */
  revisions(mainSha: string, appRepoHead: () => string): string[];
}

const SHAPES: ShapeCase[] = [
  {
    label: 'platform repo, Argo CD 2.14',
    shape: PLATFORM_REPO_PLATFORM,
    revisions: mainSha => [mainSha],
  },
  {
    label: 'app repo, Argo CD 3.x (the seeds)',
    shape: SEEDS_PLATFORM,
    revisions: (_mainSha, appRepoHead) => [appRepoHead()],
  },
  {
    label: 'multi-source, Argo CD 2.14',
    shape: { argocdVersion: '2', applicationSource: 'multi-source' },
    revisions: (mainSha, appRepoHead) => [appRepoHead(), mainSha],
  },
];

export function reconcileSuite(): void {
  describe.each(SHAPES)('the reconcile loop, $label', shapeCase => {
    let sim: RunningSim;

    beforeAll(async () => {
      // A sync delay long enough for the test to see OutOfSync before the sync runs (OBSERVABLE_SYNC).
      // The platform-repo shape's simulator is the Argo CD API suite's too, which reads it first.
      sim = await fileTestSim({ ...OBSERVABLE_SYNC, ...shapeCase.shape });
    });

    const appRepoHead = (team: string, product: string) => () =>
      execFileSync('git', ['rev-parse', 'refs/heads/main'], {
        cwd: sim.appRepoDir(team, product),
        encoding: 'utf8',
      }).trim();

    const revisionsOf = (app: any): string[] =>
      app.status.sync.revisions ?? [app.status.sync.revision];

    const getApp = async (name: string) =>
      (
        await getJson(
          `${sim.argocdUrl}/api/v1/applications/${name}`,
          sim.tokens.argocd,
        )
      ).body;

    /** One look at an Application and one of its Rollouts through the Argo CD API. */
    async function observe(app: string, service: string): Promise<Observation> {
      const { body } = await getJson(
        `${sim.argocdUrl}/api/v1/applications/${app}`,
        sim.tokens.argocd,
      );
      const query = new URLSearchParams({
        namespace: app,
        resourceName: service,
        kind: 'Rollout',
        group: 'argoproj.io',
        version: 'v1alpha1',
      });
      const resource = await getJson(
        `${sim.argocdUrl}/api/v1/applications/${app}/resource?${query}`,
        sim.tokens.argocd,
      );
      const rollout = JSON.parse(resource.body.manifest);
      return {
        sync: body.status.sync.status,
        health: body.status.health.status,
        phase: rollout.status.phase,
        step: rollout.status.currentStepIndex,
        weight: rollout.status.canary.weights.canary.weight,
        images: body.status.summary.images,
        abort: rollout.status.abort === true,
      };
    }

    /**
     * Observes until `done` holds, returning every distinct observation on the way.
     * The Application and the Rollout are two requests, so one observation may straddle
     * a transition; conditions therefore check both sides.
     */
    async function watch(
      app: string,
      service: string,
      done: (o: Observation) => boolean,
    ): Promise<Observation[]> {
      const seen: Observation[] = [];
      await waitFor(
        async () => {
          const observation = await observe(app, service);
          if (
            JSON.stringify(seen[seen.length - 1]) !== JSON.stringify(observation)
          )
            seen.push(observation);
          return done(observation);
        },
        15000,
        10,
      );
      return seen;
    }

    it('walks a CI push to dev: OutOfSync → canary 10% → higher weights → Synced + Healthy with the new digest', async () => {
      const oldImage = `registry.refplat.org/team-alpha/shop-cart@${seedDigest('alpha', 'shop', 'cart', 2)}`;
      const before = await observe('alpha-shop-dev', 'cart');
      expect(before).toMatchObject({
        sync: 'Synced',
        health: 'Healthy',
        phase: 'Healthy',
      });
      expect(before.images).toContain(oldImage);

      const { digest, commit } = await sim.control.ciPush({
        team: 'alpha',
        product: 'shop',
        service: 'cart',
      });
      const newImage = `registry.refplat.org/team-alpha/shop-cart@${digest}`;
      const seen = await watch(
        'alpha-shop-dev',
        'cart',
        o =>
          o.sync === 'Synced' &&
          o.health === 'Healthy' &&
          o.images.includes(newImage),
      );

      expect(seen.some(o => o.sync === 'OutOfSync')).toBe(true);
      const firstCanary = seen.findIndex(o => o.weight === 10);
      expect(firstCanary).toBeGreaterThan(-1);
      expect(
        seen.slice(firstCanary).some(o => o.weight > 10 && o.weight < 100),
      ).toBe(true);
      // A paused canary step is Suspended in Argo CD, and both images run while it lasts.
      // The Application and the Rollout are two reads, so look for one pair taken within the pause.
      const paused = seen.find(
        o => o.phase === 'Paused' && o.health === 'Suspended',
      );
      expect(paused).toBeDefined();
      expect(paused!.images).toEqual(
        expect.arrayContaining([oldImage, newImage]),
      );
      const last = seen[seen.length - 1];
      expect(last.images).not.toContain(oldImage);
      expect(last).toMatchObject({ phase: 'Healthy', step: 6, weight: 0 });

      const app = await getApp('alpha-shop-dev');
      const revisions = shapeCase.revisions(commit, appRepoHead('alpha', 'shop'));
      expect(revisionsOf(app)).toEqual(revisions);
      const { syncResult } = app.status.operationState;
      expect(syncResult.revisions ?? [syncResult.revision]).toEqual(revisions);
      const latest = app.status.history[app.status.history.length - 1];
      expect(latest.revisions ?? [latest.revision]).toEqual(revisions);
      // What was synced is what the spec asks for.
      expect(syncResult.source ?? syncResult.sources).toEqual(
        app.spec.source ?? app.spec.sources,
      );
      expect(Date.parse(app.status.reconciledAt)).toBeGreaterThanOrEqual(
        Date.parse(app.status.operationState.finishedAt),
      );
    });

    it('keeps an Application whose Release did not change Synced when main moves', async () => {
      const before = await getApp('beta-payments-prod');
      const { commit } = await sim.control.ciPush({
        team: 'alpha',
        product: 'shop',
        service: 'storefront',
      });
      await waitFor(() => sim.control.getState().mainSha === commit);
      // Two passes after main moved: the ApplicationSet's, then the controller's comparison.
      await sim.control.reconcileNow();
      await sim.control.reconcileNow();
      const app = await getApp('beta-payments-prod');
      expect(revisionsOf(app)).toEqual(
        shapeCase.revisions(commit, appRepoHead('beta', 'payments')),
      );
      expect(app.status.sync.status).toBe('Synced');
      expect(app.status.health.status).toBe('Healthy');
      // Only a comparison of a new platform-repo revision writes the Application.
      const revisionMoved = shapeCase.shape.applicationSource !== 'app-repo';
      expect(
        app.metadata.resourceVersion === before.metadata.resourceVersion,
      ).toBe(!revisionMoved);
    });

    it('rolls out a Release PR merged into a stage (alpha/shop prod ← staging cart)', async () => {
      const octokit = octokitFor(sim);
      const path = 'gitops/releases/alpha/shop/prod.yaml';
      const { data: main } = await octokit.git.getRef({
        owner: 'refplat',
        repo: 'platform',
        ref: 'heads/main',
      });
      await octokit.git.createRef({
        owner: 'refplat',
        repo: 'platform',
        ref: 'refs/heads/promote-prod-cart',
        sha: main.object.sha,
      });
      const { data: file } = (await octokit.repos.getContent({
        owner: 'refplat',
        repo: 'platform',
        path,
        ref: 'promote-prod-cart',
      })) as any;
      const newDigest = seedDigest('alpha', 'shop', 'cart', 2);
      const text = setReleaseDigest(
        Buffer.from(file.content, 'base64').toString('utf8'),
        'cart',
        newDigest,
      );
      await octokit.repos.createOrUpdateFileContents({
        owner: 'refplat',
        repo: 'platform',
        path,
        branch: 'promote-prod-cart',
        sha: file.sha,
        message: 'promote alpha/shop staging -> prod: cart',
        content: Buffer.from(text).toString('base64'),
      });
      const { data: pr } = await octokit.pulls.create({
        owner: 'refplat',
        repo: 'platform',
        title: 'Promote cart to prod',
        head: 'promote-prod-cart',
        base: 'main',
      });
      // The canary is held at its first step until seen: its controller runs on wall time, so a
      // watcher starved on a loaded machine could otherwise miss the 10% step altogether.
      sim.control.setApp('alpha-shop-prod', { freezeCanary: true });
      await octokit.pulls.merge({
        owner: 'refplat',
        repo: 'platform',
        pull_number: pr.number,
      });
      const newImage = `registry.refplat.org/team-alpha/shop-cart@${newDigest}`;
      const canary = await watch('alpha-shop-prod', 'cart', o => o.weight === 10 && o.images.includes(newImage));
      expect(canary[canary.length - 1]).toMatchObject({ weight: 10 });
      sim.control.setApp('alpha-shop-prod', { freezeCanary: false });

      const seen = await watch(
        'alpha-shop-prod',
        'cart',
        o => o.phase === 'Healthy' && o.health === 'Healthy' && o.images.includes(newImage),
      );
      expect(seen[seen.length - 1]).toMatchObject({
        sync: 'Synced',
        health: 'Healthy',
      });
    });

    it('aborts a bad digest at the first pause: Degraded, old digest still running', async () => {
      const oldImage = `registry.refplat.org/team-alpha/shop-checkout@${seedDigest('alpha', 'shop', 'checkout', 2)}`;
      const { digest } = await sim.control.ciPush({
        team: 'alpha',
        product: 'shop',
        service: 'checkout',
        bad: true,
      });
      const seen = await watch(
        'alpha-shop-dev',
        'checkout',
        o =>
          o.abort &&
          o.health === 'Degraded' &&
          o.weight === 0 &&
          o.images.includes(oldImage),
      );
      const last = seen[seen.length - 1];
      expect(last).toMatchObject({
        sync: 'Synced',
        health: 'Degraded',
        phase: 'Degraded',
        weight: 0,
        step: 0,
      });
      expect(last.images).toContain(oldImage);
      expect(last.images).not.toContain(
        `registry.refplat.org/team-alpha/shop-checkout@${digest}`,
      );

      // Per-resource health is in the resource tree in every Argo CD version.
      const { body: tree } = await getJson(
        `${sim.argocdUrl}/api/v1/applications/alpha-shop-dev/resource-tree`,
        sim.tokens.argocd,
      );
      const node = tree.nodes.find(
        (n: any) => n.kind === 'Rollout' && n.name === 'checkout',
      );
      expect(node.health.status).toBe('Degraded');
      expect(node.health.message).toMatch(
        /^RolloutAborted: Rollout aborted update to revision \d+: Metric "success-rate" assessed Failed/,
      );

      // A good digest afterwards starts a fresh canary and recovers.
      const good = await sim.control.ciPush({
        team: 'alpha',
        product: 'shop',
        service: 'checkout',
        digest: digestFor('checkout-fixed'),
      });
      await watch(
        'alpha-shop-dev',
        'checkout',
        o =>
          o.phase === 'Healthy' &&
          o.images.includes(`registry.refplat.org/team-alpha/shop-checkout@${good.digest}`),
      );
    });
  });

  describe('Products without an ApplicationSet (hasApplicationSet)', () => {
    let sim: RunningSim;
    const appNames = () => sim.control.getState().apps.map(app => app.name);

    beforeAll(async () => {
      // A function option: a simulator of its own (fileTestSim keys its pool by JSON).
      sim = await startTestSim({ hasApplicationSet: ({ product }) => product !== 'shop' });
    });

    afterAll(() => stopTestSim(sim));

    it('runs no Application for their Release records, also once main moves, and runs the other Products\'', async () => {
      expect(appNames().filter(name => name.startsWith('alpha-shop-'))).toEqual([]);
      expect(appNames().length).toBeGreaterThan(0);

      await sim.control.addProduct({ like: 'alpha/shop', product: 'cart' });
      await sim.control.ciPush({ team: 'alpha', product: 'shop', service: 'storefront' });
      await sim.control.reconcileNow();

      expect(appNames()).toEqual(expect.arrayContaining(['alpha-cart-dev', 'alpha-cart-prod']));
      expect(appNames().filter(name => name.startsWith('alpha-shop-'))).toEqual([]);
    });
  });
}
