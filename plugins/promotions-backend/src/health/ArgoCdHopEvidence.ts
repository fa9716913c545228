import {
  AnalysisRun,
  ApplicationTree,
  HTTPRoute,
  KubeEvent,
  KubePod,
  PolicyReport,
  ResourceNode,
  Rollout,
  hopObjects,
  routeNodesOfRollout,
  routesOfRollout,
} from '@refplat/plugin-promotions-common';
import pLimit from 'p-limit';
import type { ClusterEvidence, ObservedApplication } from './HealthSource';
import type { ArgoCdInstanceConfig } from './healthInstances';
import { EVIDENCE_READ_CONCURRENCY, kubeEventsOf, PODS_READ, ROUTES_READ } from './hopEvidenceReads';
import { RecentResults } from './RecentResults';

/** What the evidence reads ask ArgoCD through: one authenticated GET, its answer bounded in bytes. */
export type BoundedArgoCdGet = <T>(instance: ArgoCdInstanceConfig, path: string, maxBytes: number) => Promise<T>;

/** A resource tree of thousands of nodes fits; an answer past this is not read. */
const TREE_MAX_BYTES = 8 * 1024 * 1024;
/** One manifest or one object's events. */
const OBJECT_MAX_BYTES = 1024 * 1024;

/** Who answers "this object is gone" (see NO_SUCH_RESOURCE): the read skips it. */
export type IsNoSuchResource = (error: unknown) => boolean;

/**
 * Reads one service's hop evidence from ArgoCD, only where the ladder asks (a cell that is not
 * healthy): the resource tree, then the live Rollout's current pod template names the
 * ReplicaSet rolling out; ListResourceEvents for it and its Pods; `/resource` manifests of its
 * Pods, PolicyReports, the AnalysisRun and the HTTPRoutes (those carrying the service's traffic
 * are kept). A few reads at a time, each bounded in
 * size; a list that could not be read is left out (its hop is unknown), never guessed.
 */
export class ArgoCdHopEvidence {
  private readonly reads = pLimit(EVIDENCE_READ_CONCURRENCY);
  /** Several services of one Application asked together share one tree read. */
  private readonly trees = new RecentResults<ResourceNode[]>(0);

  constructor(
    private readonly get: BoundedArgoCdGet,
    private readonly isNoSuchResource: IsNoSuchResource,
  ) {}

  async read(
    instance: ArgoCdInstanceConfig,
    observed: ObservedApplication,
    service: string,
    /** The service's live Rollout, when the same view has just read it. */
    knownRollout?: Rollout,
  ): Promise<ClusterEvidence> {
    const { metadata, spec } = observed.application;
    const name = metadata?.name ?? '';
    const namespace = spec?.destination?.namespace ?? name;
    const app = new ApplicationReads(instance, name, metadata?.namespace, this.get, this.reads);
    const treeKey = `${instance.name}:${metadata?.namespace ?? ''}/${name}@${metadata?.resourceVersion ?? ''}`;
    const [nodes, rollout] = await Promise.all([
      this.trees.get(treeKey, () => app.tree()),
      // Only a hint (which ReplicaSet is rolling out): without it, the newest is.
      knownRollout ??
        app
          .manifest<Rollout>({ group: 'argoproj.io', version: 'v1alpha1', kind: 'Rollout', namespace, name: service })
          .catch(() => undefined),
    ]);
    const objects = hopObjects(nodes, service, rollout?.status?.currentPodHash);
    const pods = objects.pods.slice(0, PODS_READ);
    const each = <T>(of: ResourceNode[], read: (node: ResourceNode) => Promise<T | T[]>) =>
      readEach(of, read, this.isNoSuchResource);
    const [events, podManifests, policyReports, analysisRuns, routes] = await Promise.all([
      objects.replicaSet ? each([objects.replicaSet, ...pods], node => app.events(node)) : undefined,
      objects.replicaSet ? each(pods, node => app.manifest<KubePod>(node)) : undefined,
      each(objects.policyReports, node => app.manifest<PolicyReport>(node)),
      each(objects.analysisRun ? [objects.analysisRun] : [], node => app.manifest<AnalysisRun>(node)),
      each(routeNodesOfRollout(rollout, namespace, objects.routes).slice(0, ROUTES_READ), node => app.manifest<HTTPRoute>(node)),
    ]);
    return {
      namespace,
      workload: service,
      events,
      pods: podManifests,
      policyReports,
      analysisRuns,
      routes: routes && routesOfRollout(rollout, service, namespace, routes),
    };
  }
}

/**
 * Every node's answer, flattened; a node gone since the tree was read is skipped. Any other
 * failure leaves the whole list unread (undefined): half a list would read as "no such event".
 */
async function readEach<T>(
  nodes: ResourceNode[],
  read: (node: ResourceNode) => Promise<T | T[]>,
  isNoSuchResource: IsNoSuchResource,
): Promise<T[] | undefined> {
  try {
    const answers = await Promise.all(
      nodes.map(node => read(node).catch(error => (isNoSuchResource(error) ? [] : Promise.reject(error)))),
    );
    return answers.flat() as T[];
  } catch {
    return undefined;
  }
}

/** The reads of one Application's objects through ArgoCD's API (swagger: ApplicationService). */
class ApplicationReads {
  constructor(
    private readonly instance: ArgoCdInstanceConfig,
    private readonly name: string,
    private readonly appNamespace: string | undefined,
    private readonly get: BoundedArgoCdGet,
    private readonly limit: ReturnType<typeof pLimit>,
  ) {}

  async tree(): Promise<ResourceNode[]> {
    const tree = await this.ask<ApplicationTree>('resource-tree', {}, TREE_MAX_BYTES);
    return Array.isArray(tree?.nodes) ? tree.nodes.filter(node => typeof node?.kind === 'string') : [];
  }

  /** `GET …/resource`: the live manifest, which ArgoCD sends as a JSON string. */
  async manifest<T>(node: ResourceNode): Promise<T> {
    const answer = await this.ask<{ manifest?: unknown }>(
      'resource',
      {
        namespace: node.namespace ?? '',
        resourceName: node.name ?? '',
        group: node.group ?? '',
        kind: node.kind ?? '',
        version: node.version ?? '',
      },
      OBJECT_MAX_BYTES,
    );
    if (typeof answer?.manifest !== 'string') {
      throw new Error(`ArgoCD sent no manifest of ${node.kind} ${node.name}`);
    }
    try {
      return JSON.parse(answer.manifest) as T;
    } catch {
      throw new Error(`ArgoCD sent a manifest of ${node.kind} ${node.name} that is not JSON`);
    }
  }

  /** ListResourceEvents: the core/v1 Events about one object of the tree. */
  async events(node: ResourceNode): Promise<KubeEvent[]> {
    const answer = await this.ask<{ items?: unknown }>(
      'events',
      { resourceNamespace: node.namespace ?? '', resourceName: node.name ?? '', resourceUID: node.uid ?? '' },
      OBJECT_MAX_BYTES,
    );
    return kubeEventsOf(answer?.items);
  }

  private ask<T>(route: string, params: Record<string, string>, maxBytes: number): Promise<T> {
    const query = new URLSearchParams(params);
    if (this.appNamespace) query.set('appNamespace', this.appNamespace);
    const path = `/api/v1/applications/${encodeURIComponent(this.name)}/${route}?${query}`;
    return this.limit(() => this.get<T>(this.instance, path, maxBytes));
  }
}
