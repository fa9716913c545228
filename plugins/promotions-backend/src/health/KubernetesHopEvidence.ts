import type { LoggerService } from '@backstage/backend-plugin-api';
import type { AppsV1Api, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import {
  AnalysisRun,
  HTTPRoute,
  KubeEvent,
  KubePod,
  PolicyReport,
  ResourceNode,
  Rollout,
  hopObjects,
  routesOfRollout,
} from '@refplat/plugin-promotions-common';
import pLimit from 'p-limit';
import type { ClusterEvidence, ObservedApplication } from './HealthSource';
import { EVIDENCE_READ_CONCURRENCY, kubeEventsOf, PODS_READ } from './hopEvidenceReads';
import { kubernetesErrorReason } from './kubernetesErrorReason';
import { ListedKind, ListedObject, listedResourceNode } from './listedResourceNodes';

/** The cluster APIs the evidence reads call: one list per kind, and the service's Rollout. */
export interface KubernetesHopApis {
  core: Pick<CoreV1Api, 'listNamespacedPod' | 'listNamespacedEvent'>;
  apps: Pick<AppsV1Api, 'listNamespacedReplicaSet'>;
  custom: Pick<CustomObjectsApi, 'listNamespacedCustomObject' | 'getNamespacedCustomObject'>;
}

/**
 * The most items one list returns (its `limit`): a service's objects are a few; a list with
 * more is left unread rather than read in part (half a list would read as "no such object").
 */
const LIST_LIMIT = 500;

const ROLLOUT: ListedKind = { group: 'argoproj.io', version: 'v1alpha1', kind: 'Rollout' };
const REPLICA_SET: ListedKind = { group: 'apps', version: 'v1', kind: 'ReplicaSet' };
const POD: ListedKind = { group: '', version: 'v1', kind: 'Pod' };
const POLICY_REPORT: ListedKind = { group: 'wgpolicyk8s.io', version: 'v1alpha2', kind: 'PolicyReport' };
const ANALYSIS_RUN: ListedKind = { group: 'argoproj.io', version: 'v1alpha1', kind: 'AnalysisRun' };
const HTTP_ROUTE: ListedKind = { group: 'gateway.networking.k8s.io', version: 'v1', kind: 'HTTPRoute' };

/** A list's answer: typed lists say `_continue` (client-node), custom objects `continue`. */
interface ListAnswer {
  items?: unknown[];
  metadata?: { _continue?: string; continue?: string };
}

/**
 * Reads one service's hop evidence straight from the cluster, where the Kubernetes health
 * source is configured: in the Application's destination namespace, the service's Rollout, then
 * one list each of its ReplicaSets and Pods (by the Rollout's selector), PolicyReports,
 * AnalysisRuns and HTTPRoutes, from which `hopObjects` picks the rolling-out ReplicaSet and
 * the rest as it picks them from ArgoCD's tree; then the core/v1 Events of that ReplicaSet
 * and its Pods (a field selector per object: a selector cannot ask for several). A list that
 * cannot be read is left out (its hop is unknown), with the reason logged.
 */
export class KubernetesHopEvidence {
  private readonly reads = pLimit(EVIDENCE_READ_CONCURRENCY);

  constructor(private readonly logger?: LoggerService) {}

  async read(apis: KubernetesHopApis, observed: ObservedApplication, service: string): Promise<ClusterEvidence> {
    const { metadata, spec } = observed.application;
    const namespace = spec?.destination?.namespace ?? metadata?.name ?? '';
    const evidence: ClusterEvidence = { namespace, workload: service };
    const reads = new ServiceReads(apis, namespace, this.reads, (what, error) =>
      this.logger?.warn(
        `Cannot read the ${what} of ${service} in ${namespace} (cluster ${observed.source}): ${kubernetesErrorReason(error)}`,
      ),
    );
    const rollout = await reads.rollout(service);
    if (!rollout) return evidence;
    const labelSelector = matchLabelsSelector(rollout);
    const [replicaSets, pods, policyReports, analysisRuns, routes] = await Promise.all([
      reads.list('ReplicaSets', REPLICA_SET, () =>
        apis.apps.listNamespacedReplicaSet({ namespace, labelSelector, limit: LIST_LIMIT }),
      ),
      reads.list('Pods', POD, () => apis.core.listNamespacedPod({ namespace, labelSelector, limit: LIST_LIMIT })),
      reads.customList('PolicyReports', POLICY_REPORT, 'policyreports'),
      reads.customList('AnalysisRuns', ANALYSIS_RUN, 'analysisruns'),
      reads.customList('HTTPRoutes', HTTP_ROUTE, 'httproutes'),
    ]);
    const listed = [replicaSets, pods, policyReports, analysisRuns, routes].flatMap(list => list ?? []);
    const objects = hopObjects(
      [listedResourceNode(rollout as ListedObject, ROLLOUT), ...listed.map(entry => entry.node)],
      service,
      rollout.status?.currentPodHash,
    );
    const manifests = new Map(listed.map(entry => [entry.node.uid, entry.object]));
    const manifestsOf = <T>(nodes: Array<ResourceNode | undefined>) =>
      nodes.flatMap(node => (node && manifests.has(node.uid) ? [manifests.get(node.uid) as T] : []));
    const podsRead = objects.pods.slice(0, PODS_READ);
    // Without the ReplicaSets or the Pods, their events and reports cannot be told apart from none.
    const ownersRead = replicaSets !== undefined && pods !== undefined;
    const events =
      ownersRead && objects.replicaSet ? await reads.events([objects.replicaSet, ...podsRead]) : undefined;
    return {
      ...evidence,
      events,
      pods: ownersRead && objects.replicaSet ? manifestsOf<KubePod>(podsRead) : undefined,
      policyReports: ownersRead && policyReports ? manifestsOf<PolicyReport>(objects.policyReports) : undefined,
      analysisRuns: analysisRuns && manifestsOf<AnalysisRun>([objects.analysisRun]),
      routes: routes && routesOfRollout(rollout, service, namespace, manifestsOf<HTTPRoute>(objects.routes)),
    };
  }
}

/** `app=storefront,…` from the Rollout's `spec.selector.matchLabels`; none lists the namespace. */
function matchLabelsSelector(rollout: Rollout): string | undefined {
  const selector = rollout.spec?.selector as { matchLabels?: Record<string, unknown> } | undefined;
  const labels = Object.entries(selector?.matchLabels ?? {}).filter(([, value]) => typeof value === 'string');
  return labels.length > 0 ? labels.map(([key, value]) => `${key}=${value}`).join(',') : undefined;
}

/** One listed object, as a tree node and as the manifest the hop rules read (plain JSON). */
interface Listed {
  node: ResourceNode;
  object: unknown;
}

/** The reads in one namespace, a few at a time; each failure is reported and read as undefined. */
class ServiceReads {
  constructor(
    private readonly apis: KubernetesHopApis,
    private readonly namespace: string,
    private readonly limit: ReturnType<typeof pLimit>,
    private readonly cannotRead: (what: string, error: unknown) => void,
  ) {}

  /** The service's Rollout; without it (none, or unreadable) there is nothing to read. */
  async rollout(name: string): Promise<Rollout | undefined> {
    try {
      return (await this.limit(() =>
        this.apis.custom.getNamespacedCustomObject({
          ...customGroupVersion(ROLLOUT),
          namespace: this.namespace,
          plural: 'rollouts',
          name,
        }),
      )) as Rollout;
    } catch (error) {
      this.cannotRead('Rollout', error);
      return undefined;
    }
  }

  customList(what: string, kind: ListedKind, plural: string): Promise<Listed[] | undefined> {
    return this.list(what, kind, () =>
      this.apis.custom.listNamespacedCustomObject({
        ...customGroupVersion(kind),
        namespace: this.namespace,
        plural,
        limit: LIST_LIMIT,
      }),
    );
  }

  async list(what: string, kind: ListedKind, call: () => Promise<unknown>): Promise<Listed[] | undefined> {
    try {
      const answer = plainJson(await this.limit(call)) as ListAnswer | undefined;
      if (answer?.metadata?._continue || answer?.metadata?.continue) {
        throw new Error(`more than ${LIST_LIMIT} in the namespace`);
      }
      const items = Array.isArray(answer?.items) ? (answer!.items as ListedObject[]) : [];
      return items
        .filter(item => typeof item?.metadata?.uid === 'string')
        .map(object => ({ node: listedResourceNode(object, kind), object }));
    } catch (error) {
      this.cannotRead(what, error);
      return undefined;
    }
  }

  /** The Events of each object (`involvedObject.uid`), or undefined when one of them cannot be read. */
  async events(of: ResourceNode[]): Promise<KubeEvent[] | undefined> {
    try {
      const lists = await Promise.all(
        of.map(node =>
          this.limit(() =>
            this.apis.core.listNamespacedEvent({
              namespace: this.namespace,
              fieldSelector: `involvedObject.uid=${node.uid}`,
              limit: LIST_LIMIT,
            }),
          ),
        ),
      );
      return lists.flatMap(list => kubeEventsOf((plainJson(list) as ListAnswer | undefined)?.items));
    } catch (error) {
      this.cannotRead('Events', error);
      return undefined;
    }
  }
}

function customGroupVersion(kind: ListedKind) {
  return { group: kind.group, version: kind.version };
}

/**
 * The object as the API sent it: client-node turns typed objects' times into Dates, which the
 * hop rules (like ArgoCD's answers) read as ISO strings.
 */
function plainJson(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
