import { execFile, execFileSync } from 'child_process';
import { promisify } from 'util';
import { Browser, Page } from 'playwright-core';
import { SharedStack } from '../sharedStack';
import { RunningStack, callPromotions, waitForPromotionStatus } from '../stack';
import { dialogOutcome, openSystem, screenshot, waitForTestId } from '../browser';
import { TRY_IT_DIR, tryItSection } from '../tryIt';

/**
 * The demo as a newcomer tries it: the "Try it" steps (README.md, else
 * docs/try-it.md), each case checking that its section still says what it
 * performs, on the demo world (the blog seeded, the demo's freeze, quorum and
 * incident gate from app-config.yaml) with the auto-promoter running.
 */
export function tryItSuite(shared: SharedStack): void {
  describe('the Try it steps, as written', () => {
    let stack: RunningStack;
    let browser: Browser;
    let bob: Page;

    beforeAll(async () => {
      // sim:incident runs the simulator's built CLI.
      execFileSync('npm', ['run', '--silent', 'build:sim'], { cwd: TRY_IT_DIR });
      ({ stack, browser } = shared);
      stack.sim.incidents.deliverTo(`${stack.baseUrl}/api/events/http/promotions.incidents`);
      bob = await openSystem(browser, stack.baseUrl, 'bob', 'blog');
    });

    afterAll(async () => {
      await bob?.close();
    });

    const digestOf = (page: Page, stage: string, service: string) =>
      page.getByTestId(`cell-${stage}-${service}`).getByTestId('digest').getAttribute('data-digest');

    /**
     * Runs a step's command in the repository against this test's simulator (asynchronously: the
     * simulator answers from this process); answers the last line it printed, after npm's banner.
     */
    const run = async (command: string) => {
      const { stdout } = await promisify(execFile)('sh', ['-c', command], {
        cwd: TRY_IT_DIR,
        env: { ...process.env, PLATFORM_SIM_URL: stack.sim.url },
        timeout: 60_000,
      });
      return stdout.trim().split('\n').pop();
    };

    /**
     * Runs a step's command lines in one shell, as one terminal would (an `export` reaches the next
     * line), against this test's backend: the demo's address, http://localhost:7007, is this stack's.
     * Answers the exit code and what it printed; a failing command is an answer, not an error.
     */
    const runInOneShell = (commands: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
      new Promise(resolve => {
        const script = commands.join('\n').split('http://localhost:7007').join(stack.baseUrl);
        execFile(
          'sh',
          ['-c', script],
          { cwd: TRY_IT_DIR, env: { ...process.env, BACKSTAGE_BACKEND: stack.baseUrl }, timeout: 60_000 },
          (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });

    it('by-hand: Bob promotes the blog into test himself, and the Gate merges it', async () => {
      const steps = tryItSection('by-hand');
      expect(steps.text).toContain("click Promote under test (dev's web is newer) and Submit");
      expect(steps.text).toContain('Requested: Release pull request #N');
      expect(steps.text).toContain('its status turns Merged');

      const devWeb = await digestOf(bob, 'dev', 'web');
      await waitForTestId(bob, 'request-promotion-test');
      await bob.getByTestId('request-promotion-test').click();
      await bob.getByTestId('promotion-dialog').waitFor();
      await bob.getByTestId('promotion-submit').click();
      const result = bob.getByTestId('promotion-result');
      await result.waitFor({ timeout: 30_000 });
      expect(await result.textContent()).toMatch(/Requested: Release pull request #\d+/);
      await bob.locator('[data-testid="promotion-status"][data-status="merged"]').waitFor({ timeout: 90_000 });
      await screenshot(bob, 'try-it-by-hand');
      await bob.keyboard.press('Escape');
      await bob.waitForFunction(
        digest => document.querySelector('[data-testid="cell-test-web"] [data-testid="digest"]')?.getAttribute('data-digest') === digest,
        devWeb,
        { timeout: 60_000 },
      );

      // Bob's own: the auto-promoter, running every few seconds, left the blog alone.
      const { body } = await callPromotions(stack.baseUrl, 'bob', 'GET', '/products/alpha/blog/promotions');
      expect(body.items.map((p: { toStage: string; requestedBy: string }) => `${p.toStage} by ${p.requestedBy}`)).toEqual([
        'test by user:default/bob',
      ]);
    });

    it("freeze: the blog's staging is frozen, Bob cannot promote into it, and a request answers 409", async () => {
      const steps = tryItSection('freeze');
      expect(steps.text).toContain("Frozen by blog-relaunch until …: The blog's staging is kept for the relaunch review");
      expect(steps.text).toContain('answers 409 Promotion into staging refused by policy: freeze: staging is frozen by blog-relaunch until …');

      const notice = bob.getByTestId('freeze-staging');
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(/^Frozen by blog-relaunch until .+: The blog's staging is kept for the relaunch review$/);
      expect(await bob.getByTestId('request-promotion-staging').isDisabled()).toBe(true);
      const refused = await callPromotions(stack.baseUrl, 'bob', 'POST', '/products/alpha/blog/promotions', { toStage: 'staging' });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toMatch(
        /^Promotion into staging refused by policy: freeze: staging is frozen by blog-relaunch until .+ UTC: The blog's staging is kept for the relaunch review$/,
      );

      // The CLI lines, as one terminal runs them: Bob's token from the demo sign-in, then the request.
      expect(steps.commands).toEqual([
        `export BACKSTAGE_TOKEN=$(curl -s -H 'x-demo-user: bob' -H 'x-requested-with: XMLHttpRequest' http://localhost:7007/api/auth/demo/refresh | node -p 'JSON.parse(require("fs").readFileSync(0)).backstageIdentity.token')`,
        'node packages/promotions-cli/bin/promotions request alpha/blog --to staging',
      ]);
      expect(steps.text).toContain('It exits with 3 and prints promotions: 409: Promotion into staging refused by policy: freeze: …');
      const cli = await runInOneShell(steps.commands);
      expect(cli.stderr.trim()).toMatch(
        /^promotions: 409: Promotion into staging refused by policy: freeze: staging is frozen by blog-relaunch until .+ UTC: The blog's staging is kept for the relaunch review$/,
      );
      expect(cli.code).toBe(3);
    });

    it("quorum: the blog's prod waits for a second approver, then merges", async () => {
      const steps = tryItSection('quorum');
      expect(steps.text).toContain('the promotion is Awaiting approval');
      expect(steps.text).toContain('it says 1 of 2 approvals and keeps waiting');
      expect(steps.text).toContain('Approve it too: it is approved, and the Gate merges it into prod');

      const requested = await callPromotions(stack.baseUrl, 'bob', 'POST', '/products/alpha/blog/promotions', { toStage: 'prod' });
      expect(requested.status).toBe(201);
      const id = requested.body.promotion.id;
      await waitForPromotionStatus(stack.baseUrl, id, 'awaiting-approval');
      const byAlice = await callPromotions(stack.baseUrl, 'alice', 'POST', `/promotions/${id}/approve`);
      expect(byAlice.status).toBe(200);
      expect(byAlice.body.promotion.status).toBe('awaiting-approval');
      expect(byAlice.body.promotion.statusReason).toMatch(/^1 of 2 approvals/);
      const byCarol = await callPromotions(stack.baseUrl, 'carol', 'POST', `/promotions/${id}/approve`);
      expect(byCarol.status).toBe(200);
      await waitForPromotionStatus(stack.baseUrl, id, 'merged', { timeoutMs: 90_000 });
    });

    it('incident: while sim:incident holds the shop’s prod, Bob’s promotion waits for Alice and then Dave, the incident commander', async () => {
      const steps = tryItSection('incident');
      expect(steps.commands).toEqual(['npm run sim:incident -- alpha shop --open', 'npm run sim:incident -- alpha shop --resolve']);
      expect(steps.text).toContain('(mode: approval)');
      expect(steps.text).toContain(
        "Incident INC-1 open: promotions into prod also need an incident commander's approval (incident-commanders)",
      );
      expect(steps.text).toContain('Click Promote under prod and Submit: the promotion is Awaiting approval');
      expect(steps.text).toContain('it says 1 of 1 approvals; an incident commander’s needed too and keeps waiting');
      expect(steps.text).toContain('Sign in as Dave and Approve it there too: it is approved, and the Gate merges it into prod');

      const opened = await run(steps.commands[0]);
      expect(opened).toMatch(
        new RegExp(`^Opened incident INC-1 of alpha/shop: ${stack.sim.url}/incidents/INC-1; reported to ${stack.baseUrl}/api/events/http/promotions.incidents \\(202\\)$`),
      );
      expect(steps.text).toContain(`Opened incident INC-1 of alpha/shop: http://127.0.0.1:7070/incidents/INC-1; reported to …`);

      // Bob: the notice, and his request into prod, which the incident holds.
      const shop = await openSystem(browser, stack.baseUrl, 'bob', 'shop');
      const notice = shop.getByTestId('incident-prod');
      await notice.waitFor({ timeout: 60_000 });
      expect(await notice.textContent()).toBe(
        "Incident INC-1 open: promotions into prod also need an incident commander's approval (incident-commanders)",
      );
      expect(await notice.getByRole('link', { name: 'INC-1' }).getAttribute('href')).toBe(`${stack.sim.url}/incidents/INC-1`);
      await shop.locator('[data-testid="request-promotion-prod"]:enabled').click({ timeout: 60_000 });
      await shop.getByTestId('promotion-dialog').waitFor();
      await shop.getByTestId('promotion-submit').click();
      await shop.getByTestId('promotion-result').waitFor({ timeout: 30_000 });
      await shop.locator('[data-testid="promotion-status"][data-status="awaiting-approval"]').waitFor({ timeout: 60_000 });
      await screenshot(shop, 'try-it-incident');
      await shop.keyboard.press('Escape');
      const { body } = await callPromotions(stack.baseUrl, 'bob', 'GET', '/products/alpha/shop/promotions');
      const requested = body.items.filter(
        (p: { toStage: string; requestedBy: string; status: string }) =>
          p.toStage === 'prod' && p.requestedBy === 'user:default/bob' && p.status === 'awaiting-approval',
      );
      expect(requested).toHaveLength(1);
      const id = requested[0].id;

      // Alice, a release-approver: her approval is not enough while the incident is open.
      const byAlice = await callPromotions(stack.baseUrl, 'alice', 'POST', `/promotions/${id}/approve`);
      expect(byAlice.status).toBe(200);
      expect(byAlice.body.promotion.status).toBe('awaiting-approval');
      expect(byAlice.body.promotion.statusReason).toMatch(/^1 of 1 approvals \(.+\); waiting for an incident commander/);

      // Dave, the incident commander, approves it on the shop's ladder: it merges.
      const dave = await openSystem(browser, stack.baseUrl, 'dave', 'shop');
      const progress = dave.getByTestId(`approval-progress-${id}`);
      await progress.waitFor({ timeout: 60_000 });
      expect(await progress.textContent()).toBe('1 of 1 approvals; an incident commander’s needed too');
      // Past the timeout, says what the ladder offered Dave instead.
      await waitForTestId(dave, `approve-${id}`, 60_000);
      await dave.locator(`[data-testid="approve-${id}"]:enabled`).click({ timeout: 60_000 });
      await dave.getByTestId('approve-dialog').waitFor();
      await dave.getByTestId('approve-confirm').click();
      await dialogOutcome(dave, 'approve');
      await screenshot(dave, 'try-it-incident-dave-approved');
      await dave.close();
      await waitForPromotionStatus(stack.baseUrl, id, 'merged', { timeoutMs: 90_000 });
      const { body: merged } = await callPromotions(stack.baseUrl, 'bob', 'GET', `/promotions/${id}`);
      expect(merged.events.map((event: { type: string; actor: string }) => `${event.type} ${event.actor}`)).toEqual(
        expect.arrayContaining(['approved user:default/alice', 'incident-approved user:default/dave']),
      );

      expect(await run(steps.commands[1])).toMatch(/^Resolved incident INC-1 of alpha\/shop: /);
      await notice.waitFor({ state: 'detached', timeout: 60_000 });
      await shop.close();
    });

    it("links the blog's Applications to the simulator's Argo CD page, which answers without signing in", async () => {
      const { body: ladder } = await callPromotions(stack.baseUrl, 'bob', 'GET', '/products/alpha/blog/ladder');
      const url = ladder.stages.find((stage: { name: string }) => stage.name === 'dev').application.url;
      expect(url).toBe(`${stack.sim.argocdUrl}/applications/argocd/alpha-blog-dev`);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<h1>Application alpha-blog-dev</h1>');
    });
  });
}
