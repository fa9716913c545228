import { Browser } from 'playwright-core';
import { type SimOptions, dockerRegistryInstalled } from '@refplat/platform-sim';
import { launchBrowser } from './browser';
import { SuiteProduct, SuiteProductSpec, addSuiteProduct } from './products';
import { RunningStack, callPromotions, startStack } from './stack';

/**
 * One stack and one browser for every suite of a test file: starting a
 * simulator and a backend costs far more than most suites' tests, so the
 * suites that can live with the same configuration share them, each on a
 * Product of its own (see products.ts).
 */
export interface SharedStack {
  /** The stack, once the file's beforeAll started it. */
  readonly stack: RunningStack;
  /** The browser, once the file's beforeAll launched it; each suite opens its own contexts. */
  readonly browser: Browser;
  /** The suite's own Product, written onto main now, once the backend reads it healthy: one of the file's declared `products`. */
  addProduct(name: string): Promise<SuiteProduct>;
}

export interface SharedStackOptions {
  sim: Partial<SimOptions>;
  promotions?: Record<string, unknown>;
  webhooks?: boolean;
  /** The suites' Products: their catalog entities must be there when the backend starts. */
  products?: SuiteProductSpec[];
  /** Provenance in enforce for these Products (`alpha/<name>`), against a docker-registry (stack.ts). */
  provenance?: { products: string[] };
}

/**
 * The demo world with the auto-promoter running every 3 s and stages that
 * soak: test 15 s (a countdown people can watch), staging 2 s (approvers see
 * what they let through, soaked). Two browser files run on it, each a stack
 * of its own.
 */
export const AUTO_PROMOTER_DEMO: Pick<SharedStackOptions, 'sim' | 'promotions'> = {
  sim: { demoProducts: true, canaryStepMs: 800, syncDelayMs: 300 },
  promotions: {
    stages: ['dev', { name: 'test', soakTime: { seconds: 15 } }, 'uat', { name: 'staging', soakTime: { seconds: 2 } }, 'prod'],
    autoPromote: { enabled: true, frequency: { seconds: 3 } },
  },
};

/** A stage's Application as the backend's ladder reports it. */
type LadderApplication = { name: string; syncStatus?: string; healthStatus?: string };

/**
 * Until the backend answers `product`'s ladder with every stage's Application
 * synced and healthy, as the simulator runs them once the Product is added.
 * It reads main through a short cache, so a request right after the commit may
 * not find the Product yet; and it lists Applications through another, so for
 * a moment it may still see them as they were created (OutOfSync, Missing),
 * and refuse a promotion out of a stage it calls unhealthy.
 */
async function backendReads(stack: RunningStack, product: SuiteProduct) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { status, body } = await callPromotions(stack.baseUrl, 'alice', 'GET', `${product.route}/ladder`);
    const applications: (LadderApplication | undefined)[] =
      status === 200 ? body.stages.map((stage: { application?: LadderApplication }) => stage.application) : [];
    const ready = (app?: LadderApplication) => app?.syncStatus === 'Synced' && app.healthStatus === 'Healthy';
    if (status === 200 && applications.every(ready)) return;
    if (Date.now() > deadline) {
      const seen = status === 200 ? applications.map(app => `${app?.name}: ${app?.syncStatus} ${app?.healthStatus}`) : body;
      throw new Error(`the backend does not read ${product.ref} synced and healthy after 60 s: ${status} ${JSON.stringify(seen)}`);
    }
    await new Promise(resolve => setTimeout(resolve, 250));
  }
}

/** Starts the stack and the browser before the file's first suite, and stops them after its last. */
export function useSharedStack(options: SharedStackOptions): SharedStack {
  let stack: RunningStack | undefined;
  let browser: Browser | undefined;
  const declared = new Set((options.products ?? []).map(product => product.name));

  beforeAll(async () => {
    stack = await startStack(options.sim, options.promotions, {
      webhooks: options.webhooks,
      products: options.products,
      // Without Debian's docker-registry the provenance suites skip, saying so.
      provenance: dockerRegistryInstalled() ? options.provenance : undefined,
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (!value) throw new Error(`the shared ${what} is not started: use it inside a hook or a test`);
    return value;
  };
  return {
    get stack() {
      return started(stack, 'stack');
    },
    get browser() {
      return started(browser, 'browser');
    },
    async addProduct(name) {
      if (!declared.has(name)) throw new Error(`${name} is not among the file's declared products`);
      const running = started(stack, 'stack');
      const product = await addSuiteProduct(running, name);
      await backendReads(running, product);
      return product;
    },
  };
}
