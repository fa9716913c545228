import { execFileSync } from 'child_process';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { schedulerServiceFactory } from '@backstage/backend-defaults/scheduler';
import type { Entity } from '@backstage/catalog-model';
import type { Knex } from 'knex';
import {
  BackendFeature,
  ServiceFactory,
  coreServices,
  createServiceFactory,
} from '@backstage/backend-plugin-api';
import type { JsonArray, JsonObject } from '@backstage/types';
import { SIMULATOR_WRITE_BUDGET, SIMULATOR_WRITE_PACING, type RunningSim } from '@refplat/platform-sim';
import { promotionsPlugin } from '../plugin';

export type HealthSourceKind = 'argocd' | 'kubernetes';

/** What the plugin needs to know of a running simulator (a process test passes it across). */
export type SimAddresses = Pick<RunningSim, 'url' | 'githubApiUrl' | 'argocdUrl' | 'kubernetesUrl' | 'tokens'>;

/** A running simulator's addresses, as a process test passes them to its replicas. */
export function simAddresses(sim: RunningSim): SimAddresses {
  const { url, githubApiUrl, argocdUrl, kubernetesUrl, tokens } = sim;
  return { url, githubApiUrl, argocdUrl, kubernetesUrl, tokens };
}

/** Config that points the plugin at a running simulator, as a user's app-config would. */
export function simConfig(
  sim: SimAddresses,
  /** 'none': no promotions.argocd or promotions.kubernetes (e.g. to borrow another plugin's). */
  healthSource: HealthSourceKind | 'none',
  extra: {
    /** Merged into `promotions.gate` (enabled, every second). */
    gate?: JsonObject;
    autoPromote?: JsonObject;
    stages?: JsonArray;
    permissions?: JsonObject;
    /** Default 0: the cost tests count upstream calls per view, so no view may borrow another's. */
    cacheTtl?: JsonObject;
    /** Top-level keys besides `promotions`, e.g. the ArgoCD plugin's `argocd` block. */
    rootConfig?: JsonObject;
    /**
     * `promotions.healthStream`; off unless given: the cost tests count each view's
     * ArgoCD and Kubernetes calls, and the stream's list on connect would be among them.
     */
    healthStream?: JsonObject;
    /**
     * `promotions.metrics`; off unless given: its first run reads the branch's
     * history, requests (and cached blobs) the cost tests would count.
     */
    metrics?: JsonObject;
    /** More `promotions.*` keys, e.g. `freezes` or `approval`. */
    promotions?: JsonObject;
  } = {},
) {
  const simHost = new URL(sim.url).host;
  return {
    ...extra.rootConfig,
    integrations: {
      github: [{ host: simHost, apiBaseUrl: sim.githubApiUrl, token: sim.tokens.github }],
    },
    promotions: {
      platformRepo: {
        host: simHost,
        owner: 'refplat',
        repo: 'platform',
        branch: 'main',
        writeBudget: SIMULATOR_WRITE_BUDGET,
        writePacing: SIMULATOR_WRITE_PACING,
        // A tenth of octokit's backoff before retrying a 5xx: the fault tests wait 1.4 s, not 14.
        retryBackoff: { milliseconds: 100 },
      },
      gate: { enabled: true, frequency: { seconds: 1 }, ...extra.gate },
      autoPromote: extra.autoPromote ?? { enabled: false },
      metrics: extra.metrics ?? { enabled: false },
      cacheTtl: extra.cacheTtl ?? { milliseconds: 0 },
      healthStream: extra.healthStream ?? { enabled: false },
      // Off unless a test turns it on (promotions.stuckNotifications): its sweep builds every
      // ladder at start, requests the cost tests would count.
      stuckNotifications: { enabled: false },
      ...(extra.stages ? { stages: extra.stages } : {}),
      ...(extra.permissions ? { permissions: extra.permissions } : {}),
      ...healthSourceConfig(sim, healthSource),
      ...extra.promotions,
    },
  };
}

/** `promotions.argocd` or `promotions.kubernetes` for the simulator; nothing for 'none'. */
function healthSourceConfig(sim: SimAddresses, healthSource: HealthSourceKind | 'none') {
  if (healthSource === 'none') return {};
  if (healthSource === 'argocd') return { argocd: { baseUrl: sim.argocdUrl, token: sim.tokens.argocd } };
  return {
    kubernetes: {
      clusters: [
        {
          name: 'sim',
          url: sim.kubernetesUrl,
          serviceAccountToken: sim.tokens.kubernetes,
          // plain HTTP: @kubernetes/client-node only allows it with skipTLSVerify
          skipTLSVerify: true,
        },
      ],
    },
  };
}

function user(name: string, displayName: string, groups: string[]): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'User',
    metadata: { name, namespace: 'default' },
    spec: { profile: { displayName }, memberOf: groups },
    relations: groups.map(group => ({
      type: 'memberOf',
      targetRef: `group:default/${group}`,
    })),
  };
}

/**
 * As in examples/org.yaml: alice and carol approve releases, bob develops on
 * alpha, dave leads incidents, erin approves the shop's releases only (its
 * System names shop-release).
 */
export const DEMO_USERS = [
  user('alice', 'Alice Approver', ['release-approvers', 'platform']),
  user('bob', 'Bob Builder', ['alpha']),
  user('carol', 'Carol Checker', ['release-approvers']),
  user('dave', 'Dave Dispatcher', ['incident-commanders']),
  user('erin', 'Erin Enabler', ['shop-release']),
];

/**
 * Ownership claims as sign-in resolves them from the catalog (the User and
 * the Groups it is a member of), which the mock user info leaves out.
 */
const demoUserInfo = createServiceFactory({
  service: coreServices.userInfo,
  deps: {},
  factory: () => ({
    async getUserInfo(credentials) {
      const userEntityRef = (credentials.principal as { userEntityRef: string }).userEntityRef;
      const entity = DEMO_USERS.find(u => `user:default/${u.metadata.name}` === userEntityRef);
      const groups = (entity?.relations ?? []).map(relation => relation.targetRef);
      return { userEntityRef, ownershipEntityRefs: [userEntityRef, ...groups] };
    },
  }),
});

/** beta/payments opts out of auto-promotion, as a System annotation says. */
const PAYMENTS_SYSTEM: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'System',
  metadata: {
    name: 'payments',
    namespace: 'default',
    annotations: { 'refplat.org/product': 'beta/payments', 'refplat.org/auto-promote': 'false' },
  },
  spec: { owner: 'group:default/beta' },
};

/** alpha/shop's own approvers, shop-release, approve besides the global ones unless config says 'replace'. */
const SHOP_SYSTEM: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'System',
  metadata: {
    name: 'shop',
    namespace: 'default',
    annotations: { 'refplat.org/product': 'alpha/shop', 'refplat.org/approvers': 'group:default/shop-release' },
  },
  spec: { owner: 'group:default/alpha' },
};

/** How many Products like each seeded one a test file may add (sharedSimBackend's addProduct). */
export const SYSTEM_CLONES = 100;

/**
 * A seeded Product's System and those of the Products a test may add like it
 * (`alpha/shop-1` … `alpha/shop-100`): the same owner and annotations.
 */
function systemAndClones(system: Entity): Entity[] {
  const product = system.metadata.annotations!['refplat.org/product'];
  const clones = Array.from({ length: SYSTEM_CLONES }, (_, index) => {
    const n = index + 1;
    return {
      ...system,
      metadata: {
        ...system.metadata,
        name: `${system.metadata.name}-${n}`,
        annotations: { ...system.metadata.annotations, 'refplat.org/product': `${product}-${n}` },
      },
    };
  });
  return [system, ...clones];
}

/**
 * The demo Systems and their clones, with more annotations for some Products
 * (`team/product` → annotations; a clone gets its seeded Product's).
 */
function demoSystems(annotations: Record<string, Record<string, string>> = {}): Entity[] {
  return [SHOP_SYSTEM, PAYMENTS_SYSTEM].flatMap(system => {
    const product = system.metadata.annotations!['refplat.org/product'];
    return systemAndClones(system).map(entity => ({
      ...entity,
      metadata: { ...entity.metadata, annotations: { ...entity.metadata.annotations, ...annotations[product] } },
    }));
  });
}

/** What startPromotionsBackend takes besides the simulator and the health source. */
export interface PromotionsBackendOptions {
  knex?: Knex;
  /** Merged into `promotions.gate`, e.g. `{openingLease: {seconds: 3}}`. */
  gate?: JsonObject;
  autoPromote?: JsonObject;
  stages?: JsonArray;
  /** `promotions.permissions`, e.g. `{requireOwnership: false}`. */
  permissions?: JsonObject;
  /** `promotions.cacheTtl`; 0 unless given (see simConfig). */
  cacheTtl?: JsonObject;
  /** Service factories that replace the defaults (e.g. a recording notification service). */
  services?: ServiceFactory[];
  /** Top-level config besides `promotions` (see simConfig). */
  rootConfig?: JsonObject;
  /** `promotions.healthStream` (see simConfig). */
  healthStream?: JsonObject;
  /** `promotions.metrics`; off unless given (see simConfig). */
  metrics?: JsonObject;
  /** More `promotions.*` keys (see simConfig). */
  promotions?: JsonObject;
  /** More plugins and modules, e.g. the permission backend and a policy. */
  features?: BackendFeature[];
  /** More annotations on the demo Systems, by Product, e.g. `{'alpha/shop': {'refplat.org/approval-quorum': 'prod=2'}}`. */
  systemAnnotations?: Record<string, Record<string, string>>;
}

/** A real backend with the promotions plugin, talking HTTP to the simulator. */
export async function startPromotionsBackend(
  sim: SimAddresses,
  healthSource: HealthSourceKind | 'none' = 'argocd',
  options: PromotionsBackendOptions = {},
) {
  const { server } = await startPromotionsTestBackend(sim, healthSource, options);
  return server;
}

/**
 * startPromotionsBackend's backend itself (`server` and `stop()`), for tests
 * that each start a backend of their own on one simulator: a stopped backend's
 * Gate and scheduler call the simulator no more.
 */
export function startPromotionsTestBackend(
  sim: SimAddresses,
  healthSource: HealthSourceKind | 'none' = 'argocd',
  options: PromotionsBackendOptions = {},
) {
  return startTestBackend({ features: promotionsBackendFeatures(sim, healthSource, options) });
}

/**
 * The plugin, its config and the test's users and catalog, as features for a
 * test backend or (promotionsProcess.ts) a real one.
 */
export function promotionsBackendFeatures(
  sim: SimAddresses,
  healthSource: HealthSourceKind | 'none',
  options: PromotionsBackendOptions,
): BackendFeature[] {
  return [
    ...(options.services ?? []),
    ...(options.features ?? []),
    ...(options.knex ? [mockServices.database.factory({ knex: options.knex })] : []),
    promotionsPlugin,
    mockServices.rootConfig.factory({ data: simConfig(sim, healthSource, options) }),
    // Requests without a token are anonymous, as in a real backend.
    mockServices.httpAuth.factory({ defaultCredentials: mockCredentials.none() }),
    catalogServiceMock.factory({ entities: [...DEMO_USERS, ...demoSystems(options.systemAnnotations)] }),
    demoUserInfo,
    // The real scheduler: the Gate and the auto-promoter run on their
    // frequency, and replicas on one database share global tasks.
    schedulerServiceFactory,
  ];
}

/** Simulator timings for API tests: fast enough for a test, slow enough to see a canary on a busy 2-core box. */
export const FAST_SIM_TIMINGS = { canaryStepMs: 300, syncDelayMs: 200, reconcileIntervalMs: 100 };

/** A file on the simulator's main branch, read with git itself. */
export function readSimFile(sim: RunningSim, path: string): string {
  return execFileSync('git', ['--git-dir', sim.repoDir, 'show', `main:${path}`], {
    encoding: 'utf8',
  });
}

/**
 * Gate settings for tests that count a view's upstream requests: the Gate's
 * GitHub sweep (two list requests) runs at its first run and not again.
 */
export const SWEEP_ONCE = { openingLease: { hours: 1 }, orphanGracePeriod: { hours: 1 } };

/** Polls until `check` returns a value, or fails with the last value seen. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise(resolve => setTimeout(resolve, 250));
  }
}
