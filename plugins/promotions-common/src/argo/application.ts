import { argoTimeMillis } from './time';
import type { Application, ApplicationResourceStatus } from './types';

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * The git revision the Application is synced to: `status.sync.revision`, or the first of
 * `status.sync.revisions` for a multi-source Application.
 *
 * @public
 */
export function syncedRevision(
  app: Application | undefined,
): string | undefined {
  const sync = app?.status?.sync;
  if (nonEmpty(sync?.revision)) return sync!.revision;
  const first = Array.isArray(sync?.revisions) ? sync!.revisions[0] : undefined;
  return nonEmpty(first) ? first : undefined;
}

/**
 * Every synced revision: `[status.sync.revision]`, or `status.sync.revisions` (one per source,
 * in `spec.sources` order) for a multi-source Application.
 *
 * @public
 */
export function syncedRevisions(app: Application | undefined): string[] {
  const sync = app?.status?.sync;
  if (Array.isArray(sync?.revisions) && sync!.revisions.length > 0) {
    return sync!.revisions.filter(nonEmpty);
  }
  return nonEmpty(sync?.revision) ? [sync!.revision] : [];
}

/**
 * The images Argo CD saw running in the Application's pods (`status.summary.images`).
 *
 * @public
 */
export function runningImages(app: Application | undefined): string[] {
  const images = app?.status?.summary?.images;
  return Array.isArray(images) ? images.filter(nonEmpty) : [];
}

/**
 * The digest of an image reference: the `sha256:<64 hex>` after `@` (lower-cased), or
 * undefined for a tag-only reference or anything that is not a sha256 digest.
 *
 * @public
 */
export function imageDigest(image: string): string | undefined {
  const at = image.lastIndexOf('@');
  if (at < 0) return undefined;
  const digest = image.slice(at + 1).trim();
  return /^sha256:[0-9a-fA-F]{64}$/.test(digest)
    ? digest.toLowerCase()
    : undefined;
}

/**
 * The repository of an image reference, without tag and digest:
 * `reg.example.com:5000/alpha/storefront:1.2@sha256:…` → `reg.example.com:5000/alpha/storefront`.
 *
 * @public
 */
export function imageRepository(image: string): string {
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  return colon >= 0 ? withoutDigest.slice(0, colon) : withoutDigest;
}

/**
 * The `status.resources` entry of the service's Rollout (kind `Rollout`, name = service).
 *
 * @public
 */
export function findRollout(
  app: Application | undefined,
  service: string,
): ApplicationResourceStatus | undefined {
  const resources = app?.status?.resources;
  if (!Array.isArray(resources)) return undefined;
  return resources.find(
    r =>
      r?.kind === 'Rollout' &&
      r.name === service &&
      (r.group === undefined || r.group === '' || r.group === 'argoproj.io'),
  );
}

/**
 * Whether Argo CD has compared live state with git since the last sync operation finished
 * (`status.reconciledAt >= status.operationState.finishedAt`). True when there is no finished
 * operation; false when the operation finished but `reconciledAt` is missing or older.
 *
 * @public
 */
export function isReconciledAfterLastOperation(
  app: Application | undefined,
): boolean {
  const finishedAt = argoTimeMillis(app?.status?.operationState?.finishedAt);
  if (finishedAt === undefined) return true;
  const reconciledAt = argoTimeMillis(app?.status?.reconciledAt);
  return reconciledAt !== undefined && reconciledAt >= finishedAt;
}
