import type { SeedDigestSource } from '../seed/seedPlatform';
import { CiSupplyChain } from './ciSupplyChain';

/**
 * The seed's digests as real builds (SimOptions.seedBuilds): each seeded
 * version of a Service is published once, signed and attested as a CI push
 * is, and every stage the seed puts it in names that build's digest.
 */
export function seededBuilds(supplyChain: CiSupplyChain): SeedDigestSource {
  const published = new Map<string, Promise<string>>();
  return (team, product, service, version) => {
    const key = `${team}/${product}/${service}:v${version}`;
    let digest = published.get(key);
    if (!digest) {
      digest = supplyChain.publish({ team, product, service }, {});
      published.set(key, digest);
    }
    return digest;
  };
}
