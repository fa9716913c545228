/**
 * Names that end up in file paths, branch names and ArgoCD Application names.
 * Kubernetes' DNS-1123 label rule keeps them safe in all three places.
 */
const NAME_PATTERN = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** An image digest: never a tag. */
const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** @public */
export function isValidName(value: unknown): value is string {
  return typeof value === 'string' && NAME_PATTERN.test(value);
}

/** @public */
export function isValidDigest(value: unknown): value is string {
  return typeof value === 'string' && DIGEST_PATTERN.test(value);
}

/**
 * `sha256:0123456789ab` — enough to tell digests apart on screen.
 *
 * @public
 */
export function shortDigest(digest: string): string {
  return digest.startsWith('sha256:') ? digest.slice(0, 19) : digest.slice(0, 12);
}

/** @public */
export type ProductRef = { team: string; product: string };

/**
 * Parses the `refplat.org/product` annotation value (`team/product`).
 * Returns undefined for anything that is not exactly two valid names.
 *
 * @public
 */
export function parseProductRef(value: string | undefined): ProductRef | undefined {
  if (!value) return undefined;
  const parts = value.trim().split('/');
  if (parts.length !== 2 || !parts.every(isValidName)) return undefined;
  return { team: parts[0], product: parts[1] };
}

/** @public */
export function formatProductRef(ref: ProductRef): string {
  return `${ref.team}/${ref.product}`;
}

/**
 * The ArgoCD Application (and Environment) name for one Product at one Stage.
 *
 * @public
 */
export function applicationName(ref: ProductRef, stage: string): string {
  return `${ref.team}-${ref.product}-${stage}`;
}

/** A Service of a Product, as templates name it. @public */
export type ServiceRef = ProductRef & { service: string };

/**
 * Fills `{team}`, `{product}` and `{service}` in a configured template, e.g.
 * an image repository (`team-{team}/{product}-{service}`) or a signer identity
 * (`https://github.com/acme/{product}/.github/workflows/build-sign.yml@refs/heads/main`).
 * Other placeholders are left as they are.
 *
 * @public
 */
export function fillTemplate(template: string, owner: ServiceRef): string {
  return template.replace(/\{(team|product|service)\}/g, (_match, key: keyof ServiceRef) => owner[key]);
}

/**
 * A name's possessive as English writes it: `storefront's`, but `comments'`
 * (a Service named in the plural).
 *
 * @public
 */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}
