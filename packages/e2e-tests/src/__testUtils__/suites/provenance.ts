import { execFileSync } from 'child_process';
import { dockerRegistryInstalled, setReleaseDigest } from '@refplat/platform-sim';
import { putPlatformFiles } from '../stack';
import { SharedStack } from '../sharedStack';
import { suiteProduct } from '../products';
import { openSystem, screenshot } from '../browser';

/** The suite's Product, the only one the stack checks provenance of (`provenanceProducts`). */
const SIGNED = suiteProduct('shop-provenance');

/** What the suite's stack must be configured with (useSharedStack's `provenance`). */
export const PROVENANCE_PRODUCTS = { products: [SIGNED.ref] };

/**
 * Provenance as a developer sees it (issue 25): the simulator's CI publishes
 * a signed and attested storefront and a tampered cart into a real
 * docker-registry; the ladder at 1280 px shows the storefront verified with
 * its source commit linked, and the cart failed with the reason on hover.
 * The seed's shop, which provenance does not check, shows no provenance.
 * (enforce's refusal, which needs dev healthy, is the provenance API suite's:
 * this stack's canaries take minutes.)
 */
export function provenanceSuite(shared: SharedStack): void {
  const describeWithRegistry = dockerRegistryInstalled() ? describe : describe.skip;
  if (!dockerRegistryInstalled()) {
    // eslint-disable-next-line no-console
    console.warn('provenance browser test skipped: Debian docker-registry is not installed (apt-get install -y docker-registry)');
  }

  describeWithRegistry('provenance on the ladder', () => {
    it('shows a verified storefront with its source commit linked and a failed cart saying why, at 1280 px', async () => {
      const { stack, browser } = shared;
      const shop = await shared.addProduct(SIGNED.name);
      const ci = (service: string, flags: { tampered?: boolean } = {}) =>
        stack.sim.control.ciPush({ team: 'alpha', product: shop.name, service, ...flags });
      // Each build is of a new commit of the Product's source repository, which the simulator serves.
      const sourceMain = () =>
        execFileSync('git', ['--git-dir', stack.sim.sourceRepoDir(shop.name), 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
      const storefront = await ci('storefront');
      const commit = sourceMain();
      const cart = await ci('cart', { tampered: true });
      const cartCommit = sourceMain();

      const bob = await openSystem(browser, stack.baseUrl, 'bob', shop.name, { width: 1280, height: 1000 });
      const verified = bob.locator('[data-testid="provenance-dev-storefront"][data-state="verified"]');
      await verified.waitFor({ timeout: 60_000 });
      expect(await bob.getByTestId('cell-dev-storefront').getByTestId('digest').getAttribute('data-digest')).toBe(storefront.digest);
      // Backstage's Link adds ", Opens in a new window" for screen readers.
      expect(await verified.textContent()).toMatch(new RegExp(`^Signed · from ${commit.slice(0, 7)}\\b`));
      expect(await bob.getByTestId('provenance-dev-storefront-commit').getAttribute('href')).toBe(
        `${stack.sim.url}/refplat/${shop.name}/commit/${commit}`,
      );

      const failed = bob.locator('[data-testid="provenance-dev-cart"][data-state="failed"]');
      await failed.waitFor({ timeout: 60_000 });
      // Its SLSA provenance verified (only the signature is another digest's): the source commit is still named.
      expect(await failed.textContent()).toMatch(new RegExp(`^Provenance failed · from ${cartCommit.slice(0, 7)}\\b`));
      await failed.hover();
      const why = bob.getByTestId('provenance-dev-cart-details');
      await why.waitFor();
      expect(await why.textContent()).toContain(`cart ${cart.digest.slice(0, 19)}: its signature is for another digest`);
      await screenshot(bob, 'provenance-1280');
      await bob.mouse.move(0, 0);
      await why.waitFor({ state: 'hidden' });
      await bob.setViewportSize({ width: 1920, height: 1000 });
      await screenshot(bob, 'provenance-1920');

      // What changed from dev to test, once test runs the first storefront and dev a rebuild: the
      // commit between their source commits, linking the simulator's page of it (issue 45).
      await ci('storefront');
      const rebuiltCommit = sourceMain();
      const testRelease = shop.releasePath('test');
      const releaseText = execFileSync('git', ['--git-dir', stack.sim.repoDir, 'show', `main:${testRelease}`], { encoding: 'utf8' });
      await putPlatformFiles(stack, 'test: storefront, as a merged promotion would', {
        [testRelease]: setReleaseDigest(releaseText, 'storefront', storefront.digest),
      });
      await bob.getByTestId('changes-test').click();
      const line = bob.getByTestId('changes-dialog').getByTestId(`commit-${rebuiltCommit.slice(0, 7)}`);
      await line.waitFor({ timeout: 60_000 });
      // Backstage's Link adds ", Opens in a new window" for screen readers.
      expect(await line.textContent()).toMatch(new RegExp(`^${rebuiltCommit.slice(0, 7)}(, Opens in a new window)? storefront: `));
      const [commitPage] = await Promise.all([bob.context().waitForEvent('page'), line.getByRole('link').click()]);
      await commitPage.waitForLoadState();
      expect(commitPage.url()).toBe(`${stack.sim.url}/web/refplat/${shop.name}/commit/${rebuiltCommit}`);
      expect(await commitPage.locator('h1').textContent()).toMatch(/^storefront: /);
      await commitPage.close();
      await bob.keyboard.press('Escape');

      // The seed's shop is not among provenance's Products: its cells say nothing of it.
      const seedShop = await openSystem(browser, stack.baseUrl, 'bob', 'shop', { width: 1280, height: 1000 });
      await seedShop.getByTestId('cell-dev-storefront').waitFor();
      expect(await seedShop.locator('[data-testid^="provenance-"]').count()).toBe(0);
      await seedShop.close();
      await bob.close();
    });
  });
}
