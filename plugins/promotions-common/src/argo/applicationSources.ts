import { GitRepoRef, isRepoUrlOf } from './repoUrl';
import type { Application, ApplicationSource } from './types';

/**
 * `platform-repo`: the source is the platform repo itself (its revision must carry the Release
 * file). `app-repo`: any other repository (a Service's app repo, a Helm chart repository), into
 * whose spec the ApplicationSet injects the Release digest.
 *
 * @public
 */
export type ApplicationSourceKind = 'platform-repo' | 'app-repo';

/** @public */
export interface ClassifiedSource {
  kind: ApplicationSourceKind;
  /** Position in `spec.sources` (0 for `spec.source`). */
  index: number;
  source: ApplicationSource;
  /** The revision Argo CD compared for this source (`status.sync.revision` / `revisions[index]`). */
  revision?: string;
}

/** @public */
export interface ApplicationSources {
  /** `spec.sources` is used (Argo CD prefers it over `spec.source` when it is not empty). */
  multiSource: boolean;
  sources: ClassifiedSource[];
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function isSourceObject(value: unknown): value is ApplicationSource {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Argo CD uses `spec.sources` when it is not empty, else `spec.source`. */
function isMultiSource(app: Application | undefined): boolean {
  return Array.isArray(app?.spec?.sources) && app!.spec!.sources.length > 0;
}

/**
 * The Application's sources, each with its kind and the revision Argo CD compared, in spec order.
 * A single source is `spec.source` with `status.sync.revision`; a multi-source Application has
 * `spec.sources` with `status.sync.revisions` in the same order.
 *
 * @public
 */
export function classifySources(
  app: Application | undefined,
  platformRepo: GitRepoRef,
): ApplicationSources {
  const multiSource = isMultiSource(app);
  const sync = app?.status?.sync;
  const specSources = multiSource ? app!.spec!.sources! : [app?.spec?.source];
  const multiRevisions = Array.isArray(sync?.revisions) ? sync!.revisions : [];
  const revisions = multiSource ? multiRevisions : [sync?.revision];
  const sources: ClassifiedSource[] = [];
  specSources.forEach((source, index) => {
    if (!isSourceObject(source)) return;
    const revision = revisions[index];
    sources.push({
      kind: isRepoUrlOf(source.repoURL, platformRepo) ? 'platform-repo' : 'app-repo',
      index,
      source,
      revision: nonEmpty(revision) ? revision : undefined,
    });
  });
  return { multiSource, sources };
}

/**
 * The platform-repo revisions Argo CD compared: the only revisions worth looking up in the
 * platform repo (an app-repo commit is never there).
 *
 * @public
 */
export function platformRepoRevisions(
  app: Application | undefined,
  platformRepo: GitRepoRef,
): string[] {
  const revisions = classifySources(app, platformRepo)
    .sources.filter(source => source.kind === 'platform-repo')
    .map(source => source.revision)
    .filter(nonEmpty);
  return [...new Set(revisions)];
}

/**
 * Drops what Go's `omitempty` drops (undefined, null, '', 0, false, empty lists and objects), so
 * a spec as a client wrote it and the copy the controller serialised into `comparedTo` compare
 * equal. Object keys are sorted.
 */
function withoutEmptyValues(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(withoutEmptyValues);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map(key => [key, withoutEmptyValues((value as Record<string, unknown>)[key])] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  if (value === null || value === '' || value === 0 || value === false) return undefined;
  return value;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(withoutEmptyValues(a)) === JSON.stringify(withoutEmptyValues(b));
}

/**
 * Whether Argo CD's last comparison used the current spec: `status.sync.comparedTo.source(s)`
 * equals `spec.source(s)` (same values, key order and empty fields aside). Until then Argo CD
 * has not looked at what the ApplicationSet last wrote into the spec.
 *
 * @public
 */
export function comparedToCurrentSpec(app: Application | undefined): boolean {
  const comparedTo = app?.status?.sync?.comparedTo;
  if (!comparedTo) return false;
  return isMultiSource(app)
    ? Array.isArray(comparedTo.sources) && sameJson(comparedTo.sources, app?.spec?.sources)
    : comparedTo.source !== undefined && sameJson(comparedTo.source, app?.spec?.source);
}
