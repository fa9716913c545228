import express, { Request, Response, Router } from 'express';
import { STATUS_CODES } from 'node:http';
import { FaultInjector } from '../control/faults';
import { RequestLog } from '../control/requestLog';
import { OutageSwitch } from '../control/outage';
import { OpenStreams } from '../control/openStreams';
import type { ArgocdVersion } from '../options';
import {
  applicationLabels,
  applicationManifest,
  ManifestContext,
} from '../world/applicationManifest';
import { liveObjects } from '../world/liveObjects';
import { matchesLabelSelector } from '../world/labelSelector';
import { ApplicationState } from '../world/applicationState';
import { World } from '../world/world';
import { renderApplicationPage } from './applicationPage';

export interface ArgocdRouterDeps {
  world: World;
  token: string;
  faults: FaultInjector;
  requestLog: RequestLog;
  outage: OutageSwitch;
  streams: OpenStreams;
  manifestContext: () => ManifestContext;
}

const ARGOCD_VERSION_STRINGS: Record<ArgocdVersion, string> = {
  '2': 'v2.14.0+platform-sim',
  '3': 'v3.0.0+platform-sim',
};

/** Argo CD's gRPC-gateway error body. */
function argoError(
  res: Response,
  status: number,
  code: number,
  message: string,
): void {
  res.status(status).json({ error: message, code, message });
}

/** The Argo CD API subset, mounted at /argocd (an Argo CD baseUrl). */
export function createArgocdRouter(deps: ArgocdRouterDeps): Router {
  const { world } = deps;
  const router = express.Router();
  router.use(deps.requestLog.middleware('argocd'));
  router.use(deps.outage.middleware());
  router.use(
    deps.faults.middleware('argocd', (_req, res, fault) => {
      const status = fault.status ?? 503;
      argoError(
        res,
        status,
        status === 503 ? 14 : 13,
        fault.message ?? STATUS_CODES[status] ?? 'error',
      );
    }),
  );

  router.get('/api/version', (_req, res) => {
    res.json({
      Version: ARGOCD_VERSION_STRINGS[deps.manifestContext().argocdVersion],
      BuildDate: '2026-01-01T00:00:00Z',
      GoVersion: 'go1.23',
      Platform: 'linux/amd64',
    });
  });

  // Argo CD's UI page of an Application (where the ladder links), open like the PR pages.
  router.get(['/applications/:namespace/:name', '/applications/:name'], (req, res) => {
    const app = world.visibleApp(req.params.name);
    if (!app) {
      res.status(404).type('text/html').send('<h1>Application not found</h1>');
      return;
    }
    res.type('text/html').send(renderApplicationPage(app, world));
  });

  router.use((req, res, next) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    const cookie = /(?:^|;\s*)argocd\.token=([^;]+)/.exec(
      req.headers.cookie ?? '',
    );
    const token = match?.[1] ?? cookie?.[1];
    if (token !== deps.token) {
      argoError(res, 401, 16, 'no session information');
      return;
    }
    next();
  });

  /** The list's and the stream's query: name, selector, projects, appNamespace. */
  const queryFilter = (req: Request) => {
    const name = queryString(req, 'name');
    const selector = queryString(req, 'selector');
    const appNamespace = queryString(req, 'appNamespace');
    const projects = queryList(req, 'projects').concat(
      queryList(req, 'project'),
    );
    const manifestOf = (app: ApplicationState) => {
      if (name && app.name !== name) return undefined;
      if (projects.length > 0 && !projects.includes(app.key.team))
        return undefined;
      // Filtered before the whole object is built: a Product's list among thousands of Applications.
      if (selector && !matchesLabelSelector(applicationLabels(app), selector))
        return undefined;
      const manifest = applicationManifest(app, world, deps.manifestContext());
      const metadata = manifest.metadata as any;
      if (appNamespace && metadata.namespace !== appNamespace) return undefined;
      return manifest;
    };
    return { name, manifestOf };
  };

  router.get('/api/v1/applications', (req, res) => {
    const { manifestOf } = queryFilter(req);
    const items = world.visibleApps().flatMap(app => manifestOf(app) ?? []);
    res.json({ metadata: { resourceVersion: world.resourceVersion }, items });
  });

  /**
   * ApplicationService.Watch through grpc-gateway: one JSON object per line,
   * `{"result":{"type":…,"application":…}}`, for as long as the client stays.
   * Like Argo CD, it starts with an ADDED per Application unless resumed from a
   * resourceVersion (a single-Application watch always starts so).
   */
  router.get('/api/v1/stream/applications', (req, res) => {
    const { name, manifestOf } = queryFilter(req);
    const stream = deps.streams.open('argocd', req, res, 'application/json');
    const send = (type: string, app: ApplicationState) => {
      const application = manifestOf(app);
      if (application) stream.write({ result: { type, application } });
    };
    if (!queryString(req, 'resourceVersion') || name) {
      for (const app of world.visibleApps()) send('ADDED', app);
    }
    stream.onClose(world.onApplicationEvent(event => send(event.type, event.app)));
  });

  router.get('/api/v1/applications/:name', (req, res) => {
    const app = world.visibleApp(req.params.name);
    // Argo CD answers 403 for an application that does not exist, so as not to reveal which ones do.
    if (!app) {
      argoError(res, 403, 7, 'permission denied');
      return;
    }
    res.json(applicationManifest(app, world, deps.manifestContext()));
  });

  router.get('/api/v1/applications/:name/resource-tree', (req, res) => {
    const app = world.visibleApp(req.params.name);
    if (!app) {
      argoError(res, 403, 7, 'permission denied');
      return;
    }
    const nodes = liveObjects(app, world).map(object => ({
      group: object.group,
      version: object.version,
      kind: object.kind,
      namespace: object.namespace,
      name: object.name,
      uid: object.uid,
      resourceVersion: object.resourceVersion,
      createdAt: object.createdAt,
      ...(object.parentRefs ? { parentRefs: object.parentRefs } : {}),
      ...(object.health ? { health: object.health } : {}),
      ...(object.images ? { images: object.images } : {}),
      ...(object.info ? { info: object.info } : {}),
      ...(object.kind === 'Service'
        ? { networkingInfo: { targetLabels: { app: object.name } } }
        : {}),
    }));
    res.json({
      nodes,
      hosts: [
        {
          name: 'sim-node-1',
          resourcesInfo: [],
          systemInfo: { architecture: 'amd64', operatingSystem: 'linux' },
        },
      ],
    });
  });

  router.get('/api/v1/applications/:name/resource', (req, res) => {
    const app = world.visibleApp(req.params.name);
    if (!app) {
      argoError(res, 403, 7, 'permission denied');
      return;
    }
    const kind = queryString(req, 'kind');
    const resourceName = queryString(req, 'resourceName');
    const namespace = queryString(req, 'namespace');
    const group = queryString(req, 'group');
    const version = queryString(req, 'version');
    // Only a service's own objects bear its name (`<service>`, `<service>-<hash>`, …): building
    // every service's objects for each read made one read cost as much as the whole tree.
    // A PolicyReport is named by its subject's uid: it is looked for among every service's objects.
    const named = [...app.rollouts.values()].filter(rollout => resourceName?.startsWith(rollout.name));
    const owners = named.length > 0 ? named : app.rollouts.values();
    const object = liveObjects(app, world, owners).find(
      candidate =>
        candidate.kind === kind &&
        candidate.name === resourceName &&
        (!namespace || candidate.namespace === namespace) &&
        (group === undefined || candidate.group === group) &&
        (!version || candidate.version === version),
    );
    if (!object) {
      // Argo CD answers InvalidArgument (400), not NotFound, for a resource the Application does not have.
      argoError(
        res,
        400,
        3,
        `${kind ?? ''} ${group ?? ''} ${resourceName ?? ''} not found as part of application ${app.name}`,
      );
      return;
    }
    res.json({ manifest: JSON.stringify(object.manifest) });
  });

  /**
   * ListResourceEvents: without a resource, the Application's own events (none
   * here); with one (resourceNamespace, resourceName, resourceUID, as the UI
   * sends them), the events about that object of the Application's tree.
   */
  router.get('/api/v1/applications/:name/events', (req, res) => {
    const app = world.visibleApp(req.params.name);
    if (!app) {
      argoError(res, 403, 7, 'permission denied');
      return;
    }
    const resourceName = queryString(req, 'resourceName');
    const namespace = queryString(req, 'resourceNamespace');
    const uid = queryString(req, 'resourceUID');
    const list = (items: unknown[]) =>
      res.json({ metadata: { resourceVersion: world.resourceVersion }, items });
    if (!resourceName && !namespace && !uid) {
      list([]);
      return;
    }
    const object = liveObjects(app, world).find(
      candidate =>
        candidate.name === resourceName &&
        candidate.namespace === namespace &&
        (!uid || candidate.uid === uid),
    );
    if (!object) {
      argoError(res, 400, 3, `${resourceName ?? ''} not found as part of application ${app.name}`);
      return;
    }
    list(object.events ?? []);
  });

  router.use((_req, res) => argoError(res, 404, 5, 'Not Found'));
  return router;
}

function queryString(req: Request, key: string): string | undefined {
  const value = req.query[key];
  if (Array.isArray(value)) return String(value[0]);
  return typeof value === 'string' ? value : undefined;
}

function queryList(req: Request, key: string): string[] {
  const value = req.query[key];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value])
    .flatMap(v => String(v).split(','))
    .filter(Boolean);
}
