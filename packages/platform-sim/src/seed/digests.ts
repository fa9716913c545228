import { createHash, randomBytes } from 'node:crypto';

export const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** A stable digest for a label, so seeded data is identical on every start. */
export function digestFor(label: string): string {
  return `sha256:${createHash('sha256').update(label).digest('hex')}`;
}

/** A fresh digest, as CI would produce for a new build. */
export function randomDigest(): string {
  return `sha256:${createHash('sha256').update(randomBytes(32)).digest('hex')}`;
}

export function isDigest(value: unknown): value is string {
  return typeof value === 'string' && DIGEST_PATTERN.test(value);
}

/**
 * How the simulator names a Service's image: `seeds`, as the seeds do
 * (`registry.refplat.org/team-<team>/<product>-<service>`, seed 002), or
 * `team-service`, the simulator's first form (`registry.refplat.org/<team>/<service>`).
 */
export type ImageNaming = 'seeds' | 'team-service';

export const IMAGE_NAMINGS: readonly ImageNaming[] = ['seeds', 'team-service'];

/** The simulator's registry host. */
export const REGISTRY = 'registry.refplat.org';

/** A Service's image repository under the given naming. */
export function imageRepository(
  naming: ImageNaming,
  key: { team: string; product: string; service: string },
): string {
  return naming === 'seeds'
    ? `${REGISTRY}/team-${key.team}/${key.product}-${key.service}`
    : `${REGISTRY}/${key.team}/${key.service}`;
}

/** The image reference a Service's pods run: `<repository>@<digest>`. */
export function imageFor(repository: string, digest: string): string {
  return `${repository}@${digest}`;
}

/** The digest part of an image reference (or undefined for tag-only images). */
export function digestOfImage(image: string): string | undefined {
  const at = image.lastIndexOf('@');
  return at >= 0 ? image.slice(at + 1) : undefined;
}
