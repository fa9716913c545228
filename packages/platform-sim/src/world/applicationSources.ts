import type { ApplicationSourceShape } from '../options';
import { RELEASES_DIR, StageKey } from '../platform/layout';
import { ImageNaming, imageFor, imageRepository } from '../seed/digests';

/** Where an Application's sources live. */
export interface SourceContext {
  shape: ApplicationSourceShape;
  imageNaming: ImageNaming;
  /** The platform repository's clone URL. */
  platformRepoURL: string;
  /** The clone URL of a Product's app repo. */
  appRepoURL(key: Pick<StageKey, 'team' | 'product'>): string;
}

/** The commits one comparison or sync was about. */
export interface SourceRevisions {
  /** The platform repo's main. */
  revision: string;
  /** The app repo's main ('' in the platform-repo shape). */
  appRevision: string;
}

type Source = Record<string, unknown>;

/** The path of a stage's overlay in a Product's app repo. */
export function overlayPath(stage: string): string {
  return `k8s/overlays/${stage}`;
}

/**
 * Kustomize image overrides as an ApplicationSet writes them into
 * spec.source.kustomize.images (`[old_image_name=]<image_name>@<digest>`, what
 * `kustomize edit set image` takes): the overlay's `<image>:placeholder`
 * becomes `<image>@<digest>`.
 */
export function kustomizeImages(
  naming: ImageNaming,
  key: Pick<StageKey, 'team' | 'product'>,
  digests: Record<string, string>,
): string[] {
  return Object.keys(digests)
    .sort()
    .map(service => {
      const repository = imageRepository(naming, { ...key, service });
      return `${repository}=${imageFor(repository, digests[service])}`;
    });
}

/**
 * An Application's sources in spec order for one set of digests: the Release
 * file of the platform repo, or the app repo's overlay with the digests
 * injected (plus the platform repo as a `ref` source when multi-source).
 */
export function applicationSources(
  context: SourceContext,
  key: StageKey,
  digests: Record<string, string>,
): Source[] {
  const platformRepo = {
    repoURL: context.platformRepoURL,
    targetRevision: 'main',
  };
  if (context.shape === 'platform-repo') {
    return [
      {
        ...platformRepo,
        path: `${RELEASES_DIR}/${key.team}/${key.product}`,
        directory: { include: `${key.stage}.yaml` },
      },
    ];
  }
  const appRepo = {
    repoURL: context.appRepoURL(key),
    path: overlayPath(key.stage),
    targetRevision: 'main',
    kustomize: { images: kustomizeImages(context.imageNaming, key, digests) },
  };
  return context.shape === 'multi-source'
    ? [appRepo, { ...platformRepo, ref: 'values' }]
    : [appRepo];
}

/** The revisions of the sources, in spec order. */
export function sourceRevisions(
  context: SourceContext,
  revisions: SourceRevisions,
): string[] {
  if (context.shape === 'platform-repo') return [revisions.revision];
  return context.shape === 'multi-source'
    ? [revisions.appRevision, revisions.revision]
    : [revisions.appRevision];
}

/** `{source}` or, for a multi-source Application, `{sources}` (the field names Argo CD uses everywhere). */
export function sourceFields(
  context: SourceContext,
  sources: Source[],
): { source: Source } | { sources: Source[] } {
  return context.shape === 'multi-source'
    ? { sources }
    : { source: sources[0] };
}

/** `{revision}` or, for a multi-source Application, `{revisions}`. */
export function revisionFields(
  context: SourceContext,
  revisions: string[],
): { revision: string } | { revisions: string[] } {
  return context.shape === 'multi-source'
    ? { revisions }
    : { revision: revisions[0] };
}
