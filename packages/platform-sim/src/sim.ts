import express from 'express';
import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { AppRepos } from './appRepo/appRepos';
import { keepIdleConnectionsLikeUpstreams } from './http/keepAlive';
import { createArgocdRouter } from './argocd/argocdRouter';
import { createControlRouter } from './control/controlRouter';
import { FaultInjector } from './control/faults';
import { OutageSwitch } from './control/outage';
import { RequestLog } from './control/requestLog';
import { SimControl } from './control/simControl';
import { SimController } from './control/simController';
import { FileCommitter } from './git/fileCommitter';
import { GitRepo } from './git/gitRepo';
import { Mutex } from './git/mutex';
import { otherRepositoryContexts } from './github/otherRepositoryContexts';
import { GithubContext } from './github/context';
import { MergeabilityJobs } from './github/mergeability';
import { createGithubRouter } from './github/githubRouter';
import { SecondaryWriteLimit } from './github/secondaryWriteLimit';
import { createCodeloadRouter } from './github/routes/archive';
import { RateLimiter } from './github/rateLimiter';
import { GithubResponder } from './github/responder';
import { GithubStore } from './github/store';
import { SimUrls } from './http/simUrls';
import { createWebRouter } from './http/webRoutes';
import { createCommitPages } from './http/commitPages';
import { UserDirectory } from './identity/users';
import { createKubernetesRouter } from './kubernetes/kubernetesRouter';
import { OpenStreams } from './control/openStreams';
import { resolveOptions, SimOptions } from './options';
import { IncidentDesk } from './incidents/incidentDesk';
import { createIncidentControlRoutes, createIncidentPages } from './incidents/incidentRoutes';
import { keepSeedSnapshot, restoreSeedSnapshot, seedSnapshotKey } from './seed/seedSnapshot';
import { seedPlatform } from './seed/seedPlatform';
import { ManifestContext } from './world/applicationManifest';
import { Reconciler } from './world/reconciler';
import { World } from './world/world';
import { startCiSupplyChain } from './registry/ciSupplyChain';
import { seededBuilds } from './registry/seededBuilds';
import type { BuildIdentities } from './registry/publishBuild';
import { SourceRepos } from './sourceRepo/sourceRepos';
import { pushPayload } from './webhooks/webhookPayloads';
import { createWebhookRoutes } from './webhooks/webhookRoutes';
import { WebhookSender } from './webhooks/webhookSender';

/** A running simulator. */
export interface RunningSim {
  /** e.g. http://127.0.0.1:7070 */
  url: string;
  /** octokit baseUrl: url + '/github' */
  githubApiUrl: string;
  /** Argo CD baseUrl: url + '/argocd' */
  argocdUrl: string;
  /** Kubernetes cluster server: url + '/k8s' */
  kubernetesUrl: string;
  tokens: { github: string; argocd: string; kubernetes: string };
  /** The bare git repository behind the simulated GitHub repo (inside options.dataDir). */
  repoDir: string;
  /** The bare git repository of a Product's app repo (inside options.dataDir; it exists once an Application syncs it). */
  appRepoDir(team: string, product: string): string;
  /** The bare git repository of a Product's source repository, `<owner>/<product>` (it exists once CI built the Product). */
  sourceRepoDir(product: string): string;
  options: SimOptions;
  control: SimControl;
  /** The platform repo's webhook: configure a receiver, read recent deliveries. */
  webhooks: WebhookSender;
  /** The simulated incident tool: open and resolve a Product's incident, set where they are reported. */
  incidents: IncidentDesk;
  /**
   * With `options.registry`: where CI pushes, the trusted root of the Sigstore that signs (also served at
   * `trustedRootUrl`), and who signs: the workflows of each Product's source repository, which this
   * simulator serves (`<url>/web/<owner>/<product>`, and `<owner>/<product>` through its GitHub API).
   */
  registry?: { url: string; trustedRoot: object; trustedRootUrl: string; identities: BuildIdentities };
  /** Stops the loop and the server; removes the data dir only if the simulator created it. */
  stop(): Promise<void>;
}

/** Starts GitHub, Argo CD and Kubernetes stand-ins on one port, with the reconcile loop running. */
export async function startPlatformSim(
  partial: Partial<SimOptions> = {},
): Promise<RunningSim> {
  const options = resolveOptions(partial);
  // A temp dir we made is ours to remove; a dir the caller named is theirs to keep.
  const ownsDataDir = !partial.dataDir;
  // A seed into a data dir of our own may be copied from this process's last one.
  // A seed of real builds lives in a registry as well as here: it is not copied.
  const snapshotKey = options.seed && ownsDataDir && !options.seedBuilds ? seedSnapshotKey(options) : undefined;
  const restored = snapshotKey !== undefined && restoreSeedSnapshot(snapshotKey, options.dataDir);
  const repoDir = path.join(options.dataDir, `${options.repo}.git`);
  const repo = await GitRepo.open(repoDir);
  const lock = new Mutex();
  const committer = new FileCommitter(repo, lock);
  const users = new UserDirectory(Object.values(options.tokens));

  const world = new World(
    { weights: options.canaryWeights, stepMs: options.canaryStepMs },
    options.badDigests,
  );
  const appRepos = new AppRepos(
    path.join(options.dataDir, 'app-repos'),
    world.steps,
    options.imageNaming,
  );
  // Listening before seeding: a build's provenance names its source repository by the
  // simulator's own address. Until everything is wired (below), a request is told to come back.
  let app: express.Express | undefined;
  const server = http.createServer((req, res) => {
    if (app) {
      app(req, res);
      return;
    }
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end(JSON.stringify({ message: 'platform-sim is starting' }));
  });
  keepIdleConnectionsLikeUpstreams(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  try {
    const urls = new SimUrls();
    urls.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // CI builds a new commit of the Product's source repository each time.
    const sourceRepos = new SourceRepos(path.join(options.dataDir, 'source-repos'), options.owner);
    await sourceRepos.openExisting();
    const supplyChain = options.registry
      ? await startCiSupplyChain(options.registry, options.sigstore, {
          // The source repositories' pages are at the simulator's root, as github.com's are at its.
          owner: `${urls.base}/${options.owner}`,
          sourceCommit: build => sourceRepos.change(build.product, build.service),
        })
      : undefined;
    if (options.seed) {
      await seedPlatform(repo, committer, users, {
        demoProducts: options.demoProducts,
        ...(options.seedBuilds && supplyChain ? { digestOf: seededBuilds(supplyChain) } : {}),
      });
    }
    const reconciler = new Reconciler(repo, appRepos, world, {
      intervalMs: options.reconcileIntervalMs,
      syncDelayMs: options.syncDelayMs,
      applicationSource: options.applicationSource,
      imageNaming: options.imageNaming,
      hasApplicationSet: options.hasApplicationSet,
    });
    await reconciler.initialize();
    if (snapshotKey !== undefined && !restored) keepSeedSnapshot(snapshotKey, options.dataDir);

    const limiter = new RateLimiter(options.rateLimit);
    const faults = new FaultInjector();
    const outage = new OutageSwitch();
    const requestLog = new RequestLog();
    const store = new GithubStore(
      path.join(options.dataDir, 'github-store.json'),
    );
    const githubContext: GithubContext = {
      repo,
      committer,
      lock,
      store,
      users,
      owner: options.owner,
      repoName: options.repo,
      repoId: 4242,
      description:
        'Platform repository: Release records and Environments (simulated)',
      urls,
      responder: new GithubResponder(limiter),
      mergeability: new MergeabilityJobs(),
      treeEntryLimit: options.treeEntryLimit,
      webhooks: new WebhookSender(options.webhooks),
      deleteBranchOnMerge: options.deleteBranchOnMerge,
      requiredStatusChecks: options.requiredStatusChecks ?? [],
    };
    const webhooks = githubContext.webhooks!;
    // Every ref write after seeding (merges, contents API, git data, CI pushes) is a push.
    repo.onRefUpdate(update => webhooks.send('push', () => pushPayload(githubContext, update)));
    const streams = new OpenStreams();
    const control = new SimController({
      streams,
      repo,
      lock,
      committer,
      users,
      world,
      reconciler,
      faults,
      outage,
      requestLog,
      limiter,
      publishBuild: supplyChain?.publish,
    });
    // URLs are known once the server listens, so the context is built per request.
    const manifestContext = (): ManifestContext => ({
      argocdVersion: options.argocdVersion,
      sources: {
        shape: options.applicationSource,
        imageNaming: options.imageNaming,
        platformRepoURL: `${urls.web}/${options.owner}/${options.repo}.git`,
        appRepoURL: ({ team, product }) =>
          `${urls.web}/${team}/${AppRepos.repoName(product)}.git`,
      },
    });

    const wired = express();
    wired.disable('x-powered-by');
    // ETags are computed where GitHub sends them; express's own weak ETags would blur that.
    wired.set('etag', false);
    wired.set('trust proxy', false);
    const otherRepository = otherRepositoryContexts((owner, name) => appRepos.find(owner, name) ?? sourceRepos.find(owner, name), {
      users,
      urls,
      responder: githubContext.responder,
      treeEntryLimit: options.treeEntryLimit,
    });
    wired.use(
      '/github',
      createGithubRouter(githubContext, {
        tokens: options.tokens,
        limiter,
        faults,
        requestLog,
        otherRepository,
        writeLimit: options.writeLimits && new SecondaryWriteLimit(options.writeLimits),
      }),
    );
    const anyRepository = (owner: string, name: string) =>
      owner.toLowerCase() === githubContext.owner.toLowerCase() && name.toLowerCase() === githubContext.repoName.toLowerCase()
        ? githubContext
        : otherRepository(owner, name);
    // Where GET /repos/{o}/{r}/tarball/{ref} redirects to, as GitHub's codeload host.
    wired.use(
      '/codeload',
      createCodeloadRouter({
        requestLog,
        repository: anyRepository,
      }),
    );
    wired.use(
      '/argocd',
      createArgocdRouter({
        world,
        token: options.argocdToken,
        faults,
        requestLog,
        outage,
        streams,
        manifestContext,
      }),
    );
    wired.use(
      '/k8s',
      createKubernetesRouter({
        world,
        token: options.kubernetesToken,
        faults,
        requestLog,
        outage,
        streams,
        manifestContext,
      }),
    );
    const incidents = new IncidentDesk(id => `${urls.base}/incidents/${id}`, options.incidentsUrl);
    wired.use('/_sim/webhooks', createWebhookRoutes(webhooks));
    wired.use('/_sim/incidents', createIncidentControlRoutes(incidents));
    wired.use('/incidents', createIncidentPages(incidents));
    wired.use('/_sim', createControlRouter(control));
    const commitPages = createCommitPages(anyRepository);
    wired.use('/web', commitPages, createWebRouter(store, options.owner, options.repo));
    if (supplyChain) {
      // What a platform's config points its verifier at for a private Sigstore.
      wired.get('/sigstore/trusted_root.json', (_req, res) => {
        res.json(supplyChain.trustedRoot);
      });
    }
    wired.get('/', (_req, res) => {
      res.json({
        name: 'platform-sim',
        github: urls.github,
        argocd: urls.argocd,
        kubernetes: urls.kubernetes,
        control: `${urls.base}/_sim`,
        ...(supplyChain ? { registry: supplyChain.registryUrl, trustedRoot: `${urls.base}/sigstore/trusted_root.json` } : {}),
      });
    });
    // A provenance's source repository (`<base>/<owner>/<product>`), as on github.com.
    wired.use(commitPages);

    app = wired;
    reconciler.start();

    let stopping: Promise<void> | undefined;
    return {
      url: urls.base,
      githubApiUrl: urls.github,
      argocdUrl: urls.argocd,
      kubernetesUrl: urls.kubernetes,
      tokens: {
        github: Object.keys(options.tokens)[0] ?? '',
        argocd: options.argocdToken,
        kubernetes: options.kubernetesToken,
      },
      repoDir,
      appRepoDir: (team, product) => appRepos.gitDir({ team, product }),
      sourceRepoDir: product => sourceRepos.gitDir(product),
      options,
      control,
      webhooks,
      incidents,
      ...(supplyChain
        ? {
            registry: {
              url: supplyChain.registryUrl,
              trustedRoot: supplyChain.trustedRoot,
              trustedRootUrl: `${urls.base}/sigstore/trusted_root.json`,
              identities: supplyChain.identities,
            },
          }
        : {}),
      stop() {
        stopping ??= (async () => {
          await reconciler.stop();
          await new Promise<void>(resolve => {
            server.close(() => resolve());
            server.closeAllConnections();
          });
          // Writes still queued finish before the data dir may be removed.
          await lock.run(async () => undefined);
          await supplyChain?.stop();
          if (ownsDataDir)
            fs.rmSync(options.dataDir, { recursive: true, force: true });
        })();
        return stopping;
      },
    };
  } catch (error) {
    // A start that failed after listening leaves no port open behind it.
    server.close();
    throw error;
  }
}
