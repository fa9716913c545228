import { RELEASES_DIR } from '../platform/layout';
import { ApplicationState } from './applicationState';
import { isoSeconds, uidFor } from './identifiers';
import {
  applicationHealth,
  managedResources,
  runningImages,
} from './liveObjects';
import { World } from './world';

export const ARGOCD_NAMESPACE = 'argocd';
export const DESTINATION_SERVER = 'https://kubernetes.default.svc';

export interface ManifestContext {
  /** The platform repository's clone URL (spec.source.repoURL). */
  repoURL: string;
}

/**
 * The Application object as Argo CD's API and the Kubernetes API return it
 * (argoproj.io/v1alpha1), with inline resource health (no resourceHealthSource).
 */
export function applicationManifest(
  app: ApplicationState,
  world: World,
  context: ManifestContext,
): Record<string, unknown> {
  const { team, product, stage } = app.key;
  const source = {
    repoURL: context.repoURL,
    path: `${RELEASES_DIR}/${team}/${product}`,
    targetRevision: 'main',
    directory: { include: `${stage}.yaml` },
  };
  const destination = { server: DESTINATION_SERVER, namespace: app.namespace };
  const resources = managedResources(app, world);
  const health = applicationHealth(app, world);
  const syncStatus = app.overrides.sync ?? app.syncStatus;

  const status: Record<string, unknown> = {
    sync: {
      status: syncStatus,
      revision: app.comparedRevision,
      comparedTo: { source, destination },
    },
    health: {
      status: health.status,
      lastTransitionTime: isoSeconds(app.healthChangedAt),
    },
    reconciledAt: isoSeconds(app.reconciledAt),
    observedAt: isoSeconds(app.reconciledAt),
    sourceType: 'Directory',
    controllerNamespace: ARGOCD_NAMESPACE,
    summary: { images: runningImages(app, world) },
    resources: resources.map(resource => JSON.parse(JSON.stringify(resource))),
    history: app.history.map(entry => ({
      id: entry.id,
      revision: entry.revision,
      deployStartedAt: isoSeconds(entry.deployStartedAt),
      deployedAt: isoSeconds(entry.deployedAt),
      source,
      initiatedBy: { automated: true },
    })),
  };
  if (app.operation) {
    status.operationState = {
      operation: {
        sync: { revision: app.operation.revision, syncStrategy: { hook: {} } },
        initiatedBy: { automated: true },
        retry: { limit: 5 },
      },
      phase: 'Succeeded',
      message: 'successfully synced (all tasks run)',
      startedAt: isoSeconds(app.operation.startedAt),
      finishedAt: isoSeconds(app.operation.finishedAt),
      syncResult: {
        revision: app.operation.revision,
        source,
        resources: resources
          .filter(resource => resource.health.status !== 'Missing')
          .map(resource => ({
            group: resource.group ?? '',
            version: resource.version,
            kind: resource.kind,
            namespace: resource.namespace,
            name: resource.name,
            status: 'Synced',
            message: `${resource.kind.toLowerCase()}${resource.group ? `.${resource.group}` : ''}/${resource.name} configured`,
            hookPhase: 'Running',
            syncPhase: 'Sync',
          })),
      },
    };
  }
  if (app.comparisonError) {
    status.conditions = [
      {
        type: 'ComparisonError',
        message: `Failed to load target state: ${app.comparisonError}`,
        lastTransitionTime: isoSeconds(app.reconciledAt),
      },
    ];
  }

  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: {
      name: app.name,
      namespace: ARGOCD_NAMESPACE,
      uid: uidFor('Application', ARGOCD_NAMESPACE, app.name),
      resourceVersion: world.resourceVersion,
      generation: app.history.length + 1,
      creationTimestamp: isoSeconds(app.createdAt),
      labels: {
        'refplat.org/team': team,
        'refplat.org/product': product,
        'refplat.org/stage': stage,
      },
      ownerReferences: [
        {
          apiVersion: 'argoproj.io/v1alpha1',
          kind: 'ApplicationSet',
          name: 'releases',
          uid: uidFor('ApplicationSet', ARGOCD_NAMESPACE, 'releases'),
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      finalizers: ['resources-finalizer.argocd.argoproj.io'],
    },
    spec: {
      project: team,
      source,
      destination,
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        syncOptions: ['CreateNamespace=true'],
      },
    },
    status,
  };
}
