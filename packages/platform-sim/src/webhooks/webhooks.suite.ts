import http from 'node:http';
import { AddressInfo } from 'node:net';
import { RunningSim } from '../sim';
import { fileTestSim, octokitFor, waitFor } from '../__testUtils__/testSim';
import { seedDigest } from '../seed/seedData';
import { setReleaseDigest } from '../platform/releaseFile';
import { signWebhookBody } from './webhookSender';

const owner = 'refplat';
const repo = 'platform';
const SECRET = 'hook-secret';
/** This suite's Product, laid out as alpha/shop: the seed's Products are other suites'. */
const PRODUCT = 'shop-webhooks';

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
}

/** A webhook receiver that records what arrives and answers 202. */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', chunk => (raw += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, raw, body: JSON.parse(raw) });
      res.statusCode = 202;
      res.end();
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, stop: () => new Promise(resolve => server.close(resolve)) };
}

export function webhooksSuite(): void {
  describe('webhooks from the simulated GitHub', () => {
    let sim: RunningSim;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    beforeAll(async () => {
      receiver = await startReceiver();
      // The file's simulator with the default options, shared with suites that read and
      // change alpha/shop: this suite works on a Product of its own, added before the
      // webhook is configured so that the receiver gets this suite's events only.
      sim = await fileTestSim();
      await sim.control.addProduct({ like: 'alpha/shop', product: PRODUCT });
      // As a test does once its receiver listens: through the control API.
      const response = await fetch(`${sim.url}/_sim/webhooks`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, secret: SECRET }),
      });
      if (response.status !== 200) throw new Error(`PUT /_sim/webhooks answered ${response.status}`);
    });
    afterAll(async () => {
      // The simulator goes on to other suites: no webhook for them (the last test removes it too).
      sim?.webhooks.configure(undefined);
      await sim?.webhooks.idle();
      await receiver.stop();
    });

    const ofEvent = (event: string) =>
      receiver.received.filter(r => r.headers['x-github-event'] === event);

    it('is configured through the control API', async () => {
      const response = await fetch(`${sim.url}/_sim/webhooks`);
      expect(await response.json()).toMatchObject({ configured: true });
    });

    it('signs every delivery and sends push, pull_request closed (merged) and status for a PR merged by hand', async () => {
      const octokit = octokitFor(sim);
      const alice = octokitFor(sim, 'sim-alice-token');
      const path = `gitops/releases/alpha/${PRODUCT}/test.yaml`;
      const base = (await octokit.git.getRef({ owner, repo, ref: 'heads/main' })).data.object.sha;
      const branch = 'promotions/webhook-test';
      await octokit.git.createRef({ owner, repo, ref: `refs/heads/${branch}`, sha: base });
      const { data: file } = await octokit.repos.getContent({ owner, repo, path, ref: base });
      if (Array.isArray(file) || file.type !== 'file') throw new Error('expected a file');
      const text = Buffer.from(file.content, 'base64').toString('utf8');
      const { data: put } = await octokit.repos.createOrUpdateFileContents({
        owner,
        repo,
        path,
        branch,
        sha: file.sha,
        message: 'promote storefront',
        content: Buffer.from(
          setReleaseDigest(text, 'storefront', seedDigest('alpha', PRODUCT, 'storefront', 3)),
        ).toString('base64'),
      });
      const { data: pr } = await octokit.pulls.create({ owner, repo, title: 'Promote', head: branch, base: 'main' });
      await octokit.repos.createCommitStatus({
        owner,
        repo,
        sha: put.commit.sha!,
        state: 'success',
        context: 'promotions/health',
      });
      const { data: merge } = await alice.pulls.merge({ owner, repo, pull_number: pr.number });

      const closed = await waitFor(() => ofEvent('pull_request').find(r => r.body.number === pr.number));
      await sim.webhooks.idle();

      for (const delivery of receiver.received) {
        expect(delivery.headers['content-type']).toBe('application/json');
        expect(delivery.headers['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/);
        expect(delivery.headers['x-hub-signature-256']).toBe(signWebhookBody(SECRET, delivery.raw));
      }

      expect(closed.body).toMatchObject({
        action: 'closed',
        number: pr.number,
        pull_request: { merged: true, state: 'closed', head: { sha: put.commit.sha }, merged_by: { login: 'alice' } },
        repository: { full_name: 'refplat/platform' },
        sender: { login: 'alice' },
      });

      const mainPush = ofEvent('push').find(r => r.body.ref === 'refs/heads/main' && r.body.after === merge.sha);
      expect(mainPush?.body).toMatchObject({ before: base, created: false, deleted: false, forced: false });
      // The branch's commit and the merge commit, oldest first, each with the paths it touched.
      expect(mainPush?.body.commits.map((c: any) => c.id)).toEqual([put.commit.sha, merge.sha]);
      expect(mainPush?.body.commits[1].modified).toEqual([path]);
      expect(mainPush?.body.head_commit.id).toBe(merge.sha);

      const branchPush = ofEvent('push').find(r => r.body.ref === `refs/heads/${branch}` && r.body.created);
      expect(branchPush?.body.before).toBe('0000000000000000000000000000000000000000');

      const status = ofEvent('status').find(r => r.body.sha === put.commit.sha);
      expect(status?.body).toMatchObject({ state: 'success', context: 'promotions/health', name: 'refplat/platform' });
      expect(sim.webhooks.deliveries().every(d => d.status === 202)).toBe(true);
    });

    it('sends a push for a CI commit and a pull_request closed (not merged) when a PR is closed', async () => {
      const octokit = octokitFor(sim);
      const { commit } = await sim.control.ciPush({ team: 'alpha', product: PRODUCT, service: 'storefront' });
      const push = await waitFor(() => ofEvent('push').find(r => r.body.after === commit));
      expect(push.body.commits.at(-1).modified).toEqual([`gitops/releases/alpha/${PRODUCT}/dev.yaml`]);

      const base = (await octokit.git.getRef({ owner, repo, ref: 'heads/main' })).data.object.sha;
      await octokit.git.createRef({ owner, repo, ref: 'refs/heads/to-close', sha: base });
      await octokit.repos.createOrUpdateFileContents({
        owner, repo, path: 'notes.txt', branch: 'to-close', message: 'note', content: Buffer.from('x').toString('base64'),
      });
      const { data: pr } = await octokit.pulls.create({ owner, repo, title: 'Close me', head: 'to-close', base: 'main' });
      await octokit.pulls.update({ owner, repo, pull_number: pr.number, state: 'closed' });
      const closed = await waitFor(() => ofEvent('pull_request').find(r => r.body.number === pr.number));
      expect(closed.body).toMatchObject({ action: 'closed', pull_request: { merged: false } });
    });

    it('delivers nothing once the webhook is removed', async () => {
      const response = await fetch(`${sim.url}/_sim/webhooks`, { method: 'DELETE' });
      expect(response.status).toBe(204);
      const before = receiver.received.length;
      await sim.control.ciPush({ team: 'alpha', product: PRODUCT, service: 'storefront' });
      await sim.webhooks.idle();
      expect(receiver.received.length).toBe(before);
    });
  });
}
