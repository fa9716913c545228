import { ServiceRef, fillTemplate } from '../names';
import { SignerIdentity } from './types';

/** Placeholders other than `{team}`, `{product}` and `{service}`: a config mistake to say at start. @public */
export function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(/\{([^{}]*)\}/g)].map(match => match[1]).filter(name => !['team', 'product', 'service'].includes(name));
}

/** A signer template (`promotions.provenance.signer` or `.builder`) filled in for one Service. @public */
export function expectedSigner(template: SignerIdentity, service: ServiceRef): SignerIdentity {
  return { issuer: fillTemplate(template.issuer, service), identity: fillTemplate(template.identity, service) };
}

/**
 * The repository a GitHub Actions workflow identity runs in
 * (`https://github.com/acme/shop/.github/workflows/build-sign.yml@refs/heads/main`
 * → `https://github.com/acme/shop`), placeholders kept; undefined for any other form.
 * Plain http is for a GitHub on loopback, such as a simulator's.
 *
 * @public
 */
export function workflowRepository(identity: string): string | undefined {
  return identity.match(/^(https?:\/\/[^/]+\/[^/]+\/[^/]+)\/\.github\/workflows\//)?.[1];
}
