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

/** A service's image repository: registry.refplat.org/<team>/<service>. */
export function imageRepository(team: string, service: string): string {
  return `registry.refplat.org/${team}/${service}`;
}

/** The image reference a service's pods run: registry.refplat.org/<team>/<service>@<digest>. */
export function imageFor(
  team: string,
  service: string,
  digest: string,
): string {
  return `${imageRepository(team, service)}@${digest}`;
}

/** The digest part of an image reference (or undefined for tag-only images). */
export function digestOfImage(image: string): string | undefined {
  const at = image.lastIndexOf('@');
  return at >= 0 ? image.slice(at + 1) : undefined;
}
