import { SharedStack } from '../sharedStack';
import { openSystem, screenshot } from '../browser';

/**
 * A stalled rollout read where it stalls (issue 47), as a developer sees it at
 * 1280 px: the simulator's CI pushes a storefront that Kyverno's admission
 * webhook denies and a cart whose canary analysis measures slowly. The
 * storefront's chip says it is stuck at admission, naming the policy, and its
 * diagnosis gives the kubectl command to look with; the cart's says it waits
 * for the analysis window, not stuck.
 */
export function stallsSuite(shared: SharedStack): void {
  describe('a stalled rollout on the ladder', () => {
    it('names the admission denial with its policy, and the analysis window as not stuck, at 1280 px', async () => {
      const { stack, browser } = shared;
      const shop = await shared.addProduct('shop-stalls');
      await stack.sim.control.ciPush({ team: 'alpha', product: shop.name, service: 'storefront', stall: 'deniedByAdmission' });
      await stack.sim.control.ciPush({ team: 'alpha', product: shop.name, service: 'cart', stall: 'slowAnalysis' });

      const bob = await openSystem(browser, stack.baseUrl, 'bob', shop.name, { width: 1280, height: 1000 });
      const denied = bob.locator('[data-testid="health-dev-storefront"][data-diagnosis="stuck"]');
      await denied.waitFor({ timeout: 120_000 });
      await denied.getByRole('button').click();
      const admission = bob.locator('[data-testid="diagnosis-hop"][data-hop="admission"][data-mark="stalled"]');
      await admission.waitFor({ timeout: 60_000 });
      expect(await admission.textContent()).toMatch(/verify-image/);
      expect(await admission.getByTestId('hop-command').textContent()).toMatch(/^kubectl /);
      await screenshot(bob, 'stalled-admission-1280');
      await bob.keyboard.press('Escape');

      const waiting = bob.locator('[data-testid="health-dev-cart"][data-diagnosis="in-progress"]');
      await waiting.waitFor({ timeout: 120_000 });
      await waiting.getByRole('button').click();
      const analysis = bob.locator('[data-testid="diagnosis-hop"][data-hop="analysis-window"][data-mark="waiting"]');
      await analysis.waitFor({ timeout: 120_000 });
      expect(await analysis.textContent()).toMatch(/Waiting for the analysis window \(.*\), not stuck/);
      await screenshot(bob, 'waiting-analysis-1280');
      await bob.keyboard.press('Escape');
      await bob.close();
    });
  });
}
