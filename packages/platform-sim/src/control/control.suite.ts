import { execFileSync } from 'node:child_process';
import express from 'express';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { RunningSim, startPlatformSim } from '../sim';
import { optionsFromArgs } from '../cli/main';
import { seedDigest } from '../seed/seedData';
import {
  FAST_TIMINGS,
  fileTestSim,
  getJson,
  octokitFor,
  postJson,
  startTestSim,
  waitFor,
} from '../__testUtils__/testSim';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A receiver standing in for the events backend's HTTP ingress: keeps what it was sent. */
async function startReceiver(status: number) {
  const received: unknown[] = [];
  const app = express().use(express.json());
  app.post('/api/events/http/promotions.incidents', (req, res) => {
    received.push(req.body);
    res.status(status).json({ status: 'accepted' });
  });
  const server = http.createServer(app);
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/events/http/promotions.incidents`;
  return { url, received, close: () => new Promise(resolve => server.close(resolve)) };
}

export function controlSuite(): void {
  describe('the simulator controls', () => {
    describe('the /_sim controls', () => {
      let sim: RunningSim;
      const argo = (route: string) =>
        getJson(`${sim.argocdUrl}${route}`, sim.tokens.argocd);

      beforeAll(async () => {
        // The file's simulator with the default options. Its first test reads the seeded
        // platform as a whole (every Application, at rest), so this suite runs before
        // any other that adds a Product to it, and it adds one itself (alpha/shop-two).
        sim = await fileTestSim();
      });
      afterEach(() => {
        sim.control.setArgocdDown(false);
        sim.control.clearFaults();
      });

      it('answers health and state', async () => {
        expect((await getJson(`${sim.url}/_sim/health`)).status).toBe(200);
        const { body: state } = await getJson(`${sim.url}/_sim/state`);
        expect(state.mainSha).toMatch(/^[0-9a-f]{40}$/);
        expect(state.apps).toHaveLength(10);
        expect(state.rollouts).toHaveLength(24);
        expect(
          state.apps.every(
            (app: any) =>
              app.syncStatus === 'Synced' && app.healthStatus === 'Healthy',
          ),
        ).toBe(true);
      });

      it('pushes a CI build into the dev Release as ci-bot, editing one line', async () => {
        const before = execFileSync(
          'git',
          [
            '--git-dir',
            sim.repoDir,
            'show',
            'main:gitops/releases/beta/payments/dev.yaml',
          ],
          { encoding: 'utf8' },
        );
        const digest = `sha256:${'d'.repeat(64)}`;
        const { status, body } = await postJson(`${sim.url}/_sim/ci/push`, {
          team: 'beta',
          product: 'payments',
          service: 'ledger',
          digest,
        });
        expect(status).toBe(201);
        expect(body.digest).toBe(digest);
        const after = execFileSync(
          'git',
          [
            '--git-dir',
            sim.repoDir,
            'show',
            'main:gitops/releases/beta/payments/dev.yaml',
          ],
          { encoding: 'utf8' },
        );
        const changed = after
          .split('\n')
          .filter((line, i) => line !== before.split('\n')[i]);
        expect(changed).toEqual([`      digest: ${digest}`]);
        const author = execFileSync(
          'git',
          [
            '--git-dir',
            sim.repoDir,
            'log',
            '-1',
            '--format=%an <%ae>',
            body.commit,
          ],
          { encoding: 'utf8' },
        ).trim();
        expect(author).toBe('ci-bot <ci-bot@refplat.org>');

        expect(
          (
            await postJson(`${sim.url}/_sim/ci/push`, {
              team: 'beta',
              product: 'payments',
              service: 'nope',
            })
          ).status,
        ).toBe(422);
        expect(
          (
            await postJson(`${sim.url}/_sim/ci/push`, {
              team: 'gamma',
              product: 'x',
              service: 'y',
            })
          ).status,
        ).toBe(404);
        expect(
          (
            await postJson(`${sim.url}/_sim/ci/push`, {
              team: 'beta',
              product: 'payments',
              service: 'ledger',
              digest: 'latest',
            })
          ).status,
        ).toBe(400);
      });

      it('takes Argo CD and the Kubernetes API down and up again', async () => {
        expect(
          (await postJson(`${sim.url}/_sim/argocd/down`, { down: true })).status,
        ).toBe(200);
        expect((await argo('/api/v1/applications')).status).toBe(503);
        expect(
          (
            await getJson(
              `${sim.kubernetesUrl}/apis/argoproj.io/v1alpha1/rollouts`,
              sim.tokens.kubernetes,
            )
          ).status,
        ).toBe(503);
        sim.control.setArgocdDown(true, 'reset');
        await expect(
          fetch(`${sim.argocdUrl}/api/v1/applications`),
        ).rejects.toThrow();
        await postJson(`${sim.url}/_sim/argocd/down`, { down: false });
        expect((await argo('/api/v1/applications')).status).toBe(200);
      });

      it('injects Argo CD and Kubernetes faults and logs every upstream request', async () => {
        await fetch(`${sim.url}/_sim/requests`, { method: 'DELETE' });
        await postJson(`${sim.url}/_sim/faults`, {
          target: 'argocd',
          path: '/api/v1/applications/alpha-shop-dev',
          count: 1,
          status: 500,
        });
        expect((await argo('/api/v1/applications/alpha-shop-dev')).status).toBe(
          500,
        );
        expect((await argo('/api/v1/applications/alpha-shop-dev')).status).toBe(
          200,
        );
        sim.control.addFault({ target: 'kubernetes', count: 1, status: 503 });
        const k8s = await getJson(
          `${sim.kubernetesUrl}/apis/argoproj.io/v1alpha1/rollouts`,
          sim.tokens.kubernetes,
        );
        expect(k8s.body).toMatchObject({ kind: 'Status', code: 503 });
        sim.control.addFault({ target: 'argocd', count: 1, latencyMs: 150 });
        const started = Date.now();
        expect((await argo('/api/v1/applications')).status).toBe(200);
        expect(Date.now() - started).toBeGreaterThanOrEqual(140);

        const { body } = await getJson(`${sim.url}/_sim/requests`);
        expect(
          body.requests.map((r: any) => [r.target, r.method, r.path, r.status]),
        ).toEqual([
          ['argocd', 'GET', '/api/v1/applications/alpha-shop-dev', 500],
          ['argocd', 'GET', '/api/v1/applications/alpha-shop-dev', 200],
          ['kubernetes', 'GET', '/apis/argoproj.io/v1alpha1/rollouts', 503],
          ['argocd', 'GET', '/api/v1/applications', 200],
        ]);
        expect(typeof body.requests[0].at).toBe('string');
      });

      it('forces an Application missing, Degraded or OutOfSync, and clears it', async () => {
        await postJson(`${sim.url}/_sim/apps/beta-payments-uat`, { missing: true });
        expect((await argo('/api/v1/applications/beta-payments-uat')).status).toBe(
          403,
        );
        expect(
          (await argo('/api/v1/applications?projects=beta')).body.items,
        ).toHaveLength(4);
        expect(
          (
            await getJson(
              `${sim.kubernetesUrl}/apis/argoproj.io/v1alpha1/namespaces/argocd/applications/beta-payments-uat`,
              sim.tokens.kubernetes,
            )
          ).status,
        ).toBe(404);

        await postJson(`${sim.url}/_sim/apps/beta-payments-uat`, {
          clear: true,
          health: 'Degraded',
          sync: 'OutOfSync',
        });
        const { body: app } = await argo('/api/v1/applications/beta-payments-uat');
        expect(app.status.health.status).toBe('Degraded');
        expect(app.status.sync.status).toBe('OutOfSync');

        await postJson(`${sim.url}/_sim/apps/beta-payments-uat`, { clear: true });
        const { body: cleared } = await argo(
          '/api/v1/applications/beta-payments-uat',
        );
        expect([cleared.status.health.status, cleared.status.sync.status]).toEqual([
          'Healthy',
          'Synced',
        ]);
        expect(
          (await postJson(`${sim.url}/_sim/apps/nope`, { health: 'Degraded' }))
            .status,
        ).toBe(404);
      });

      it('freezes a canary at its step until released', async () => {
        sim.control.setApp('beta-payments-test', { freezeCanary: true });
        // Change test's Release directly on main through the API.
        const octokit = octokitFor(sim);
        const releaseFile = 'gitops/releases/beta/payments/test.yaml';
        const { data: file } = (await octokit.repos.getContent({
          owner: 'refplat',
          repo: 'platform',
          path: releaseFile,
        })) as any;
        const text = Buffer.from(file.content, 'base64')
          .toString('utf8')
          .replace(/(gateway:\n\s+digest: )\S+/, `$1sha256:${'e'.repeat(64)}`);
        await octokit.repos.createOrUpdateFileContents({
          owner: 'refplat',
          repo: 'platform',
          path: releaseFile,
          sha: file.sha,
          message: 'direct edit',
          content: Buffer.from(text).toString('base64'),
        });

        const rolloutOf = () =>
          sim.control
            .getState()
            .rollouts.find(
              r => r.app === 'beta-payments-test' && r.name === 'gateway',
            )!;
        await waitFor(() => rolloutOf().phase === 'Progressing');
        // Frozen means no step however long it waits: the time of three steps
        // passing is the condition here, and a reconcile pass forced after it
        // proves the loop looked, however busy the machine.
        await new Promise(resolve =>
          setTimeout(resolve, 3 * FAST_TIMINGS.canaryStepMs!),
        );
        await sim.control.reconcileNow();
        expect(rolloutOf()).toMatchObject({
          phase: 'Progressing',
          currentStepIndex: 0,
          canaryWeight: 10,
        });
        sim.control.setApp('beta-payments-test', { freezeCanary: false });
        await waitFor(() => rolloutOf().phase === 'Healthy');
        expect(rolloutOf().stableDigest).toBe(`sha256:${'e'.repeat(64)}`);
      });

      it('adds a Product laid out and climbed as a seeded one, its Applications running what main says', async () => {
        const { status, body } = await postJson(`${sim.url}/_sim/products`, { product: 'shop-two', like: 'alpha/shop' });
        expect(status).toBe(201);
        expect(body).toEqual({ team: 'alpha', product: 'shop-two' });

        const release = (stage: string) =>
          execFileSync('git', ['--git-dir', sim.repoDir, 'show', `main:gitops/releases/alpha/shop-two/${stage}.yaml`], {
            encoding: 'utf8',
          });
        // alpha/shop's end state, with digests of its own
        expect(release('dev')).toContain(seedDigest('alpha', 'shop-two', 'storefront', 3));
        expect(release('prod')).toContain(seedDigest('alpha', 'shop-two', 'cart', 1));
        expect(release('uat')).not.toContain('checkout');
        const subjects = execFileSync(
          'git',
          ['--git-dir', sim.repoDir, 'log', '--format=%s', 'main', '--', 'gitops/releases/alpha/shop-two'],
          { encoding: 'utf8' },
        ).trim().split('\n');
        expect(subjects).toHaveLength(8);
        expect(subjects[0]).toBe('ci: alpha/shop-two storefront v3 to dev');
        expect(subjects[7]).toMatch(/^Add alpha\/shop-two, laid out as alpha\/shop was/);

        // Running already, as the seeded Products are at start: no sync, no canary.
        const apps = sim.control.getState().apps.filter(app => app.product === 'shop-two');
        expect(apps.map(app => app.stage).sort()).toEqual(['dev', 'prod', 'staging', 'test', 'uat']);
        for (const app of apps) {
          expect(app).toMatchObject({ syncStatus: 'Synced', healthStatus: 'Healthy' });
          expect(app.appliedDigests).toEqual(app.specDigests);
        }
        const { body: argoApp } = await argo('/api/v1/applications/alpha-shop-two-dev');
        expect(argoApp.status.history.length).toBeGreaterThan(1);

        expect((await postJson(`${sim.url}/_sim/products`, { product: 'shop-two', like: 'alpha/shop' })).status).toBe(409);
        expect((await postJson(`${sim.url}/_sim/products`, { product: 'x', like: 'alpha/nothing' })).status).toBe(400);
        expect((await postJson(`${sim.url}/_sim/products`, { product: 'Not A Name', like: 'alpha/shop' })).status).toBe(400);
      });

      /**
       * Stalls let a test kill a client while it waits on one exact upstream
       * call: 'stall' before the call has any effect, 'stall-response' after.
       */
      describe('stall faults', () => {
        const github = (method: string, route: string, body?: object, signal?: AbortSignal) =>
          fetch(`${sim.githubApiUrl}/repos/refplat/platform${route}`, {
            method,
            headers: { authorization: `token ${sim.tokens.github}`, 'content-type': 'application/json' },
            body: body ? JSON.stringify(body) : undefined,
            signal,
          });

        /** Sends a call that will stall, waits until the simulator holds it, then walks away from it. */
        async function abandonStalledCall(method: string, route: string, body?: object) {
          const client = new AbortController();
          const call = github(method, route, body, client.signal).catch(error => error);
          await waitFor(async () => sim.control.getState().faults.length === 0);
          client.abort();
          expect(await call).toMatchObject({ name: 'AbortError' });
        }

        it("'stall' holds a call without handling it: the branch is never created", async () => {
          const fault = sim.control.addFault({ target: 'github', method: 'POST', path: '/git/refs', kind: 'stall' });
          expect(sim.control.getState().faults).toEqual([expect.objectContaining({ id: fault.id, remaining: 1 })]);
          await abandonStalledCall('POST', '/git/refs', { ref: 'refs/heads/stalled', sha: sim.control.getState().mainSha });
          expect((await github('GET', '/git/ref/heads/stalled')).status).toBe(404);
        });

        it("'stall-response' handles a call and withholds the answer: the branch exists", async () => {
          sim.control.addFault({ target: 'github', method: 'POST', path: '/git/refs', kind: 'stall-response' });
          await abandonStalledCall('POST', '/git/refs', { ref: 'refs/heads/unanswered', sha: sim.control.getState().mainSha });
          // The handler finishes on its own time after the client went away.
          await waitFor(async () => (await github('GET', '/git/ref/heads/unanswered')).status === 200);
          expect((await github('GET', '/git/ref/heads/unanswered')).status).toBe(200);
        });

        it('applies a stall to one call only', async () => {
          sim.control.addFault({ target: 'github', method: 'GET', path: '/pulls', kind: 'stall' });
          await abandonStalledCall('GET', '/pulls');
          expect((await github('GET', '/pulls')).status).toBe(200);
        });
      });

      describe('the simulated incident tool', () => {
        const post = async (body: object) => {
          const response = await fetch(`${sim.url}/_sim/incidents`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          return { status: response.status, body: await response.json() };
        };

        it('opens a Product\'s incident once, reports it as the plugin takes incidents, shows its page and resolves it', async () => {
          const receiver = await startReceiver(202);
          sim.incidents.deliverTo(receiver.url);
          try {
            const opened = await post({ product: 'alpha/shop', state: 'open' });
            expect(opened.status).toBe(200);
            const url = `${sim.url}/incidents/${opened.body.incident.id}`;
            expect(opened.body).toEqual({
              incident: expect.objectContaining({ id: expect.stringMatching(/^INC-\d+$/), product: 'alpha/shop', state: 'open', url }),
              delivery: { url: receiver.url, status: 202 },
            });
            // Opening it again answers the open incident: one per Product.
            expect((await post({ product: 'alpha/shop', state: 'open' })).body.incident.id).toBe(opened.body.incident.id);

            const page = await fetch(url);
            expect(page.status).toBe(200);
            expect(await page.text()).toContain('State: <b data-testid="state">open</b>');

            const resolved = await post({ product: 'alpha/shop', state: 'resolved' });
            expect(resolved.body.incident).toMatchObject({ id: opened.body.incident.id, state: 'resolved' });
            const report = { product: 'alpha/shop', id: opened.body.incident.id, url };
            expect(receiver.received).toEqual([
              { ...report, state: 'open' },
              { ...report, state: 'open' },
              { ...report, state: 'resolved' },
            ]);
            expect((await post({ product: 'alpha/shop', state: 'resolved' })).status).toBe(404);
          } finally {
            sim.incidents.deliverTo(undefined);
            await receiver.close();
          }
        });

        it('answers 502 when the receiver refuses the report, and 400 for a malformed request', async () => {
          const receiver = await startReceiver(404);
          sim.incidents.deliverTo(receiver.url);
          try {
            const refused = await post({ product: 'beta/payments', state: 'open' });
            expect(refused.status).toBe(502);
            expect(refused.body.delivery).toMatchObject({ url: receiver.url, status: 404 });
          } finally {
            sim.incidents.deliverTo(undefined);
            await receiver.close();
          }
          expect((await post({ product: 'shop', state: 'open' })).status).toBe(400);
          expect((await post({ product: 'alpha/shop', state: 'closed' })).status).toBe(400);
          expect((await fetch(`${sim.url}/incidents/INC-999`)).status).toBe(404);
        });
      });
    });

    describe('restarting on the same data dir', () => {
      it('keeps the repository and pull requests and does not seed again', async () => {
        const dataDir = fs.mkdtempSync(
          path.join(os.tmpdir(), 'platform-sim-restart-'),
        );
        const first = await startTestSim({ dataDir });
        const octokit = octokitFor(first);
        const { data: main } = await octokit.git.getRef({
          owner: 'refplat',
          repo: 'platform',
          ref: 'heads/main',
        });
        await octokit.git.createRef({
          owner: 'refplat',
          repo: 'platform',
          ref: 'refs/heads/keep',
          sha: main.object.sha,
        });
        await octokit.repos.createOrUpdateFileContents({
          owner: 'refplat',
          repo: 'platform',
          path: 'notes.md',
          branch: 'keep',
          message: 'note',
          content: Buffer.from('hi\n').toString('base64'),
        });
        const { data: pr } = await octokit.pulls.create({
          owner: 'refplat',
          repo: 'platform',
          title: 'keep me',
          head: 'keep',
          base: 'main',
        });
        await first.stop();

        const second = await startPlatformSim({
          dataDir,
          reconcileIntervalMs: 20,
        });
        try {
          const again = octokitFor(second);
          expect(
            (
              await again.git.getRef({
                owner: 'refplat',
                repo: 'platform',
                ref: 'heads/main',
              })
            ).data.object.sha,
          ).toBe(main.object.sha);
          expect(
            (
              await again.pulls.get({
                owner: 'refplat',
                repo: 'platform',
                pull_number: pr.number,
              })
            ).data.title,
          ).toBe('keep me');
        } finally {
          await second.stop();
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      });
    });

    describe('the command line', () => {
      it('reads flags and PLATFORM_SIM_* variables', () => {
        process.env.PLATFORM_SIM_CANARY_STEP_MS = '1500';
        try {
          expect(
            optionsFromArgs([
              '--port',
              '0',
              '--canary-weights',
              '20,60',
              '--no-seed',
              '--data-dir=/tmp/x',
            ]),
          ).toMatchObject({
            port: 0,
            canaryWeights: [20, 60],
            canaryStepMs: 1500,
            seed: false,
            dataDir: '/tmp/x',
          });
          expect(optionsFromArgs([]).port).toBe(7070);
        } finally {
          delete process.env.PLATFORM_SIM_CANARY_STEP_MS;
        }
      });
    });
  });
}
