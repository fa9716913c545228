import { RunningSim, SimOptions, startPlatformSim } from '@refplat/platform-sim';
import {
  FAST_SIM_TIMINGS,
  HealthSourceKind,
  PromotionsBackendOptions,
  SYSTEM_CLONES,
  startPromotionsBackend,
  startPromotionsTestBackend,
} from './testBackend';

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

/** A Product a test added to a shared simulator (see SharedSimBackend.addProduct). */
export interface TestProduct {
  team: string;
  product: string;
  /** `team/product`, as the routes name it. */
  ref: string;
  /** The Argo CD Application of a stage: `team-product-stage`. */
  app(stage: string): string;
  /** The platform repo path of a stage's Release record. */
  releasePath(stage: string): string;
  /** The prefix of its promotion branches: `promotions/team-product-`. */
  branchPrefix: string;
}

export interface SharedSim {
  sim: RunningSim;
  /**
   * A Product of the test's own, laid out and climbed as a seeded one (`like`,
   * alpha/shop unless given) and owned and annotated as its System: `alpha/shop-3`.
   */
  addProduct(like?: string): Promise<TestProduct>;
}

export interface SharedSimBackend extends SharedSim {
  server: Server;
}

/**
 * One simulator for every test of the enclosing describe block. Tests that
 * change the platform work on a Product of their own (addProduct); the faults
 * and the Argo CD outage a test sets are the simulator's own and are lifted
 * after each test.
 */
export function sharedSim(options: Partial<SimOptions> = FAST_SIM_TIMINGS): SharedSim {
  return simStoppedLast(options, []);
}

/** sharedSim, stopped only after `stopFirst` (what still calls it, e.g. a backend whose Gate is polling). */
function simStoppedLast(options: Partial<SimOptions>, stopFirst: Array<() => Promise<void>>): SharedSim {
  const added = new Map<string, number>();
  const shared = {
    async addProduct(like = 'alpha/shop') {
      const count = (added.get(like) ?? 0) + 1;
      if (count > SYSTEM_CLONES) throw new Error(`No System for more than ${SYSTEM_CLONES} Products like ${like}`);
      added.set(like, count);
      const [team, seeded] = like.split('/');
      const { product } = await shared.sim.control.addProduct({ like, product: `${seeded}-${count}` });
      return testProduct(team, product);
    },
  } as SharedSim;
  beforeAll(async () => {
    shared.sim = await startPlatformSim(options);
  });
  afterEach(() => {
    shared.sim?.control.clearFaults();
    shared.sim?.control.setArgocdDown(false);
  });
  afterAll(async () => {
    await Promise.all(stopFirst.map(stop => stop()));
    await shared.sim?.stop();
  });
  return shared;
}

export interface SharedSimBackendSetup {
  /** The simulator's options; FAST_SIM_TIMINGS unless given. */
  sim?: Partial<SimOptions>;
  /** 'argocd' unless given. */
  healthSource?: HealthSourceKind | 'none';
  backend?: PromotionsBackendOptions | ((sim: RunningSim) => PromotionsBackendOptions);
}

/** sharedSim, and one backend for every test of the enclosing describe block, stopped before the simulator. */
export function sharedSimBackend(setup: SharedSimBackendSetup = {}): SharedSimBackend {
  const stopFirst: Array<() => Promise<void>> = [];
  const shared = simStoppedLast(setup.sim ?? FAST_SIM_TIMINGS, stopFirst) as SharedSimBackend;
  beforeAll(async () => {
    const options = typeof setup.backend === 'function' ? setup.backend(shared.sim) : setup.backend;
    const backend = await startPromotionsTestBackend(shared.sim, setup.healthSource ?? 'argocd', options);
    shared.server = backend.server;
    // Stopped before the simulator, so that no Gate run calls a simulator that is gone.
    stopFirst.push(() => backend.stop());
  });
  return shared;
}

/**
 * For tests that each need backends configured their own way on a shared
 * simulator: starts them, and stops them after the test, so that their Gates
 * and schedulers call the simulator no more.
 */
export function backendPerTest() {
  const running: Array<{ stop(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map(backend => backend.stop()));
  });
  return async (...args: Parameters<typeof startPromotionsTestBackend>) => {
    const backend = await startPromotionsTestBackend(...args);
    running.push(backend);
    return backend.server;
  };
}

/** A seeded Product (alpha/shop, beta/payments) or one a test added, by its names. */
export function testProduct(team: string, product: string): TestProduct {
  return {
    team,
    product,
    ref: `${team}/${product}`,
    app: stage => `${team}-${product}-${stage}`,
    releasePath: stage => `gitops/releases/${team}/${product}/${stage}.yaml`,
    branchPrefix: `promotions/${team}-${product}-`,
  };
}

/** The requests the simulator's GitHub received that change something. */
export function githubWrites(sim: RunningSim) {
  return sim.control.getRequests('github').filter(call => !['GET', 'HEAD'].includes(call.method));
}
