import express, { Request, Response, Router } from 'express';
import { STATUS_CODES } from 'node:http';
import { FaultInjector } from '../control/faults';
import { OutageSwitch } from '../control/outage';
import { OpenStreams } from '../control/openStreams';
import { RequestLog } from '../control/requestLog';
import {
  applicationLabels,
  applicationManifest,
  ManifestContext,
} from '../world/applicationManifest';
import { matchesLabelSelector } from '../world/labelSelector';
import { liveObjects } from '../world/liveObjects';
import { ApplicationState } from '../world/applicationState';
import { World } from '../world/world';
import { apiPathOf, groupVersionOf, ServedResource, WORKLOAD_RESOURCES } from './workloadResources';

export interface KubernetesRouterDeps {
  world: World;
  token: string;
  faults: FaultInjector;
  requestLog: RequestLog;
  outage: OutageSwitch;
  streams: OpenStreams;
  manifestContext: () => ManifestContext;
}

const GROUP = 'argoproj.io';
const VERSION = 'v1alpha1';
const GROUP_VERSION = `${GROUP}/${VERSION}`;

/** A Kubernetes Status object, the body of every API error. */
function sendStatus(
  res: Response,
  code: number,
  reason: string,
  message: string,
  details?: Record<string, unknown>,
): void {
  res.status(code).json({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  });
}

/** The API server's 404 for a path it does not serve (an unknown resource type, say). */
function sendUnknownPath(res: Response): void {
  sendStatus(
    res,
    404,
    'NotFound',
    'the server could not find the requested resource',
  );
}

type Manifest = Record<string, any>;

/** The list items in `namespace` (all, when none) that `labelSelector` (a query parameter) selects. */
function selectItems(
  items: Manifest[],
  namespace: string | undefined,
  labelSelector: unknown,
): Manifest[] {
  const selector = typeof labelSelector === 'string' ? labelSelector : '';
  return items
    .filter(item => !namespace || item.metadata.namespace === namespace)
    .filter(
      item => !selector || matchesLabelSelector(item.metadata.labels, selector),
    );
}

/**
 * Enough of a Kubernetes API server, mounted at /k8s, for CustomObjectsApi
 * reads of Argo CD Applications, Argo Rollouts and AnalysisRuns, CoreV1Api
 * reads of Events, lists of each service's Pods, ReplicaSets, PolicyReports
 * and HTTPRoutes (WORKLOAD_RESOURCES), plus minimal discovery.
 */
export function createKubernetesRouter(deps: KubernetesRouterDeps): Router {
  const { world } = deps;
  const router = express.Router();
  router.use(deps.requestLog.middleware('kubernetes'));
  router.use(deps.outage.middleware());
  router.use(
    deps.faults.middleware('kubernetes', (_req, res, fault) => {
      const status = fault.status ?? 503;
      sendStatus(
        res,
        status,
        status === 503 ? 'ServiceUnavailable' : 'InternalError',
        fault.message ?? STATUS_CODES[status] ?? 'error',
      );
    }),
  );
  router.use((req, res, next) => {
    const match = /^Bearer\s+(\S+)$/i.exec(
      (req.headers.authorization ?? '').trim(),
    );
    if (match?.[1] !== deps.token) {
      sendStatus(res, 401, 'Unauthorized', 'Unauthorized');
      return;
    }
    next();
  });

  registerDiscovery(router);

  const applications = (): Manifest[] =>
    world
      .visibleApps()
      .map(app => applicationManifest(app, world, deps.manifestContext()));
  const liveOfKind = (kind: string) => (): Manifest[] =>
    world.visibleApps().flatMap(app =>
      liveObjects(app, world)
        .filter(o => o.kind === kind)
        .map(o => o.manifest as Manifest),
    );

  const kinds: Record<string, { kind: string; list: () => Manifest[] }> = {
    applications: { kind: 'Application', list: applications },
    rollouts: { kind: 'Rollout', list: liveOfKind('Rollout') },
    analysisruns: { kind: 'AnalysisRun', list: liveOfKind('AnalysisRun') },
  };

  /** core/v1 Events (CoreV1Api listNamespacedEvent / listEventForAllNamespaces), with `involvedObject.*` field selectors. */
  const listEvents = (req: Request, res: Response) => {
    const selector = parseFieldSelector(req.query.fieldSelector);
    if (typeof selector === 'string') {
      sendStatus(res, 400, 'BadRequest', selector);
      return;
    }
    const namespace = req.params.namespace;
    const items = world
      .visibleApps()
      .filter(app => !namespace || app.namespace === namespace)
      .flatMap(app => liveObjects(app, world).flatMap(o => o.events ?? []))
      .filter(event => Object.entries(selector).every(([field, value]) => fieldOf(event, field) === value));
    res.json({
      kind: 'EventList',
      apiVersion: 'v1',
      metadata: { resourceVersion: world.resourceVersion },
      items,
    });
  };
  router.get('/api/v1/events', listEvents);
  router.get('/api/v1/namespaces/:namespace/events', listEvents);

  /**
   * `?watch=true` on the Applications list, as the API server answers it: one
   * `{"type","object"}` line per event. Without a resourceVersion (or "0") it
   * starts with an ADDED per Application; from a resourceVersion it replays
   * what followed, or, when that is no longer kept, sends an ERROR event with
   * a 410 Expired Status and ends (the client lists again). `timeoutSeconds`
   * ends it, as the server does.
   */
  const watchApplications = (req: Request, res: Response) => {
    const selector =
      typeof req.query.labelSelector === 'string' ? req.query.labelSelector : '';
    const namespace = req.params.namespace;
    const from = typeof req.query.resourceVersion === 'string' ? req.query.resourceVersion : '';
    const replay = from && from !== '0' ? world.eventsSince(Number(from)) : undefined;
    const stream = deps.streams.open('kubernetes', req, res, 'application/json');
    const send = (type: string, app: ApplicationState) => {
      if (selector && !matchesLabelSelector(applicationLabels(app), selector)) return;
      const object = applicationManifest(app, world, deps.manifestContext()) as Manifest;
      if (namespace && object.metadata.namespace !== namespace) return;
      stream.write({ type, object });
    };
    if (from && from !== '0' && !replay) {
      stream.write({
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `too old resource version: ${from} (${world.resourceVersion})`,
          reason: 'Expired',
          code: 410,
        },
      });
      res.end();
      return;
    }
    const initial = replay
      ? replay.map(event => [event.type, event.app] as const)
      : world.visibleApps().map(app => ['ADDED', app] as const);
    for (const [type, app] of initial) send(type, app);
    stream.onClose(world.onApplicationEvent(event => send(event.type, event.app)));
    const timeoutSeconds = Number(req.query.timeoutSeconds);
    if (timeoutSeconds > 0) {
      const timer = setTimeout(() => res.end(), timeoutSeconds * 1000);
      stream.onClose(() => clearTimeout(timer));
    }
  };

  const listHandler =
    (namespaced: boolean) => (req: Request, res: Response) => {
      if (req.query.watch === 'true' || req.query.watch === '1') {
        if (req.params.plural === 'applications') {
          watchApplications(req, res);
        } else {
          sendStatus(res, 405, 'MethodNotAllowed', 'watch is not supported here');
        }
        return;
      }
      const resource = kinds[req.params.plural];
      if (!resource) {
        sendUnknownPath(res);
        return;
      }
      const items = selectItems(
        resource.list(),
        namespaced ? req.params.namespace : undefined,
        req.query.labelSelector,
      );
      res.json({
        apiVersion: GROUP_VERSION,
        kind: `${resource.kind}List`,
        metadata: { resourceVersion: world.resourceVersion },
        items,
      });
    };

  /** The world's objects of a workload resource type, as the cluster's list of them. */
  const listWorkload =
    (resource: ServedResource) => (req: Request, res: Response) => {
      res.json({
        apiVersion: groupVersionOf(resource),
        kind: `${resource.kind}List`,
        metadata: { resourceVersion: world.resourceVersion },
        items: selectItems(
          liveOfKind(resource.kind)(),
          req.params.namespace,
          req.query.labelSelector,
        ),
      });
    };
  for (const resource of WORKLOAD_RESOURCES) {
    router.get(
      `${apiPathOf(resource)}/${resource.plural}`,
      listWorkload(resource),
    );
    router.get(
      `${apiPathOf(resource)}/namespaces/:namespace/${resource.plural}`,
      listWorkload(resource),
    );
  }

  router.get(`/apis/${GROUP}/${VERSION}/:plural`, listHandler(false));
  router.get(
    `/apis/${GROUP}/${VERSION}/namespaces/:namespace/:plural`,
    listHandler(true),
  );
  router.get(
    `/apis/${GROUP}/${VERSION}/namespaces/:namespace/:plural/:name`,
    (req, res) => {
      const resource = kinds[req.params.plural];
      if (!resource) {
        sendUnknownPath(res);
        return;
      }
      const item = resource
        .list()
        .find(
          candidate =>
            candidate.metadata.namespace === req.params.namespace &&
            candidate.metadata.name === req.params.name,
        );
      if (!item) {
        sendStatus(
          res,
          404,
          'NotFound',
          `${req.params.plural}.${GROUP} "${req.params.name}" not found`,
          {
            name: req.params.name,
            group: GROUP,
            kind: req.params.plural,
          },
        );
        return;
      }
      res.json(item);
    },
  );

  router.use((_req, res) => sendUnknownPath(res));
  return router;
}

const EVENT_FIELDS = [
  'involvedObject.kind',
  'involvedObject.name',
  'involvedObject.namespace',
  'involvedObject.uid',
  'reason',
  'type',
];

/** `a=b,c==d` as the API server takes a field selector for Events; a string is the error for a field it does not index. */
function parseFieldSelector(query: unknown): Record<string, string> | string {
  const selector: Record<string, string> = {};
  if (typeof query !== 'string' || !query) return selector;
  for (const term of query.split(',')) {
    const [field, value = ''] = term.split(/==?/);
    if (!EVENT_FIELDS.includes(field))
      return `"${field}" is not a known field selector: only "${EVENT_FIELDS.join('", "')}"`;
    selector[field] = value;
  }
  return selector;
}

function fieldOf(object: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<any>((value, key) => value?.[key], object);
}

/** An APIResourceList entry: a resource the server lists (and gets or watches, where it does). */
function discoveryEntry(resource: ServedResource, verbs: string[]) {
  return {
    name: resource.plural,
    singularName: resource.singularName,
    namespaced: true,
    kind: resource.kind,
    verbs,
    ...(resource.shortNames ? { shortNames: resource.shortNames } : {}),
  };
}

/** What discovery tells of each group and version it serves: Argo CD's and Argo Rollouts' kinds, then the workloads'. */
const ARGO_RESOURCES: Array<ServedResource & { verbs: string[] }> = [
  {
    group: GROUP,
    version: VERSION,
    plural: 'applications',
    singularName: 'application',
    kind: 'Application',
    verbs: ['get', 'list', 'watch'],
    shortNames: ['app', 'apps'],
  },
  {
    group: GROUP,
    version: VERSION,
    plural: 'rollouts',
    singularName: 'rollout',
    kind: 'Rollout',
    verbs: ['get', 'list'],
    shortNames: ['ro'],
  },
  {
    group: GROUP,
    version: VERSION,
    plural: 'analysisruns',
    singularName: 'analysisrun',
    kind: 'AnalysisRun',
    verbs: ['get', 'list'],
    shortNames: ['ar'],
  },
];
const CORE_EVENTS: ServedResource & { verbs: string[] } = {
  group: '',
  version: 'v1',
  plural: 'events',
  singularName: 'event',
  kind: 'Event',
  verbs: ['list'],
  shortNames: ['ev'],
};
const DISCOVERED = [
  ...ARGO_RESOURCES,
  CORE_EVENTS,
  ...WORKLOAD_RESOURCES.map(resource => ({ ...resource, verbs: ['list'] })),
];

function registerDiscovery(router: Router): void {
  router.get('/version', (_req, res) => {
    res.json({
      major: '1',
      minor: '31',
      gitVersion: 'v1.31.0+platform-sim',
      platform: 'linux/amd64',
    });
  });
  router.get('/api', (_req, res) => {
    res.json({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [
        { clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:6443' },
      ],
    });
  });
  const groupVersions = new Map<string, typeof DISCOVERED>();
  for (const resource of DISCOVERED) {
    const key = groupVersionOf(resource);
    groupVersions.set(key, [...(groupVersions.get(key) ?? []), resource]);
  }
  const groups = [
    ...new Set(DISCOVERED.filter(r => r.group).map(r => r.group)),
  ].map(name => {
    const versions = [...groupVersions.values()]
      .filter(([first]) => first.group === name)
      .map(([first]) => ({
        groupVersion: groupVersionOf(first),
        version: first.version,
      }));
    return { name, versions, preferredVersion: versions[0] };
  });
  router.get('/apis', (_req, res) =>
    res.json({ kind: 'APIGroupList', apiVersion: 'v1', groups }),
  );
  for (const group of groups) {
    router.get(`/apis/${group.name}`, (_req, res) =>
      res.json({ kind: 'APIGroup', apiVersion: 'v1', ...group }),
    );
  }
  for (const [groupVersion, resources] of groupVersions) {
    router.get(apiPathOf(resources[0]), (_req, res) =>
      res.json({
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion,
        resources: resources.map(resource =>
          discoveryEntry(resource, resource.verbs),
        ),
      }),
    );
  }
}
