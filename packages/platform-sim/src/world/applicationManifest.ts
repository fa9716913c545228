import type { ArgocdVersion } from '../options';
import {
  applicationSources,
  revisionFields,
  SourceContext,
  sourceFields,
  SourceRevisions,
  sourceRevisions,
} from './applicationSources';
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
  argocdVersion: ArgocdVersion;
  sources: SourceContext;
}

/** The labels of an Application's metadata: a list's label selector needs no more of it. */
export function applicationLabels(app: ApplicationState): Record<string, string> {
  return {
    'refplat.org/team': app.key.team,
    'refplat.org/product': app.key.product,
    'refplat.org/stage': app.key.stage,
  };
}

/**
 * The Application object as Argo CD's API and the Kubernetes API return it
 * (argoproj.io/v1alpha1). Argo CD 2.x keeps each resource's health in
 * status.resources; 3.x leaves it out (`resourceHealthSource: appTree`) and
 * serves it only in the resource tree.
 */
export function applicationManifest(
  app: ApplicationState,
  world: World,
  context: ManifestContext,
): Record<string, unknown> {
  const { team } = app.key;
  const sources = context.sources;
  const sourcesOf = (digests: Record<string, string>) =>
    sourceFields(sources, applicationSources(sources, app.key, digests));
  const revisionsOf = (state: SourceRevisions) =>
    revisionFields(sources, sourceRevisions(sources, state));
  const compared: SourceRevisions = {
    revision: app.comparedRevision,
    appRevision: app.comparedAppRevision,
  };
  const destination = { server: DESTINATION_SERVER, namespace: app.namespace };
  const resources = managedResources(app, world);
  const health = applicationHealth(app, world);
  const syncStatus = app.overrides.sync ?? app.syncStatus;
  const appTree = context.argocdVersion === '3';
  const sourceType =
    sources.shape === 'platform-repo' ? 'Directory' : 'Kustomize';

  const status: Record<string, unknown> = {
    sync: {
      status: syncStatus,
      ...revisionsOf(compared),
      comparedTo: { ...sourcesOf(app.targetDigests), destination },
    },
    health: {
      status: health.status,
      lastTransitionTime: isoSeconds(app.healthChangedAt),
    },
    reconciledAt: isoSeconds(app.reconciledAt),
    observedAt: isoSeconds(app.reconciledAt),
    ...(sources.shape === 'multi-source'
      ? { sourceTypes: [sourceType] }
      : { sourceType }),
    controllerNamespace: ARGOCD_NAMESPACE,
    ...(appTree ? { resourceHealthSource: 'appTree' } : {}),
    summary: { images: runningImages(app, world) },
    resources: resources.map(({ health: resourceHealth, ...resource }) =>
      JSON.parse(
        JSON.stringify(
          appTree ? resource : { ...resource, health: resourceHealth },
        ),
      ),
    ),
    history: app.history.map(entry => ({
      id: entry.id,
      ...revisionsOf(entry),
      ...sourcesOf(entry.digests),
      deployStartedAt: isoSeconds(entry.deployStartedAt),
      deployedAt: isoSeconds(entry.deployedAt),
      initiatedBy: { automated: true },
    })),
  };
  if (app.operation) {
    status.operationState = {
      operation: {
        sync: {
          ...revisionsOf(app.operation),
          syncStrategy: { hook: {} },
        },
        initiatedBy: { automated: true },
        retry: { limit: 5 },
      },
      phase: 'Succeeded',
      message: 'successfully synced (all tasks run)',
      startedAt: isoSeconds(app.operation.startedAt),
      finishedAt: isoSeconds(app.operation.finishedAt),
      syncResult: {
        // Argo CD always writes syncResult.revision (no omitempty): '' when multi-source.
        revision: '',
        ...revisionsOf(app.operation),
        ...sourcesOf(app.operation.digests),
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
      resourceVersion: world.resourceVersionOf(app),
      generation: app.history.length + 1,
      creationTimestamp: isoSeconds(app.createdAt),
      labels: applicationLabels(app),
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
      ...sourcesOf(app.specDigests),
      destination,
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        syncOptions: ['CreateNamespace=true'],
      },
    },
    status,
  };
}
