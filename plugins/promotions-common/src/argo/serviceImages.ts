import { ServiceRef, fillTemplate } from '../names';
import { imageDigest, imageRepository } from './application';

/**
 * The seeds' image repository of a Service (seed 002, step 2: CI "pushes it to the platform's
 * registry as team-alpha/shop-storefront@sha256:…"): `promotions.images.repository`'s default.
 *
 * @public
 */
export const SEEDS_IMAGE_REPOSITORY = '{registry}/team-{team}/{product}-{service}';

/**
 * How the platform names a Service's image: `promotions.images`.
 *
 * @public
 */
export interface ImageNaming {
  /**
   * A template over `{registry}`, `{team}`, `{product}` and `{service}`;
   * {@link SEEDS_IMAGE_REPOSITORY} when not given.
   */
  repository?: string;
  /** The registry host `{registry}` stands for; any host when not given. */
  registry?: string;
}

/**
 * One Service's images to find: the Service, its Product, and the digest the stage's Release
 * names for it.
 *
 * @public
 */
export interface ServiceImageQuery {
  service: string;
  /** The Product's team and name; without them, only the Service's name tells (`…/storefront`). */
  team?: string;
  product?: string;
  /** An image that carries this digest *is* the Service's image, whatever its name (seed 000). */
  releasedDigest?: string;
  naming?: ImageNaming;
}

/** The repository without its registry host: `localhost`, or a first segment with `.` or `:` (as Docker tells). */
function withoutHost(repository: string): string {
  const slash = repository.indexOf('/');
  if (slash < 0) return repository;
  const first = repository.slice(0, slash);
  const isHost = first === 'localhost' || first.includes('.') || first.includes(':');
  return isHost ? repository.slice(slash + 1) : repository;
}

function render(template: string, query: ServiceRef, registry: string): string {
  return fillTemplate(template.replace(/\{registry\}/g, registry), query);
}

/**
 * A Service's repository inside its registry, as the OCI distribution API
 * names it (`/v2/<name>/…`): `promotions.images.repository` filled in, its
 * registry host left out (the seeds' `team-alpha/shop-storefront`).
 *
 * @public
 */
export function registryRepository(service: ServiceRef, naming?: ImageNaming): string {
  return withoutHost(render(naming?.repository ?? SEEDS_IMAGE_REPOSITORY, service, naming?.registry ?? 'registry.invalid'));
}

/** Whether an image repository is the one `promotions.images.repository` names for the Service. */
function matchesTemplate(repository: string, query: ServiceImageQuery): boolean {
  const { team, product, service } = query;
  if (!team || !product) return false;
  const known: ServiceRef = { team, product, service };
  const template = query.naming?.repository ?? SEEDS_IMAGE_REPOSITORY;
  const registry = query.naming?.registry;
  if (registry || !template.startsWith('{registry}/')) {
    return repository === render(template, known, registry ?? '');
  }
  // Without a configured registry, `{registry}` is whatever host the image has.
  const expected = render(template.slice('{registry}/'.length), known, '');
  return withoutHost(repository) === expected;
}

/**
 * Whether an image reference is *named* as the Service's: its repository is the one
 * `promotions.images.repository` names (the seeds' `team-alpha/shop-storefront` by default), or
 * its last path segment is the Service (`…/alpha/storefront`, a Service-named image).
 * Names tell what runs or is injected instead of the released digest; the digest itself is found
 * whatever the name ({@link isServiceImage}).
 *
 * @public
 */
export function namesService(image: string, query: ServiceImageQuery): boolean {
  if (!query.service) return false;
  const repository = imageRepository(image.trim());
  const last = repository.split('/').pop();
  return matchesTemplate(repository, query) || last === query.service;
}

/**
 * Whether an image reference is the Service's: it carries the digest the Release names (the digest
 * is the contract), or it is named as the Service's ({@link namesService}).
 *
 * @public
 */
export function isServiceImage(image: string, query: ServiceImageQuery): boolean {
  if (!query.service) return false;
  const released = query.releasedDigest?.toLowerCase();
  return (released !== undefined && imageDigest(image) === released) || namesService(image, query);
}

/**
 * The Service's images among running ones (`status.summary.images`): each that carries the
 * released digest or is named as the Service's.
 *
 * @public
 */
export function imagesForService(images: readonly string[], query: ServiceImageQuery): string[] {
  return images.filter(image => isServiceImage(image, query));
}
