import { CacheService } from '@backstage/backend-plugin-api';
import type {
  Application,
  ApplicationTree,
  ProductRef,
  ResourceNode,
  Rollout,
} from '@refplat/plugin-promotions-common';
import pLimit from 'p-limit';
import { ArgoCdInstanceConfig } from './healthInstances';
import {
  ApplicationListing,
  HealthSource,
  ObservedApplication,
  ResourceHealth,
  listFromEach,
  ApplicationLabels,
  ClusterEvidence,
  CredentialsRejectedError,
  productLabelSelector,
} from './HealthSource';
import { RejectedTokens } from './RejectedTokens';
import { readBodyWithin } from '../service/readBodyWithin';
import { ArgoCdHopEvidence } from './ArgoCdHopEvidence';

const REQUEST_TIMEOUT_MS = 10_000;
/**
 * A tree is cached under the Application's resourceVersion, which changes whenever the
 * controller writes the Application (every refresh writes reconciledAt), so an entry is only
 * a safety net for a version that never changes.
 */
const TREE_TTL_MS = 10 * 60 * 1000;
/** Live Rollout reads in flight at once, over all ladder views: enough for a Product, kind to ArgoCD. */
const ROLLOUT_READ_CONCURRENCY = 4;
/**
 * What ArgoCD answers for a resource it does not have: 400 (gRPC InvalidArgument) from
 * 2.x/3.x, 404 from some proxies, 403 when the Application itself is not visible.
 */
const NO_SUCH_RESOURCE = [400, 403, 404];

export class ArgoCdRequestError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

function noSuchResource(error: unknown): boolean {
  return error instanceof ArgoCdRequestError && NO_SUCH_RESOURCE.includes(error.status ?? 0);
}

/** The part of a node the health rule needs; the rest of the tree (pods, hosts) is not cached. */
type NodeHealth = {
  group?: string;
  version?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  health?: { status?: string; message?: string };
};

function healthOnly(node: ResourceNode): NodeHealth {
  const { group, version, kind, namespace, name, health } = node;
  return {
    group,
    version,
    kind,
    namespace,
    name,
    health: health && { status: health.status, message: health.message },
  };
}

/**
 * Reads Applications, their resource trees and live Rollouts from the ArgoCD
 * REST API with a bearer token (no session login per call), from one or more
 * instances.
 */
export class ArgoCdHealthSource implements HealthSource {
  private readonly rolloutReads = pLimit(ROLLOUT_READ_CONCURRENCY);
  private readonly evidence = new ArgoCdHopEvidence(argoCdGet, noSuchResource);
  /**
   * The live Rollouts last read for an Application as one listing saw it: the hop evidence of the
   * same view takes its Rollout from here instead of reading it again. Held as long as the listing is.
   */
  private readonly rolloutsRead = new WeakMap<ObservedApplication, Map<string, Rollout>>();

  constructor(
    private readonly instances: ArgoCdInstanceConfig[],
    private readonly cache: CacheService,
    private readonly labels: ApplicationLabels,
    private readonly rejectedTokens = new RejectedTokens(),
  ) {}

  async listApplications(product?: ProductRef): Promise<ApplicationListing> {
    const selector = encodeURIComponent(productLabelSelector(this.labels, product));
    return listFromEach(this.instances, 'ArgoCD', async instance => {
      const body = await this.withToken(instance, () =>
        argoCdGet<{ items?: Application[] | null }>(instance, `/api/v1/applications?selector=${selector}`),
      );
      return (body.items ?? []).map(
        (application): ObservedApplication => ({
          application,
          source: instance.name,
          uiUrl: application.metadata?.name
            ? `${instance.uiUrl}/applications/${application.metadata.namespace ?? 'argocd'}/${application.metadata.name}`
            : undefined,
        }),
      );
    });
  }

  /**
   * Asks the instance unless it rejected its token a moment ago: a 401 is left alone for a
   * doubling wait (RejectedTokens), and said as what it is on the ladder.
   */
  private async withToken<T>(instance: ArgoCdInstanceConfig, ask: () => Promise<T>): Promise<T> {
    const waitMs = this.rejectedTokens.waitMs(instance.name);
    if (waitMs > 0) {
      throw new CredentialsRejectedError(
        `rejected the token (promotions.argocd.token); asked again in ${Math.ceil(waitMs / 1000)} s`,
      );
    }
    try {
      const answer = await ask();
      this.rejectedTokens.accept(instance.name);
      return answer;
    } catch (error) {
      if (!(error instanceof ArgoCdRequestError) || error.status !== 401) throw error;
      const retryMs = this.rejectedTokens.reject(instance.name);
      throw new CredentialsRejectedError(
        `rejected the token (${error.message}): set promotions.argocd.token to a valid ArgoCD API token; asked again in ${Math.ceil(retryMs / 1000)} s`,
      );
    }
  }

  /** `GET /api/v1/applications/{name}/resource-tree`, once per Application resourceVersion. */
  async resourceHealth(observed: ObservedApplication): Promise<ResourceHealth> {
    const instance = this.instanceOf(observed);
    const metadata = observed.application.metadata;
    if (!instance || !metadata?.name) return { nodes: [], rollouts: new Map() };
    // The health in the key too: a tree read before the Application's health moved must not
    // stand for it (the simulator, like a status served between writes, can move health
    // without a new resourceVersion).
    const health = observed.application.status?.health?.status ?? '';
    const key = metadata.resourceVersion
      ? `argocd-tree:${instance.name}:${metadata.namespace ?? ''}/${metadata.name}@${metadata.resourceVersion}:${health}`
      : undefined;
    const cached = key ? await this.cache.get<NodeHealth[]>(key) : undefined;
    if (cached) return { nodes: cached, rollouts: new Map() };
    const query = metadata.namespace
      ? `?${new URLSearchParams({ appNamespace: metadata.namespace })}`
      : '';
    const tree = await argoCdGet<ApplicationTree>(
      instance,
      `/api/v1/applications/${encodeURIComponent(metadata.name)}/resource-tree${query}`,
    );
    const nodes = (tree.nodes ?? []).map(healthOnly);
    if (key) await this.cache.set(key, nodes, { ttl: TREE_TTL_MS });
    return { nodes, rollouts: new Map() };
  }

  /** One `GET /api/v1/applications/{name}/resource` per service, a few at a time. */
  async liveRollouts(
    observed: ObservedApplication,
    services: string[],
  ): Promise<Map<string, Rollout>> {
    const read = await Promise.all(
      services.map(service =>
        this.rolloutReads(async () => [service, await this.getRollout(observed, service)] as const),
      ),
    );
    const rollouts = new Map(
      read.filter((entry): entry is readonly [string, Rollout] => entry[1] !== undefined),
    );
    this.rolloutsRead.set(observed, new Map([...(this.rolloutsRead.get(observed) ?? []), ...rollouts]));
    return rollouts;
  }

  private async getRollout(
    observed: ObservedApplication,
    service: string,
  ): Promise<Rollout | undefined> {
    const instance = this.instanceOf(observed);
    const app = observed.application;
    const appName = app.metadata?.name;
    const namespace = app.spec?.destination?.namespace;
    if (!instance || !appName || !namespace) return undefined;
    const query = new URLSearchParams({
      namespace,
      resourceName: service,
      group: 'argoproj.io',
      kind: 'Rollout',
      version: 'v1alpha1',
    });
    if (app.metadata?.namespace) query.set('appNamespace', app.metadata.namespace);
    try {
      const body = await argoCdGet<{ manifest?: string }>(
        instance,
        `/api/v1/applications/${encodeURIComponent(appName)}/resource?${query}`,
      );
      return body.manifest ? (JSON.parse(body.manifest) as Rollout) : undefined;
    } catch (error) {
      if (noSuchResource(error)) return undefined;
      throw error;
    }
  }

  /** The service's hop evidence (ArgoCdHopEvidence): a few bounded reads, for a cell that is not healthy. */
  async hopEvidence(observed: ObservedApplication, service: string): Promise<ClusterEvidence> {
    const instance = this.instanceOf(observed);
    if (!instance || !observed.application.metadata?.name) {
      return { namespace: observed.application.spec?.destination?.namespace ?? '', workload: service };
    }
    return this.evidence.read(instance, observed, service, this.rolloutsRead.get(observed)?.get(service));
  }

  private instanceOf(observed: ObservedApplication): ArgoCdInstanceConfig | undefined {
    return this.instances.find(i => i.name === observed.source);
  }
}

/** An authenticated ArgoCD API call; `signal` replaces the request timeout (a stream has none). */
export async function argoCdFetch(
  instance: ArgoCdInstanceConfig,
  path: string,
  signal: AbortSignal = AbortSignal.timeout(REQUEST_TIMEOUT_MS),
): Promise<Response> {
  let response: Response;
  const started = Date.now();
  try {
    response = await fetch(`${instance.baseUrl}${path}`, {
      headers: {
        authorization: `Bearer ${instance.token}`,
        accept: 'application/json',
      },
      signal,
    });
  } catch (error) {
    // Which read, and after how long: a timeout under load is told from a refused connection.
    const waited = `GET ${path.split('?')[0]} after ${Date.now() - started} ms`;
    throw new ArgoCdRequestError(
      `cannot reach ${instance.baseUrl} (${waited}): ${(error as Error).cause ?? (error as Error).message}`,
    );
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let message = text.slice(0, 200);
    try {
      message = JSON.parse(text).message ?? message;
    } catch {
      // not JSON: keep the text
    }
    throw new ArgoCdRequestError(
      `HTTP ${response.status} from ${instance.baseUrl}: ${message}`,
      response.status,
    );
  }
  return response;
}

/**
 * An authenticated ArgoCD read's JSON. With `maxBytes`, no more than that is read: the answer
 * is cut off past it, and an answer that is not JSON is said as such.
 */
export async function argoCdGet<T>(instance: ArgoCdInstanceConfig, path: string, maxBytes?: number): Promise<T> {
  const response = await argoCdFetch(instance, path);
  if (maxBytes === undefined) return (await response.json()) as T;
  const read = `GET ${path.split('?')[0]}`;
  const body = await readBodyWithin(
    response,
    maxBytes,
    bytes => new ArgoCdRequestError(`${instance.baseUrl} answered ${read} with ${bytes} bytes, over the ${maxBytes} read at most`),
  );
  try {
    return JSON.parse(body.toString('utf8')) as T;
  } catch {
    throw new ArgoCdRequestError(`${instance.baseUrl} answered ${read} with something that is not JSON`);
  }
}
