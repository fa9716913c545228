import {
  ClassifiedSource,
  classifySources,
  comparedToCurrentSpec,
} from '../argo/applicationSources';
import { InjectedImage, injectedImages } from '../argo/injectedImages';
import type { ImageNaming, ServiceImageQuery } from '../argo/serviceImages';
import type { GitRepoRef } from '../argo/repoUrl';
import type { Application } from '../argo/types';
import { shortDigestText, shortRevision } from './format';
import { HealthVerdict, worstVerdict } from './verdict';

/**
 * The Application shapes the rule knows (see README "Application shapes"):
 * - `platform-repo`: the Application syncs the platform repo; its revision must carry the Release file;
 * - `app-repo`: it syncs app repos, and the ApplicationSet injects the Release digest into the spec;
 * - `multi-source`: `spec.sources`, each source judged by its kind;
 * - `unrecognised`: no source at all.
 *
 * @public
 */
export type ApplicationShape = 'platform-repo' | 'app-repo' | 'multi-source' | 'unrecognised';

/** @public */
export interface ReleaseAppliedInput {
  /** The digest the stage's Release record names for the service (undefined = not released). */
  releasedDigest?: string;
  application: Application;
  /** Tells platform-repo sources from app-repo ones. */
  platformRepo: GitRepoRef;
  /**
   * Computed by the caller for the platform-repo revisions only: does the revision's Release name
   * this service's current digest? Missing or undefined: not known.
   */
  platformRevisionCarriesRelease: Readonly<Record<string, boolean | undefined>>;
  /** The Product, which names its Services' images (`promotions.images`). */
  product?: { team: string; product: string };
  imageNaming?: ImageNaming;
}

/** @public */
export interface ReleaseApplied {
  verdict: HealthVerdict;
  /** Which shape was judged and what it showed. */
  detail: string;
  shape: ApplicationShape;
}

interface Judged {
  verdict: HealthVerdict;
  detail: string;
}

function sourceLabel(source: ClassifiedSource, multiSource: boolean): string {
  const what = source.kind === 'platform-repo' ? 'platform repo' : 'app repo';
  return multiSource ? `${what} source #${source.index + 1}` : `${what} source`;
}

/** Platform-repo source: ArgoCD compared a platform commit; it must carry the current Release file. */
function judgePlatformSource(
  source: ClassifiedSource,
  label: string,
  carries: ReleaseAppliedInput['platformRevisionCarriesRelease'],
): Judged {
  const { revision } = source;
  if (!revision) {
    return {
      verdict: 'progressing',
      detail: `${label}: ArgoCD has not compared a platform repo commit yet`,
    };
  }
  const carried = Object.prototype.hasOwnProperty.call(carries, revision)
    ? carries[revision]
    : undefined;
  if (carried === true) {
    return {
      verdict: 'healthy',
      detail: `${label}: synced revision ${shortRevision(revision)} carries the current Release`,
    };
  }
  if (carried === false) {
    return {
      verdict: 'progressing',
      detail: `${label}: ArgoCD is synced to revision ${shortRevision(revision)}, which does not carry the current Release yet`,
    };
  }
  return {
    verdict: 'unknown',
    detail: `${label}: could not read revision ${shortRevision(revision)} of the platform repo to compare its Release file`,
  };
}

function describeInjected(images: InjectedImage[]): string {
  return images
    .map(image => (image.digest ? `${shortDigestText(image.digest)} (${image.via})` : `${image.text} (${image.via}, no digest)`))
    .join(', ');
}

/**
 * App-repo sources: the ApplicationSet injects the Release digest into the spec, and ArgoCD has
 * compared against that spec (`comparedTo` is the current spec), so what it applied is the
 * Release. A spec without the digest is an ApplicationSet that has not caught up yet.
 */
function judgeInjection(
  query: ServiceImageQuery,
  app: Application,
  injected: InjectedImage[],
  label: string,
): Judged {
  const { service, releasedDigest: released } = query;
  if (!released) {
    return {
      verdict: 'unknown',
      detail: `${label}: the Release names no digest for ${service} to look for in the Application spec`,
    };
  }
  if (injected.length === 0) {
    return {
      verdict: 'progressing',
      detail: `${label}: the Application spec injects no image for ${service} (kustomize images or Helm parameters); the ApplicationSet has not written the Release into it yet`,
    };
  }
  if (injected.some(image => image.digest !== released)) {
    return {
      verdict: 'progressing',
      detail: `${label}: the Application spec injects ${describeInjected(injected)} for ${service} but the Release names ${shortDigestText(released)}; the ApplicationSet has not regenerated the Application yet`,
    };
  }
  const revision = app.status?.sync?.revision ?? app.status?.sync?.revisions?.[0];
  if (comparedToCurrentSpec(app)) {
    return {
      verdict: 'healthy',
      detail: `${label}: the spec injects ${describeInjected(injected)} for ${service} and ArgoCD compared against this spec${revision ? ` (revision ${shortRevision(revision)})` : ''}`,
    };
  }
  // Another Service's new digest changes the spec too; what matters for this Service is that
  // the spec ArgoCD last compared already injected its released digest.
  if (comparedInjectsOnly(app, query, released)) {
    return {
      verdict: 'healthy',
      detail: `${label}: ArgoCD compared a spec injecting ${shortDigestText(released)} for ${service}; the spec has changed since for other Services only`,
    };
  }
  return {
    verdict: 'progressing',
    detail: `${label}: the spec injects ${describeInjected(injected)} for ${service}, but ArgoCD has not compared against it yet (status.sync.comparedTo injects ${describeInjected(comparedInjections(app, query)) || 'nothing'} for ${service})`,
  };
}

/** What `status.sync.comparedTo` (the spec ArgoCD last compared) injects for the Service. */
function comparedInjections(app: Application, query: ServiceImageQuery): InjectedImage[] {
  const comparedTo = app.status?.sync?.comparedTo;
  const sources = [comparedTo?.source, ...(comparedTo?.sources ?? [])];
  return sources.flatMap(source =>
    source && typeof source === 'object' ? injectedImages(source, query) : [],
  );
}

function comparedInjectsOnly(app: Application, query: ServiceImageQuery, digest: string): boolean {
  const injected = comparedInjections(app, query);
  return injected.length > 0 && injected.every(image => image.digest === digest);
}

/**
 * Has ArgoCD applied the current Release for `service`? Decided by the Application's shape:
 * a platform-repo source by its revision carrying the Release file; app-repo sources by the
 * Release digest injected into the spec and `comparedTo` being that spec; a multi-source
 * Application by each source's own kind (app-repo sources that inject nothing for the service are
 * left to the platform-repo sources, when there are any). Never `unknown` for a shape: only a
 * platform revision that could not be read is unknown.
 *
 * @public
 */
export function judgeReleaseApplied(service: string, input: ReleaseAppliedInput): ReleaseApplied {
  const { application: app, platformRepo } = input;
  const released = input.releasedDigest?.toLowerCase();
  const query: ServiceImageQuery = { ...input.product, service, releasedDigest: released, naming: input.imageNaming };
  const { multiSource, sources } = classifySources(app, platformRepo);
  if (sources.length === 0) {
    const name = app.metadata?.name;
    return {
      verdict: 'unhealthy',
      shape: 'unrecognised',
      detail: `${name ? `Application ${name}` : 'The Application'} has no spec.source or spec.sources, so which Release ArgoCD applied cannot be told`,
    };
  }
  const shape: ApplicationShape = multiSource ? 'multi-source' : sources[0].kind;

  const judged: Judged[] = sources
    .filter(source => source.kind === 'platform-repo')
    .map(source =>
      judgePlatformSource(source, sourceLabel(source, multiSource), input.platformRevisionCarriesRelease),
    );
  const appSources = sources.filter(source => source.kind === 'app-repo');
  const injecting = appSources
    .map(source => ({ source, images: injectedImages(source.source, query) }))
    .filter(({ images }) => images.length > 0);
  if (injecting.length > 0 || judged.length === 0) {
    const label =
      injecting.length === 1
        ? sourceLabel(injecting[0].source, multiSource)
        : `${multiSource ? 'app repo sources' : 'app repo source'}`;
    judged.push(
      judgeInjection(query, app, injecting.flatMap(({ images }) => images), label),
    );
  }

  const verdict = worstVerdict(judged.map(j => j.verdict));
  const relevant = verdict === 'healthy' ? judged : judged.filter(j => j.verdict !== 'healthy');
  const text = `${multiSource ? 'Multi-source Application: ' : ''}${relevant.map(j => j.detail).join('; ')}`;
  return {
    verdict,
    shape,
    detail: text.charAt(0).toUpperCase() + text.slice(1),
  };
}
