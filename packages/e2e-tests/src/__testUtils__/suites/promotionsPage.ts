import { Browser, Page } from 'playwright-core';
import { SharedStack } from '../sharedStack';
import { RunningStack, callPromotions, waitForPromotionStatus } from '../stack';
import { dialogOutcome, screenshot, signIn } from '../browser';
import { axisLabels, overlapping } from '../layout';

const WIDTHS = [1280, 1920];
const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];
const RUNGS = STAGES.slice(1).map((stage, i) => `${STAGES[i]} → ${stage}`);

/**
 * The organisation's Promotions page as a release-approver sees it: the
 * matrix with a stuck stage and its filters, an inline approval from the
 * Approvals tab, and the Metrics tab's charts. It counts the seed's two
 * Products, so it runs first on its stack, before any suite adds its own
 * Product; the stack's metrics read new platform commits every 2 s, so the
 * prod deployment approved here is counted soon.
 */
export function promotionsPageSuite(shared: SharedStack): void {
  describe('the Promotions page', () => {
    let stack: RunningStack;
    let browser: Browser;
    let alice: Page;

    beforeAll(async () => {
      ({ stack, browser } = shared);
      alice = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      await signIn(alice, stack.baseUrl, 'alice');
    });

    afterAll(async () => {
      await alice?.context().close();
      // The suites after this one find beta/payments healthy, as the seed left it.
      stack?.sim.control.setApp('beta-payments-staging', { clear: true });
    });

    const openTab = async (tab: string) => {
      await alice.goto(`${stack.baseUrl}/promotions?tab=${tab}`);
      await alice.locator(`[data-testid="tab-${tab}"][aria-selected="true"]`).waitFor({ timeout: 60_000 });
    };

    /** The matrix is read once when shown: wait until the backend sees the stage stuck before opening it. */
    const waitUntilStuck = async (product: string, stage: string) => {
      const deadline = Date.now() + 60_000;
      let last = 'unknown';
      while (Date.now() < deadline) {
        const { body } = await callPromotions(stack.baseUrl, 'alice', 'GET', '/overview?filter=stuck');
        const row = body.rows?.find((r: { product: string }) => r.product === product);
        last = row?.cells.find((c: { stage: string }) => c.stage === stage)?.verdict ?? 'not listed as stuck';
        if (last === 'stuck') return;
        await new Promise(resolve => setTimeout(resolve, 500));
      }
      throw new Error(`${product} ${stage} is ${last}, not stuck, after 60 s`);
    };

    /** The Metrics tab reads once when shown: wait until the backend counts a prod deployment. */
    const waitUntilProdDeploymentCounted = async () => {
      const from = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000).toISOString();
      const to = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
      const deadline = Date.now() + 60_000;
      let last = 'no answer';
      while (Date.now() < deadline) {
        const { body } = await callPromotions(stack.baseUrl, 'alice', 'GET', `/metrics?scope=org&from=${from}&to=${to}`);
        const prod = body.deploymentFrequency?.find((f: { stage: string }) => f.stage === 'prod');
        last = JSON.stringify(body.deploymentFrequency ?? body);
        if (prod?.deployments > 0) return;
        await new Promise(resolve => setTimeout(resolve, 500));
      }
      throw new Error(`no prod deployment counted after 60 s: ${last}`);
    };

    const matrixRows = () => alice.locator('[data-testid^="matrix-row-"]');

    it('shows a degraded stage as stuck in the matrix, and "Stuck only" narrows the rows to it', async () => {
      stack.sim.control.setApp('beta-payments-staging', { health: 'Degraded' });
      await waitUntilStuck('beta/payments', 'staging');

      await openTab('matrix');
      // The page's title and subtitle sit between the app's breadcrumb bar and the tabs, with no empty band.
      const title = alice.getByTestId('header-title');
      expect(await title.textContent()).toBe('Promotions');
      expect(await alice.getByTestId('header-description').textContent()).toBe(
        "Every Product's ladder, approvals, stuck deployments and delivery metrics",
      );
      const bar = (await alice.locator('.bui-PluginHeader').boundingBox())!;
      const titleBox = (await title.boundingBox())!;
      const tabs = (await alice.getByRole('tablist').boundingBox())!;
      expect(titleBox.y).toBeGreaterThanOrEqual(bar.y + bar.height);
      // Only the page's margins between them (48 px measured: the content's padding and the bar's spacing).
      expect(titleBox.y - (bar.y + bar.height)).toBeLessThanOrEqual(48);
      expect(tabs.y).toBeGreaterThan(titleBox.y + titleBox.height);
      const stuckCell = alice.locator('[data-testid="matrix-cell-beta/payments-staging"][data-verdict="stuck"]');
      await stuckCell.waitFor({ timeout: 30_000 });
      expect(await stuckCell.textContent()).toMatch(/Stuck/);
      await alice.getByTestId('matrix-row-alpha/shop').waitFor();
      expect(await matrixRows().count()).toBe(2);
      for (const width of WIDTHS) {
        await alice.setViewportSize({ width, height: 900 });
        await stuckCell.waitFor();
        await screenshot(alice, `promotions-matrix-${width}`);
      }
      await alice.setViewportSize({ width: 1280, height: 900 });

      await alice.getByTestId('matrix-filters').getByRole('button').first().click();
      await alice.getByTestId('matrix-filter-stuck').click();
      await alice.getByTestId('matrix-row-alpha/shop').waitFor({ state: 'detached', timeout: 30_000 });
      await stuckCell.waitFor();
      expect(await matrixRows().count()).toBe(1);
      expect(await alice.getByTestId('matrix-count').textContent()).toMatch(/1 of 1 Products/);
    });

    it('approves a prod promotion inline from the Approvals tab: it merges', async () => {
      const requested = await callPromotions(stack.baseUrl, 'bob', 'POST', '/products/alpha/shop/promotions', {
        toStage: 'prod',
      });
      expect(requested.status).toBe(201);
      const id: string = requested.body.promotion.id;
      await waitForPromotionStatus(stack.baseUrl, id, 'awaiting-approval');

      await openTab('approvals');
      await alice.getByTestId(`approval-${id}`).waitFor({ timeout: 30_000 });
      await alice.getByTestId(`approve-${id}`).click();
      await alice.getByTestId('approve-dialog').waitFor();
      await alice.getByTestId('approve-confirm').click();
      await dialogOutcome(alice, 'approve');
      await waitForPromotionStatus(stack.baseUrl, id, 'merged', { timeoutMs: 90_000 });
    });

    it('draws the delivery metrics as charts, counting the approved prod deployment', async () => {
      await waitUntilProdDeploymentCounted();
      await openTab('metrics');
      const frequency = alice.getByTestId('metric-deployment-frequency');
      await frequency.waitFor({ timeout: 60_000 });
      expect(await alice.getByTestId('metrics-products').textContent()).toMatch(/2 Products counted/);
      expect(await alice.getByTestId('metric-deployment-frequency-headline').textContent()).toMatch(/prod [1-9]/);

      for (const width of WIDTHS) {
        await alice.setViewportSize({ width, height: 900 });
        // Each chart (not the legends' icons, also svgs) is drawn with its bars or lines, at a height a reader can see.
        const bars = frequency.locator('svg.recharts-surface .recharts-bar-rectangle path');
        await bars.first().waitFor({ timeout: 30_000 });
        // A line of zeros is flat, so Playwright calls it hidden: it must be there and drawn through its points.
        const line = frequency.locator('svg.recharts-surface path.recharts-line-curve').first();
        await line.waitFor({ state: 'attached', timeout: 30_000 });
        expect(await line.getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/);
        await screenshot(alice, `promotions-metrics-${width}`);
        // Every chart at a size a reader can see; the stages' small multiples smaller.
        const charts = await alice.locator('figure[aria-label]').evaluateAll(figures =>
          figures.map(figure => ({
            small: figure.closest('[data-testid="stage-trends"]') !== null,
            ...figure.querySelector('.recharts-wrapper > svg.recharts-surface')!.getBoundingClientRect().toJSON(),
          })),
        );
        expect(charts.filter(chart => !chart.small).length).toBeGreaterThanOrEqual(5);
        for (const chart of charts) {
          expect(chart.height).toBeGreaterThanOrEqual(chart.small ? 120 : 200);
          expect(chart.width).toBeGreaterThan(chart.small ? 150 : 200);
        }

        // Every rung is named on the lead-time chart: none left out, none over another.
        const perRung = alice.getByRole('figure', { name: 'Lead time per rung, hours' });
        expect(await axisLabels(perRung, 'y')).toEqual(RUNGS);
        expect(await overlapping(perRung, '.recharts-yAxis-tick-labels text')).toEqual([]);

        // The deployments trend is one small chart per stage, side by side in one row, on one scale.
        const trends = alice.getByRole('region', { name: 'Deployments by stage, week by week' });
        const stageCharts = trends.getByRole('figure');
        expect(await stageCharts.evaluateAll(figures => figures.map(f => f.getAttribute('aria-label')))).toEqual(
          STAGES.map(stage => `Deployments by stage, week by week: ${stage}`),
        );
        const boxes = await stageCharts.evaluateAll(figures => figures.map(f => f.getBoundingClientRect().toJSON()));
        expect(new Set(boxes.map(box => Math.round(box.top))).size).toBe(1);
        expect(await overlapping(trends, 'figure')).toEqual([]);
        const tops = await Promise.all((await stageCharts.all()).map(async chart => (await axisLabels(chart, 'y')).at(-1)));
        expect(new Set(tops).size).toBe(1);
        for (const chart of await stageCharts.all()) {
          expect(await chart.locator('path.recharts-line-curve').getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/);
        }
      }
    });
  });
}
