import { execFileSync } from 'child_process';
import { Browser, Page, WebSocket } from 'playwright-core';
import { parse } from 'yaml';
import { SharedStack } from '../sharedStack';
import { RunningStack } from '../stack';
import { screenshot, signIn } from '../browser';

const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];
const SERVICES = ['storefront', 'cart', 'checkout'];

/**
 * What a page's console says about WebSockets, and the WebSockets it opens to
 * the signals backend (`/api/signals`), from now on. The signals client keeps
 * one socket for all its subscribers, and closes it when the last one leaves:
 * a card that subscribed and left before the socket opened shows as a second
 * socket, and in the console as "WebSocket connection to '…/api/signals'
 * failed: WebSocket is closed before the connection is established" (an error
 * in a desktop Chrome's console, a warning in headless Chromium's).
 */
function watchSignalsSockets(page: Page) {
  const complaints: string[] = [];
  const sockets: WebSocket[] = [];
  page.on('console', message => {
    const text = message.text();
    if (['error', 'warning'].includes(message.type()) && /WebSocket|\/api\/signals/.test(text)) {
      complaints.push(`console ${message.type()}: ${text}`);
    }
  });
  page.on('websocket', socket => {
    if (!new URL(socket.url()).pathname.endsWith('/api/signals')) return;
    sockets.push(socket);
    socket.on('socketerror', error => complaints.push(`socket error: ${error}`));
  });
  return {
    /** Each signals socket opened since `from` (a count `opened()` gave), open or closed, and every complaint so far. */
    since: (from: number) => ({
      sockets: sockets.slice(from).map(socket => (socket.isClosed() ? 'closed' : 'open')),
      complaints: [...complaints],
    }),
    opened: () => sockets.length,
  };
}

/**
 * On the seed's alpha/shop, with its System and Components as the demo has
 * them; the stack's canaries are slow enough to be seen on the ladder and
 * then on the Component page.
 */
export function appSuite(shared: SharedStack): void {
  describe('the promotion ladder in the app', () => {
    let stack: RunningStack;
    let browser: Browser;

    beforeAll(() => {
      ({ stack, browser } = shared);
    });

    function releaseDigests(stage: string): Record<string, string> {
      const text = execFileSync(
        'git',
        ['--git-dir', stack.sim.repoDir, 'show', `main:gitops/releases/alpha/shop/${stage}.yaml`],
        { encoding: 'utf8' },
      );
      const services = parse(text).spec.services as Record<string, { digest: string }>;
      return Object.fromEntries(Object.entries(services).map(([s, e]) => [s, e.digest]));
    }

    async function withPage(user: 'alice' | 'bob', fn: (page: Page) => Promise<void>) {
      const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
      const page = await context.newPage();
      try {
        await signIn(page, stack.baseUrl, user);
        await fn(page);
      } finally {
        await context.close();
      }
    }

    it.each(['bob', 'alice'] as const)('%s signs in and sees the ladder card on the shop System page', async user => {
      await withPage(user, async page => {
        await page.goto(`${stack.baseUrl}/catalog/default/system/shop`);
        await page.getByText('Promotion ladder').first().waitFor();
        await page.getByTestId('stage-prod').waitFor();
        await screenshot(page, `shop-ladder-${user}`);
      });
    });

    it("shows 5 stages × 3 services with the platform repo's digests", async () => {
      await withPage('bob', async page => {
        await page.goto(`${stack.baseUrl}/catalog/default/system/shop`);
        await page.getByTestId('stage-prod').waitFor();
        for (const stage of STAGES) {
          expect(await page.getByTestId(`stage-${stage}`).count()).toBe(1);
          const digests = releaseDigests(stage);
          const cell = (service: string) => page.getByTestId(`cell-${stage}-${service}`);
          for (const service of SERVICES.filter(s => digests[s])) {
            expect(await cell(service).getByTestId('digest').getAttribute('data-digest')).toBe(digests[service]);
          }
          for (const service of SERVICES.filter(s => !digests[s])) {
            expect(await cell(service).textContent()).toContain('not declared');
          }
        }
        expect(await page.getByTestId('cell-test-storefront').textContent()).toContain('new in dev');
      });
    });

    it('shows a canary in progress after CI pushes to dev, and the Component page', async () => {
      await withPage('bob', async page => {
        const signals = watchSignalsSockets(page);
        await page.goto(`${stack.baseUrl}/catalog/default/system/shop`);
        await page.getByTestId('stage-prod').waitFor();
        const { digest } = await stack.sim.control.ciPush({
          team: 'alpha',
          product: 'shop',
          service: 'storefront',
        });
        const devStorefront = page.getByTestId('cell-dev-storefront');
        // the card refreshes by itself: no reload
        await devStorefront.getByTestId('canary').waitFor({ timeout: 30_000 });
        expect(await devStorefront.getByTestId('digest').getAttribute('data-digest')).toBe(digest);
        expect(await devStorefront.getByTestId('canary').textContent()).toMatch(/Canary step \d of \d+ · \d+%/);
        await screenshot(page, 'shop-ladder-canary');
        // One signals socket served the System page: opened once, still open, nothing said about it.
        expect(signals.since(0)).toEqual({ sockets: ['open'], complaints: [] });

        const componentPageFrom = signals.opened();
        await page.goto(`${stack.baseUrl}/catalog/default/component/storefront`);
        const devRow = page.getByTestId('service-stage-dev');
        await devRow.waitFor();
        // Where the canary stands shows on the Component page too.
        await devRow.getByTestId('canary').waitFor({ timeout: 30_000 });
        expect(await devRow.getByTestId('digest').getAttribute('data-digest')).toBe(digest);
        expect(await page.getByTestId('service-stage-prod').getByTestId('digest').getAttribute('data-digest')).toBe(
          releaseDigests('prod').storefront,
        );
        await screenshot(page, 'storefront-component');
        // One served the Component page too.
        expect(signals.since(componentPageFrom)).toEqual({ sockets: ['open'], complaints: [] });

        // The Component card leads to the Product's whole ladder.
        await page.getByTestId('ladder-link').getByRole('link').click();
        await page.waitForURL(/\/catalog\/default\/system\/shop$/);
        await page.getByTestId('stage-prod').waitFor();
      });
    });
  });
}
