import { execFile } from 'child_process';
import path from 'path';
import { SharedStack } from '../sharedStack';
import { SuiteProduct } from '../products';
import { RunningStack, userToken } from '../stack';

const CLI = path.resolve(__dirname, '../../../../promotions-cli/bin/promotions');

/** Runs `promotions …` as a pipeline would: answers the exit code and what it printed. */
function promotions(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise(resolve => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, timeout: 200_000 }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The `promotions` CLI against the demo backend and the simulator, on a Product of its own. */
export function cliSuite(shared: SharedStack): void {
  describe('the promotions CLI', () => {
    let stack: RunningStack;
    let shop: SuiteProduct;
    let asBob: Record<string, string>;
    let asAlice: Record<string, string>;

    beforeAll(async () => {
      stack = shared.stack;
      shop = await shared.addProduct('shop-cli');
      asBob = { BACKSTAGE_TOKEN: await userToken(stack.baseUrl, 'bob') };
      asAlice = { BACKSTAGE_TOKEN: await userToken(stack.baseUrl, 'alice') };
    });

    it('requests a promotion and waits until the stage runs it healthy, saying what it waited for', async () => {
      const result = await promotions(
        ['request', shop.ref, '--to', 'test', '--service', 'storefront', '--wait', 'healthy', '--timeout', '150s', '--backend', stack.baseUrl],
        asBob,
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const [, digest] = /^waited until test runs storefront ([0-9a-f]{12}) healthy$/m.exec(result.stdout) ?? [];
      expect(digest).toBeDefined();
      const ladder = JSON.parse((await promotions(['ladder', shop.ref, '--json', '--backend', stack.baseUrl], asBob)).stdout);
      const test = ladder.stages.find((stage: { stage: string }) => stage.stage === 'test');
      expect(test.services.find((cell: { service: string }) => cell.service === 'storefront')).toMatchObject({
        digest: expect.stringContaining(digest),
        verdict: 'healthy',
      });
    });

    it('requests a promotion, waits until it is merged and prints its PR as JSON', async () => {
      // The previous test left test running the new storefront healthy: uat may take it.
      const result = await promotions(
        ['request', shop.ref, '--to', 'uat', '--service', 'storefront', '--wait', 'merged', '--timeout', '150s', '--json', '--backend', stack.baseUrl],
        asBob,
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const output = JSON.parse(result.stdout);
      expect(output.promotion).toMatchObject({ status: 'merged', toStage: 'uat', product: shop.ref });
      expect(output.waitedFor).toBe('merged');
      expect(output.promotion.pullRequestUrl).toMatch(/\/refplat\/platform\/pull\/\d+$/);
    });

    it('exits with the refused code and the reason when the rules refuse (409)', async () => {
      // beta/payments is identical on every stage: nothing to promote.
      const result = await promotions(['request', 'beta/payments', '--to', 'test', '--backend', stack.baseUrl], asAlice);
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/^promotions: 409: Promotion into test refused: /);
    });

    it('exits with the not-allowed code for a Product the user does not own (403)', async () => {
      const result = await promotions(['request', 'beta/payments', '--to', 'test', '--backend', stack.baseUrl], asBob);
      expect(result.code).toBe(4);
      expect(result.stderr).toMatch(/user:default\/bob may not change beta\/payments/);
    });

    it('exits with the timed-out code when the promotion does not merge in time', async () => {
      // Prod waits for a release-approver: without one it never merges.
      const result = await promotions(
        ['request', shop.ref, '--to', 'prod', '--wait', 'merged', '--timeout', '2s', '--backend', stack.baseUrl],
        asBob,
      );
      expect(result.code).toBe(5);
      expect(result.stderr).toMatch(/timed out waiting for promotion .* to be merged: it is (opening|open|awaiting-approval)/);
    });

    it("refuses bob's approval of a prod promotion with the reason; a release-approver's approval goes through", async () => {
      const requested = await promotions(['request', shop.ref, '--to', 'prod', '--json', '--backend', stack.baseUrl], asBob);
      expect(requested.code).toBe(0);
      const { promotion } = JSON.parse(requested.stdout);
      expect(promotion).toMatchObject({ toStage: 'prod', status: 'awaiting-approval' });

      const byBob = await promotions(['approve', promotion.id, '--backend', stack.baseUrl], asBob);
      expect(byBob.code).toBe(4);
      expect(byBob.stderr).toMatch(new RegExp(`^promotions: 403: Not allowed: promotions\\.promotion\\.approve on ${shop.ref}$`, 'm'));

      const byAlice = await promotions(['approve', promotion.id, '--json', '--backend', stack.baseUrl], asAlice);
      expect(byAlice.stderr).toBe('');
      expect(byAlice.code).toBe(0);
      expect(JSON.parse(byAlice.stdout).promotion).toMatchObject({
        id: promotion.id,
        approvedBy: 'user:default/alice',
        status: expect.stringMatching(/^(approved|merged)$/),
      });
    });

    it('prints the ladder for people, and explains a stage', async () => {
      const ladder = await promotions(['ladder', shop.ref, '--backend', stack.baseUrl], asBob);
      expect(ladder.code).toBe(0);
      expect(ladder.stdout.startsWith(`${shop.ref}\ndev: `)).toBe(true);
      const explained = await promotions(['explain', shop.ref, 'uat', '--service', 'cart', '--backend', stack.baseUrl], asBob);
      expect(explained.code).toBe(0);
      expect(explained.stdout).toMatch(/^cart in uat: /);
    });

    it('exits with the usage code without a token', async () => {
      const result = await promotions(['ladder', shop.ref, '--backend', stack.baseUrl], { BACKSTAGE_TOKEN: '' });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--token or BACKSTAGE_TOKEN/);
    });
  });
}
