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
 * The simulators of the test file, one per distinct set of options: suites a
 * file groups share one simulator when they ask for the same options, each
 * working on Products of its own. Jest loads this module once per test file,
 * so the pool is the file's, and the file's last hook stops what it holds.
 */
const fileSims = new Map<string, { sim: Promise<RunningSim>; added: Map<string, number> }>();
/** Backends still running on the file's simulators: stopped first, so that no Gate run calls a simulator that is gone. */
const fileBackends = new Set<() => Promise<void>>();

// Declared when the test file imports this module, so before the file's own
// hooks; a root-level hook declared later may run after it, which is why
// this one stops the backends still running before the simulators.
afterAll(async () => {
  await Promise.all([...fileBackends].map(stop => stop()));
  const sims = [...fileSims.values()];
  fileSims.clear();
  await Promise.all(sims.map(async entry => (await entry.sim.catch(() => undefined))?.stop()));
});

function fileSim(options: Partial<SimOptions>, own?: string) {
  const key = JSON.stringify(Object.entries(options).sort(([a], [b]) => a.localeCompare(b))) + (own ? ` own:${own}` : '');
  let entry = fileSims.get(key);
  if (!entry) {
    entry = { sim: startPlatformSim(options), added: new Map() };
    fileSims.set(key, entry);
  }
  return entry;
}

/**
 * The file's simulator for `options` (started by the first suite that asks),
 * for every test of the enclosing describe block. Tests that change the
 * platform work on a Product of their own (addProduct); the faults and the
 * Argo CD outage a test sets are the simulator's own and are lifted after
 * each test.
 *
 * `options` may be a function, called when the block starts: for options
 * known only then, such as the URL of a registry an earlier beforeAll started.
 *
 * `own` names a simulator apart from the others with the same options, for a
 * suite whose tests read the whole platform as only it leaves it (they count
 * its Products, say): the pool still starts it on first use and stops it
 * with the file, and suites that give the same name share it.
 */
export function sharedSim(options: Partial<SimOptions> | (() => Partial<SimOptions>) = FAST_SIM_TIMINGS, own?: string): SharedSim {
  let added: Map<string, number>;
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
    const entry = fileSim(typeof options === 'function' ? options() : options, own);
    added = entry.added;
    shared.sim = await entry.sim;
  });
  afterEach(() => {
    shared.sim?.control.clearFaults();
    shared.sim?.control.setArgocdDown(false);
  });
  return shared;
}

export interface SharedSimBackendSetup {
  /** The simulator's options, or a function answering them when the block starts (see sharedSim); FAST_SIM_TIMINGS unless given. */
  sim?: Partial<SimOptions> | (() => Partial<SimOptions>);
  /** A simulator apart from the others with the same options (see sharedSim). */
  ownSim?: string;
  /** 'argocd' unless given. */
  healthSource?: HealthSourceKind | 'none';
  backend?: PromotionsBackendOptions | ((sim: RunningSim) => PromotionsBackendOptions);
}

/**
 * sharedSim, and one backend for every test of the enclosing describe block,
 * stopped when the block ends: before the file's simulators, so that no Gate
 * run calls a simulator that is gone.
 */
export function sharedSimBackend(setup: SharedSimBackendSetup = {}): SharedSimBackend {
  const shared = sharedSim(setup.sim ?? FAST_SIM_TIMINGS, setup.ownSim) as SharedSimBackend;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const options = typeof setup.backend === 'function' ? setup.backend(shared.sim) : setup.backend;
    const backend = await startPromotionsTestBackend(shared.sim, setup.healthSource ?? 'argocd', options);
    shared.server = backend.server;
    stop = () => {
      fileBackends.delete(stop!);
      return backend.stop();
    };
    fileBackends.add(stop);
  });
  afterAll(async () => {
    await stop?.();
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
