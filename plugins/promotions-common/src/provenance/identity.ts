import { SignerIdentity } from './types';

/** Whose image a template is filled in for. @public */
export interface ImageOwner {
  team: string;
  product: string;
  service: string;
}

const PLACEHOLDER = /\{(team|product|service)\}/g;

/**
 * Fills `{team}`, `{product}` and `{service}` in a configured template, e.g.
 * the signer identity
 * `https://github.com/acme/{product}/.github/workflows/build-sign.yml@refs/heads/main`
 * or the image name `team-{team}/{product}-{service}` (the seeds' convention).
 *
 * @public
 */
export function fillTemplate(template: string, owner: ImageOwner): string {
  return template.replace(PLACEHOLDER, (_match, key: keyof ImageOwner) => owner[key]);
}

/** Placeholders other than `{team}`, `{product}` and `{service}`: a config mistake to say at start. @public */
export function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(/\{([^{}]*)\}/g)].map(match => match[1]).filter(name => !['team', 'product', 'service'].includes(name));
}

/** The seeds' image name (seed 002, step 2: `team-alpha/shop-storefront`). @public */
export const SEED_IMAGE_NAME = 'team-{team}/{product}-{service}';

/** A signer template filled in for one image. @public */
export function expectedSigner(template: SignerIdentity, owner: ImageOwner): SignerIdentity {
  return { issuer: fillTemplate(template.issuer, owner), identity: fillTemplate(template.identity, owner) };
}
